"""The root Typer app and the one list of its commands (docs/cli.md).

Commands are loaded lazily (`d4cli.cli.lazy.LazyGroup`): a run imports and builds
only the command it uses, and the list of commands (``--help``, a Tab on a command
name) is read from `COMMANDS`, which keeps start-up near ``import typer``.
"""

# No `from __future__ import annotations`: Typer reads the annotations on every run
# (see d4cli/cli/commands/roll.py).
from typing import Annotated, Any

import typer

from d4cli import __version__
from d4cli.cli.lazy import Listed, from_specs, panels_of, summaries_of
from d4cli.cli.root import D4Group

# `exhaust Aria -1` must reach parse_whole (a range error naming LEVEL), not "no such option".
NEGATIVE_OK: dict[str, Any] = {"context_settings": {"ignore_unknown_options": True}}

# The panels of `--help`, in help order (each holds the commands listed under it below).
DICE = "Dice and the rules"
FIGHT = "The fight"
PLAYERS = "The players"
DESIGNER = "The designer"

# Every top-level command, in help order: name -> where it is defined, "module:function"
# (one command) or "module:app" (a Typer app: a group of sub-commands), its panel in
# `--help`, and the first line of its help, which `--help`, a Tab on a command name and
# `play`'s `help` list without importing it (`d4cli.cli.lazy.Listed`); optionally the
# keyword arguments of `typer.Typer.command`. Adding a command is adding its line here.
COMMANDS: dict[str, Listed] = {
    "roll": Listed(
        "d4cli.cli.commands.roll:app",
        DICE,
        "Roll a D4 pool, a d20 Action Roll or plain dice.",
        {"unknown_hint": "unknown_command_hint", "implied": "implied_command"},
    ),
    "help": Listed(
        "d4cli.cli.commands.help:help_command",
        DICE,
        "Explain the rules, or one rule by its id (help R14).",
    ),
    "play": Listed(
        "d4cli.cli.commands.play:play_command",
        FIGHT,
        "Play a session: many commands at one prompt, in one process.",
    ),
    "init": Listed(
        "d4cli.cli.commands.encounter:init_command",
        FIGHT,
        "Create an encounter file, empty or from an example (R12).",
    ),
    "add": Listed(
        "d4cli.cli.commands.encounter:add_command",
        FIGHT,
        "Add a creature to the turn order (R1, R13).",
    ),
    "remove": Listed(
        "d4cli.cli.commands.encounter:remove_command",
        FIGHT,
        "Remove a creature; the turn never moves to someone else (R17).",
    ),
    "status": Listed(
        "d4cli.cli.commands.status:status_command",
        FIGHT,
        "Show whose turn it is, Loads and headroom (R2); NAME: one sheet.",
    ),
    "turn": Listed(
        "d4cli.cli.commands.turn:app",
        FIGHT,
        "Start and end turns (R1, R12-R14).",
    ),
    "act": Listed(
        "d4cli.cli.commands.act:act_command",
        FIGHT,
        "A creature acts: gate, pool, roll, Load, damage (R2-R11, R16).",
    ),
    "team": Listed(
        "d4cli.cli.commands.act:team_command",
        FIGHT,
        "A Team Action: a grant on another creature's next roll (R11).",
    ),
    "effect": Listed(
        "d4cli.cli.commands.effect:app",
        FIGHT,
        "Lasting effects: named Advantage and Disadvantage sources (R20).",
    ),
    "check": Listed(
        "d4cli.cli.commands.sheet:check_command",
        FIGHT,
        "A d20 check from a creature's stored stats (C1-C8).",
    ),
    "action": Listed(
        "d4cli.cli.commands.sheet:app",
        FIGHT,
        "Define a creature's named actions (used by 'act NAME ACTION').",
    ),
    "exhaust": Listed(
        "d4cli.cli.commands.encounter:exhaust_command",
        FIGHT,
        "Set or change a creature's Exhaustion level (R1, R15).",
        NEGATIVE_OK,
    ),
    "move": Listed(
        "d4cli.cli.commands.fight:move_command",
        FIGHT,
        "Move a creature in the turn order (R13, R19).",
    ),
    "damage": Listed(
        "d4cli.cli.commands.fight:damage_command",
        FIGHT,
        "Take hit points off one creature or several (R16, R18).",
        NEGATIVE_OK,
    ),
    "heal": Listed(
        "d4cli.cli.commands.fight:heal_command",
        FIGHT,
        "Give hit points back to one creature or several (R18).",
        NEGATIVE_OK,
    ),
    "note": Listed(
        "d4cli.cli.commands.notes:note_command",
        FIGHT,
        "Write a note to the log, or set a creature's notes.",
    ),
    "set": Listed(
        "d4cli.cli.commands.fields:set_command",
        FIGHT,
        "Change a creature's fields mid-fight, checked as the file is.",
    ),
    "log": Listed(
        "d4cli.cli.commands.log:log_command",
        FIGHT,
        "Show the changes that stand, oldest first, one line each.",
    ),
    "undo": Listed(
        "d4cli.cli.commands.encounter:undo_command",
        FIGHT,
        "Revert the newest change, restoring the file byte-for-byte.",
    ),
    "redo": Listed(
        "d4cli.cli.commands.encounter:redo_command",
        FIGHT,
        "Put back the newest undone change, byte-for-byte.",
    ),
    "recap": Listed(
        "d4cli.cli.commands.recap:recap_command",
        FIGHT,
        "The fight from its journal: damage, Loads, luck, downs.",
    ),
    "next": Listed(
        "d4cli.cli.commands.fights:next_command",
        FIGHT,
        "End this fight and start the next; the party carries (R1).",
    ),
    "bestiary": Listed(
        "d4cli.cli.commands.bestiary:app",
        FIGHT,
        "Your creatures and templates, kept between evenings.",
    ),
    "reveal": Listed(
        "d4cli.cli.commands.player_view:reveal_command",
        PLAYERS,
        "Put hidden creatures on the player view.",
    ),
    "conceal": Listed(
        "d4cli.cli.commands.player_view:conceal_command",
        PLAYERS,
        "Take creatures off the player view (R13).",
    ),
    "alias": Listed(
        "d4cli.cli.commands.player_view:alias_command",
        PLAYERS,
        "Show a creature to the players under another name (N1).",
    ),
    "seat": Listed(
        "d4cli.cli.commands.seat:app",
        PLAYERS,
        "Players' seats: a secret join path for each player's creature.",
    ),
    "requests": Listed(
        "d4cli.cli.commands.requests:requests_command",
        PLAYERS,
        "List the seats' action requests waiting for the GM.",
    ),
    "approve": Listed(
        "d4cli.cli.commands.requests:approve_command",
        PLAYERS,
        "Carry out request N exactly as 'act' would.",
    ),
    "deny": Listed(
        "d4cli.cli.commands.requests:deny_command",
        PLAYERS,
        "Answer request N with no; the seat reads the reason.",
    ),
    "board": Listed(
        "d4cli.cli.commands.board:board_command",
        PLAYERS,
        "A full-screen board that redraws when the file changes.",
    ),
    "serve": Listed(
        "d4cli.cli.commands.serve:serve_command",
        PLAYERS,
        "Serve the player view and the seats' pages on the web.",
    ),
    "odds": Listed(
        "d4cli.cli.commands.odds:app",
        DESIGNER,
        "Tables of exact odds: P(success) and expected damage.",
    ),
    "simulate": Listed(
        "d4cli.cli.commands.simulate:simulate_command",
        DESIGNER,
        "Play the encounter to the end many times; compare reset modes.",
    ),
    "forecast": Listed(
        "d4cli.cli.commands.forecast:forecast_command",
        DESIGNER,
        "Each side's chance to win from the state as it is (R12, R18).",
    ),
    "balance": Listed(
        "d4cli.cli.commands.balance:balance_command",
        DESIGNER,
        "Find a setting's value that gives a side a target chance to win.",
    ),
    "handbook": Listed(
        "d4cli.cli.commands.handbook:handbook_command",
        DESIGNER,
        "The designer's handbook in Markdown: rules, odds grids, modes.",
    ),
}


class RootGroup(D4Group):
    """The d4cli root: `D4Group` (errors to exit codes) with this app's commands."""

    builders = from_specs(COMMANDS)
    summaries = summaries_of(COMMANDS)
    panels = panels_of(COMMANDS)


app = typer.Typer(
    cls=RootGroup,
    name="d4cli",
    help="Dice roller and turn-tracker for the D4 dice pool and the d20 Action Roll.",
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
    """Dice roller and turn-tracker for the D4 dice pool and the d20 Action Roll.

    Try `d4cli roll pool 4 --adv torch` or `d4cli help`.
    """
