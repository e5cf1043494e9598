"""``d4cli play [--file PATH]``: an interactive session, or a script of commands on stdin."""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

import os
import sys
from typing import Annotated

import typer

from d4cli.cli.play_session import Session, check_file, read_lines, run_piped

FileOption = Annotated[
    str | None,
    typer.Option(
        "--file",
        "-f",
        metavar="PATH",
        help="The encounter file; else D4CLI_FILE, else ./encounter.toml.",
    ),
]


def play_command(file: FileOption = None) -> None:
    """Play a session: many commands at one prompt, in one process.

    Tab completes; history is kept. Piped, the lines run in order up to the
    first failure, whose exit code ends the session.

    Example: d4cli play; d4cli play < commands.txt
    """
    code = run_session(file)
    if code:
        raise typer.Exit(code)


def run_session(path: str | None) -> int:
    """Run a session on stdin (interactive on a terminal, else piped); its exit code.

    With *path*, commands that take ``--file`` use it unless a line names another
    (through ``D4CLI_FILE`` for the session's duration).

    Raises:
        FileError: *path* (or the default file) exists but is not a readable encounter.
    """

    check_file(path)
    if path is not None:
        os.environ["D4CLI_FILE"] = path
    session = Session(path)
    stdin = sys.stdin
    if stdin is None or stdin.closed:
        return 0
    if not stdin.isatty():
        return run_piped(session, read_lines(stdin))
    from d4cli.cli.play_prompt import interact  # prompt_toolkit: on a terminal only

    return interact(session)
