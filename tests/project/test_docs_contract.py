"""docs/cli.md names every command and every option that exists; README lists the commands.

The command tree is walked from the app itself (`d4cli.cli.app.COMMANDS` and the
groups' subcommands), so a new command or option fails here until it is
documented. Reserved spellings (docs/cli.md "Spellings reserved for coming
commands") are only for commands that do not exist yet.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.main

from d4cli.cli.app import COMMANDS, app

REPO = Path(__file__).resolve().parents[2]
CLI_MD = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
README = (REPO / "README.md").read_text(encoding="utf-8")


def _tree(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, command
    if hasattr(command, "list_commands"):  # a group (Typer's own Click classes)
        ctx = typer.Context(command)
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            assert sub is not None, name
            yield from _tree(sub, (*path, name))


TREE = list(_tree(typer.main.get_command(app)))


def _documented_command(name: str, text: str) -> bool:
    return re.search(rf"d4cli {re.escape(name)}(?![\w-])", text) is not None


def _documented_option(option: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


def test_every_command_of_the_app_is_in_the_contract():
    names = [" ".join(path) for path, _ in TREE if path]
    assert set(COMMANDS) <= {name.split()[0] for name in names}
    assert [name for name in names if not _documented_command(name, CLI_MD)] == []


def test_every_option_of_every_command_is_in_the_contract():
    missing = [
        f"{' '.join(path) or 'd4cli'} {option}"
        for path, command in TREE
        for param in command.params
        for option in (*param.opts, *param.secondary_opts)
        if option.startswith("-") and not _documented_option(option, CLI_MD)
    ]
    assert missing == []


def test_the_walk_sees_subcommands_and_options():
    paths = {" ".join(path) for path, _ in TREE}
    assert {"roll pool", "turn start", "effect add", "action remove", "redo", "check"} <= paths
    options = {option for _, command in TREE for param in command.params for option in param.opts}
    assert {"--ignore-load", "--rule-of-three", "--until-end-of", "--label", "--kind"} <= options


def test_the_checks_would_catch_an_undocumented_name():
    assert not _documented_command("teleport", CLI_MD)
    assert not _documented_option("--teleport", CLI_MD)
    assert _documented_option("--dc", "d4cli act A Might --dc 12")
    assert not _documented_option("--dc", "d4cli act A Might --dc-tier hard")


def _reserved_section(text: str = CLI_MD) -> str:
    """The section of spellings reserved for commands still to come ("" when none are)."""
    start = text.find("## Spellings reserved for coming commands")
    if start < 0:
        return ""
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def test_no_existing_command_is_still_reserved():
    reserved = _reserved_section()
    assert [name for name in COMMANDS if _documented_command(name, reserved)] == []


def test_the_reserved_check_would_catch_a_command_that_exists():
    # docs/cli.md reserves nothing today, so the check above has nothing to read: this one shows
    # that a reserved spelling of an existing command would be found, and only in that section.
    page = "# d4cli\n\n## Spellings reserved for coming commands\n\n`d4cli redo`\n\n## Commands\n\n`d4cli undo`\n"
    reserved = _reserved_section(page)
    assert [name for name in COMMANDS if _documented_command(name, reserved)] == ["redo"]
    assert _reserved_section("# d4cli\n\n## Commands\n\n`d4cli redo`\n") == ""


@pytest.mark.parametrize(
    "command", ["redo", "play", "check", "action", "effect", "damage", "heal", "move"]
)
def test_readme_shows_the_command(command):
    assert _documented_command(command, README), command
