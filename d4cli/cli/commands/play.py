"""``d4cli play [--file PATH]``: an interactive session, or a script of commands on stdin."""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from typing import Annotated

import typer

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
    # The command boundary: --help lists this command without loading a session.
    from d4cli.cli.play_modes import run_session

    code = run_session(file)
    if code:
        raise typer.Exit(code)
