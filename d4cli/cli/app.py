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
from d4cli.cli.lazy import Listed, from_specs, summaries_of
from d4cli.cli.root import D4Group

# `exhaust Aria -1` must reach parse_whole (a range error naming LEVEL), not "no such option".
NEGATIVE_OK: dict[str, Any] = {"context_settings": {"ignore_unknown_options": True}}

# Every top-level command, in help order: name -> where it is defined, "module:function"
# (one command) or "module:app" (a Typer app: a group of sub-commands), and the first
# paragraph of its help, which `--help` and a Tab on a command name list without importing
# it (`d4cli.cli.lazy.Listed`); optionally the keyword arguments of `typer.Typer.command`.
# Adding a command is adding its line here.
COMMANDS: dict[str, Listed] = {
    "roll": Listed(
        "d4cli.cli.commands.roll:app",
        "Roll a D4 pool, a d20 Action Roll or plain dice.",
        {"unknown_hint": "unknown_command_hint", "implied": "implied_command"},
    ),
    "init": Listed(
        "d4cli.cli.commands.encounter:init_command",
        "Create an encounter file, empty or from an example (R12).",
    ),
    "add": Listed(
        "d4cli.cli.commands.encounter:add_command",
        "Add a creature at the end of the turn order (or --before/--after another); its Load starts at the reset value (R1, R13).",
    ),
    "remove": Listed(
        "d4cli.cli.commands.encounter:remove_command",
        "Remove a creature; the turn never moves to someone else (R17).",
    ),
    "status": Listed(
        "d4cli.cli.commands.status:status_command",
        "Show the turn tracker: whose turn, Loads, headroom, who can still act at Cost 1 (R2); NAME: one sheet.",
    ),
    "turn": Listed("d4cli.cli.commands.turn:app", "Start and end turns (R1, R12-R14)."),
    "act": Listed(
        "d4cli.cli.commands.act:act_command",
        "A creature acts: gate, pool, roll, Load + Cost, damage (R2-R11, R16); off its turn it is a reaction (R10).",
    ),
    "team": Listed(
        "d4cli.cli.commands.act:team_command",
        "A Team Action: ACTOR pays through its gate; TARGET's next roll gets Advantage or Disadvantage (R11).",
    ),
    "effect": Listed(
        "d4cli.cli.commands.effect:app",
        "Lasting effects: named Advantage and Disadvantage sources with durations (R20).",
    ),
    "check": Listed(
        "d4cli.cli.commands.sheet:check_command",
        "A d20 check from a creature's stored stats, with its grants; logged, never changes Load (C1-C8).",
    ),
    "action": Listed(
        "d4cli.cli.commands.sheet:app",
        "Define a creature's named actions (used by 'act NAME ACTION').",
    ),
    "exhaust": Listed(
        "d4cli.cli.commands.encounter:exhaust_command",
        "Set a creature's Exhaustion level, or change it by +N / -N; it changes only its reset Load (R1, R15).",
        NEGATIVE_OK,
    ),
    "move": Listed(
        "d4cli.cli.commands.fight:move_command",
        "Move a creature in the turn order; nothing else is ever reordered (R13, R19).",
    ),
    "damage": Listed(
        "d4cli.cli.commands.fight:damage_command",
        "Take N hit points off a creature, or off several, never below 0; at 0 one is down (R16, R18).",
        NEGATIVE_OK,
    ),
    "heal": Listed(
        "d4cli.cli.commands.fight:heal_command",
        "Give a creature, or several, N hit points back, up to its max_hp; above 0 a down creature is back in the order (R18).",
        NEGATIVE_OK,
    ),
    "note": Listed(
        "d4cli.cli.commands.notes:note_command",
        "Write a note to the log without other change; with --set, set a creature's notes. Journaled: undo takes it back.",
    ),
    "reveal": Listed(
        "d4cli.cli.commands.player_view:reveal_command",
        "Put hidden creatures on the player view (board --players, serve); one change for all.",
    ),
    "conceal": Listed(
        "d4cli.cli.commands.player_view:conceal_command",
        "Take creatures off the player view; their turns and rolls go on as before (R13).",
    ),
    "alias": Listed(
        "d4cli.cli.commands.player_view:alias_command",
        "Show a creature to the players under another name; --clear: by its own name again (N1).",
    ),
    "set": Listed(
        "d4cli.cli.commands.fields:set_command",
        "Change a creature's fields mid-fight, checked as the file is: one change, one undo.",
    ),
    "seat": Listed(
        "d4cli.cli.commands.seat:app",
        "Players' seats: a secret join path for each creature a player runs.",
    ),
    "requests": Listed(
        "d4cli.cli.commands.requests:requests_command",
        "List the seats' action requests waiting for the GM (with --all, every request).",
    ),
    "approve": Listed(
        "d4cli.cli.commands.requests:approve_command",
        "Carry out request N exactly as 'act' would, on the encounter as it stands now.",
    ),
    "deny": Listed(
        "d4cli.cli.commands.requests:deny_command",
        "Answer request N with no; the seat reads the answer (and the reason).",
    ),
    "board": Listed(
        "d4cli.cli.commands.board:board_command",
        "Show the encounter on a full screen that redraws when the file changes; q or Ctrl-C quits.",
    ),
    "serve": Listed(
        "d4cli.cli.commands.serve:serve_command",
        "Serve the player view as a live web page (GET /, /view.json, /events) and each seat's\npage (GET /seat/TOKEN) until Ctrl-C; print each seat's join URL.",
    ),
    "log": Listed(
        "d4cli.cli.commands.log:log_command",
        "Show the changes that stand, oldest first, one line each: rolls, Loads, damage, turns, notes.",
    ),
    "undo": Listed(
        "d4cli.cli.commands.encounter:undo_command",
        "Revert the newest change, restoring the file byte-for-byte (never the init).",
    ),
    "redo": Listed(
        "d4cli.cli.commands.encounter:redo_command",
        "Put back the newest undone change, byte-for-byte (as many times as undo went back).",
    ),
    "odds": Listed(
        "d4cli.cli.commands.odds:app",
        "Tables of exact odds for designers: P(success) and expected damage.",
    ),
    "play": Listed(
        "d4cli.cli.commands.play:play_command",
        "Play a session: many commands at one prompt, in one process.",
    ),
    "simulate": Listed(
        "d4cli.cli.commands.simulate:simulate_command",
        "Play the encounter to the end many times, in memory, and compare the reset modes (R12, R18).",
    ),
    "forecast": Listed(
        "d4cli.cli.commands.forecast:forecast_command",
        "Each side's chance to win from the state as it is (mid-turn, hp, Loads, effects), in the file's mode (R12, R18).",
    ),
    "balance": Listed(
        "d4cli.cli.commands.balance:balance_command",
        "Find the value of one creature's setting that gives a side a target chance to win.",
    ),
    "recap": Listed(
        "d4cli.cli.commands.recap:recap_command",
        "The fight from its journal: per creature damage, actions, Team Actions, Load, turns unable to act, downs;\ndamage per round; luck of every roll; the fight placed among simulated ones (R2, R8, R11, R16, R18).",
    ),
    "next": Listed(
        "d4cli.cli.commands.fights:next_command",
        "End this fight and start the next in the same file: the fight is archived beside it\n(FILE.fights/), the kept side carries with hp, Exhaustion, notes and seats; Loads reset (R1).",
    ),
    "bestiary": Listed(
        "d4cli.cli.commands.bestiary:app",
        "Your bestiary: creatures and templates kept between evenings (D4CLI_BESTIARY).",
    ),
    "handbook": Listed(
        "d4cli.cli.commands.handbook:handbook_command",
        "One Markdown document for the designer's handbook: every rule with its example, the exact odds\ngrids (pool and check against DC, expected damage, D4 against d20) and the reset modes compared\n(R1-R20, C1-C8, L1-L4, N1).",
    ),
    "help": Listed(
        "d4cli.cli.commands.help:help_command",
        "Explain the rules: the gate, the pool, Advantage, Load, checks ... or one rule by id (R1-R20, C1-C8, L1-L4, N1).",
    ),
}


class RootGroup(D4Group):
    """The d4cli root: `D4Group` (errors to exit codes) with this app's commands."""

    builders = from_specs(COMMANDS)
    summaries = summaries_of(COMMANDS)


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
