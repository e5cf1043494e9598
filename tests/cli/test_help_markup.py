"""``--help`` of every command reads as plain text: no reST or Markdown markup of a docstring reaches it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from _cli import run

from d4cli.cli.app import app


def _paths(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    yield path
    if hasattr(command, "list_commands"):
        for name in command.list_commands(None):
            yield from _paths(command.get_command(None, name), (*path, name))


PATHS = list(_paths(typer.main.get_command(app)))


def test_every_command_is_asked():
    assert ("act",) in PATHS and ("roll", "pool") in PATHS and ("effect", "add") in PATHS
    assert len(PATHS) > 40


@pytest.mark.parametrize("path", PATHS, ids=lambda path: " ".join(path) or "d4cli")
def test_help_has_no_markup(path):
    result = run(*path, "--help", env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.stderr
    for mark in ("``", "`", ":func:", ":class:"):
        assert mark not in result.stdout, (path, mark)
    # a reST directive (``.. note::``) starts a line; an ellipsis does not count
    assert not re.search(r"^[\s│]*\.\. ", result.stdout, re.M), path


def _command(path: tuple[str, ...]) -> Any:
    command: Any = typer.main.get_command(app)
    for name in path:
        command = command.get_command(None, name)
    return command


@pytest.mark.parametrize("path", PATHS, ids=lambda path: " ".join(path) or "d4cli")
def test_help_lines_fit_80_columns_unwrapped(path):
    # Typer's Rich help keeps a docstring's own line breaks; a line longer than the
    # 78 columns left beside the margin wraps and leaves a short ragged line after it.
    help_text = _command(path).help or ""
    long = [line.strip() for line in help_text.splitlines() if len(line.strip()) > 78]
    assert long == [], path
