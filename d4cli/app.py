"""The root Typer app: joins one sub-app per command group (shared/CLI.md).

Command modules are loaded lazily (`D4Group.command_modules`): a run imports
and builds only the command it uses, which keeps start-up near ``import typer``.
"""

# No `from __future__ import annotations`: Typer reads the annotations on every run
# (see d4cli/commands/roll.py).
from typing import Annotated

import typer

from d4cli import __version__
from d4cli.shell import D4Group

# Top-level command -> the module that defines it (a `register(app)` function,
# else a Typer `app` added under that name). Listed in help order.
COMMAND_MODULES: dict[str, str] = {
    "roll": "d4cli.commands.roll",
    "init": "d4cli.commands.encounter",
    "add": "d4cli.commands.encounter",
    "remove": "d4cli.commands.encounter",
    "status": "d4cli.commands.encounter",
    "turn": "d4cli.commands.turn",
    "act": "d4cli.commands.encounter",
    "team": "d4cli.commands.encounter",
    "exhaust": "d4cli.commands.encounter",
    "log": "d4cli.commands.encounter",
    "undo": "d4cli.commands.encounter",
    "redo": "d4cli.commands.encounter",
    "odds": "d4cli.commands.odds",
    "help": "d4cli.commands.help",
}


class RootGroup(D4Group):
    """The d4cli root: D4Group with this app's command modules."""

    command_modules = COMMAND_MODULES


app = typer.Typer(
    cls=RootGroup,
    name="d4cli",
    help="Dice roller and encounter turn-tracker for the D4 dice pool and the d20 Action Roll.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        print(f"d4cli {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Dice roller and encounter turn-tracker for the D4 dice pool and the d20 Action Roll.

    Try `d4cli roll pool 4 --adv torch` or `d4cli help`.
    """

