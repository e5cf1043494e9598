"""``d4cli play [--file PATH]``: an interactive session, or a script of commands on stdin."""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from typing import Annotated

import typer

FileOption = Annotated[
    str | None,
    typer.Option("--file", "-f", metavar="PATH", help="The encounter file; else D4CLI_FILE, else ./encounter.toml."),
]


def play_command(file: FileOption = None) -> None:
    """Play a session: many commands at one prompt, in one process.

    Tab completes; history is kept. Piped, the lines run in order up to the
    first failure, whose exit code ends the session.

    Example: d4cli play; d4cli play < commands.txt
    """
    from d4cli.cli.play_session import play

    code = play(file)
    if code:
        raise typer.Exit(code)
