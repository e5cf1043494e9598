"""The root Typer app and the one list of its commands (docs/cli.md).

Commands are loaded lazily (`d4cli.cli.lazy.LazyGroup`): a run imports and builds
only the command it uses, which keeps start-up near ``import typer``.
"""

# No `from __future__ import annotations`: Typer reads the annotations on every run
# (see d4cli/cli/commands/roll.py).
from typing import Annotated, Any

import typer

from d4cli import __version__
from d4cli.cli.lazy import Spec, from_specs
from d4cli.cli.root import D4Group

# `exhaust Aria -1` must reach parse_whole (a range error naming LEVEL), not "no such option".
NEGATIVE_OK: dict[str, Any] = {"context_settings": {"ignore_unknown_options": True}}

# Every top-level command, in help order: name -> "module:function" (one command) or
# "module:app" (a Typer app: a group of sub-commands); optionally with the keyword
# arguments of `typer.Typer.command`. Adding a command is adding its line here.
COMMANDS: dict[str, Spec] = {
    "roll": ("d4cli.cli.commands.roll:app", {"unknown_hint": "unknown_command_hint"}),
    "init": "d4cli.cli.commands.encounter:init_command",
    "add": "d4cli.cli.commands.encounter:add_command",
    "remove": "d4cli.cli.commands.encounter:remove_command",
    "status": "d4cli.cli.commands.encounter:status_command",
    "turn": "d4cli.cli.commands.turn:app",
    "act": "d4cli.cli.commands.act:act_command",
    "team": "d4cli.cli.commands.act:team_command",
    "effect": "d4cli.cli.commands.effect:app",
    "check": "d4cli.cli.commands.sheet:check_command",
    "action": "d4cli.cli.commands.sheet:app",
    "exhaust": ("d4cli.cli.commands.encounter:exhaust_command", NEGATIVE_OK),
    "move": "d4cli.cli.commands.fight:move_command",
    "damage": ("d4cli.cli.commands.fight:damage_command", NEGATIVE_OK),
    "heal": ("d4cli.cli.commands.fight:heal_command", NEGATIVE_OK),
    "note": "d4cli.cli.commands.notes:note_command",
    "reveal": "d4cli.cli.commands.player_view:reveal_command",
    "conceal": "d4cli.cli.commands.player_view:conceal_command",
    "alias": "d4cli.cli.commands.player_view:alias_command",
    "set": "d4cli.cli.commands.fields:set_command",
    "seat": "d4cli.cli.commands.seat:app",
    "requests": "d4cli.cli.commands.requests:requests_command",
    "approve": "d4cli.cli.commands.requests:approve_command",
    "deny": "d4cli.cli.commands.requests:deny_command",
    "board": "d4cli.cli.commands.board:board_command",
    "serve": "d4cli.cli.commands.serve:serve_command",
    "log": "d4cli.cli.commands.log:log_command",
    "undo": "d4cli.cli.commands.encounter:undo_command",
    "redo": "d4cli.cli.commands.encounter:redo_command",
    "odds": "d4cli.cli.commands.odds:app",
    "play": "d4cli.cli.commands.play:play_command",
    "simulate": "d4cli.cli.commands.simulate:simulate_command",
    "forecast": "d4cli.cli.commands.forecast:forecast_command",
    "balance": "d4cli.cli.commands.balance:balance_command",
    "recap": "d4cli.cli.commands.recap:recap_command",
    "handbook": "d4cli.cli.commands.handbook:handbook_command",
    "help": "d4cli.cli.commands.help:help_command",
}


class RootGroup(D4Group):
    """The d4cli root: `D4Group` (errors to exit codes) with this app's commands."""

    builders = from_specs(COMMANDS)


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
