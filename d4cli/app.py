"""The root Typer app: joins one sub-app per command group (shared/CLI.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from d4cli import __version__
from d4cli.commands import help as help_cmd
from d4cli.commands import roll
from d4cli.shell import D4Group

app = typer.Typer(
    cls=D4Group,
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


app.add_typer(roll.app, name="roll")
help_cmd.register(app)
