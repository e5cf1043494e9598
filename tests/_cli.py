"""In-process CLI helpers shared by the command tests: one CliRunner, run, expect success, expect a
clean failure, and the folder's bytes to compare before and after.

Every test module that runs d4cli in process uses these; tests/_reliability.py holds what needs a
real process (kills, locks held elsewhere, Ctrl-C) and the reliability suite's own checks.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import typer.main
from typer.testing import CliRunner

from d4cli.cli.app import app


@functools.cache
def _command(typer_app: object) -> object:
    return typer.main.get_command(typer_app)  # type: ignore[arg-type]


class FastRunner(CliRunner):
    """typer's CliRunner on ``d4cli.cli.app.app``, its Click command built once instead of per call.

    Building the command tree is 90 % of an in-process call that fails on a bad
    option (8 ms against 0.6 ms, measured); caching it is what lets the fuzz
    tests run thousands of cases in seconds. Same command, same code path
    (``d4cli play`` runs every line through one command the same way).
    """

    def invoke(self, typer_app, args=None, **kwargs):  # type: ignore[override]
        with mock.patch("typer.testing._get_command", _command):
            return super().invoke(typer_app, args, **kwargs)


runner = FastRunner()


@dataclass(frozen=True)
class Outcome:
    """What one in-process d4cli command did: its arguments, exit code, stdout and stderr apart."""

    argv: tuple[str, ...]
    exit_code: int
    stdout: str
    stderr: str
    output: str  # stdout and stderr as a terminal would have shown them, interleaved

    def json(self) -> dict:
        """stdout as the one JSON object it holds."""
        return json.loads(self.stdout)

    def __str__(self) -> str:
        return (
            f"argv={list(self.argv)!r}\nexit={self.exit_code}\n"
            f"stdout={self.stdout[-600:]!r}\nstderr={self.stderr[-600:]!r}"
        )


def run(
    *args: str, file: Path | str | None = None, env: Mapping[str, str | None] | None = None
) -> Outcome:
    """``d4cli ARGS`` in process (``--file FILE`` appended when *file* is given).

    *env* is set for the call (a None value unsets a variable). An exception that
    escapes the shell (anything but an exit) fails the test: every error must
    become its exit code and one line.
    """
    argv = [*args, *(["--file", str(file)] if file is not None else [])]
    result = runner.invoke(app, argv, env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{argv!r}: escaped {result.exception!r}") from result.exception
    return Outcome(tuple(argv), result.exit_code, result.stdout, result.stderr, result.output)


def ok(
    *args: str, file: Path | str | None = None, env: Mapping[str, str | None] | None = None
) -> Outcome:
    """`run` a command that must succeed (exit 0)."""
    out = run(*args, file=file, env=env)
    assert out.exit_code == 0, str(out)
    return out


def ok_json(
    *args: str, file: Path | str | None = None, env: Mapping[str, str | None] | None = None
) -> dict:
    """`ok` with ``--json``: its one JSON object."""
    return ok(*args, "--json", file=file, env=env).json()


def files(path: Path) -> dict[str, bytes]:
    """Every file beside *path* (the encounter, its journal, redo file) by name, lock files aside."""
    return {
        p.name: p.read_bytes()
        for p in sorted(path.parent.iterdir())
        if p.is_file() and not p.name.endswith(".lock")
    }


def fails(
    code: int,
    path: Path,
    *args: str,
    env: Mapping[str, str | None] | None = None,
    usage: bool = False,
) -> str:
    """Run a command that must fail with *code*, leaving every file beside *path* as it was.

    Returns its error line. stderr is that one line, no traceback; on exit 2 stdout is
    empty too. With *usage* the error is a usage error: the command's usage line and
    the ``Try '... --help'`` hint come first, exactly as docs/cli.md allows.
    """
    before = files(path)
    result = run(*args, env=env)
    assert result.exit_code == code, str(result)
    assert files(path) == before
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    if code == 2:
        assert result.stdout == ""
    if usage:
        assert len(lines) == 3, lines
        assert (
            lines[0].startswith("Usage: d4cli ")
            and lines[1].startswith("Try 'd4cli ")
            and lines[1].endswith(" --help' for help.")
        ), lines
    else:
        assert len(lines) == 1, lines
    assert lines[-1].startswith("d4cli: "), lines
    return lines[-1]
