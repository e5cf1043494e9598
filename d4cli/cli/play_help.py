"""What ``help`` lists inside ``d4cli play``: every command of the session on one screen.

The root ``--help`` runs to some 60 lines; at the table one screen (80 columns, 24
lines) must show every command. Each command has a short phrase here, in the order
of `d4cli.cli.app.COMMANDS`, the table ``--help`` lists (``play`` aside: a session cannot start another), then the
session's own words; two columns of 40, or one on a terminal narrower than that.
``help TOPIC`` and ``COMMAND --help`` say more (the last line says so).
"""

from __future__ import annotations

from typing import Any

from d4cli.cli.app import COMMANDS
from d4cli.output.wrap import terminal_width

# Each command of a session -> what it does, in at most `PHRASE` characters (listed in the
# order of `COMMANDS`, panel by panel, as ``d4cli --help`` lists them).
SESSION_COMMANDS: dict[str, str] = {
    "roll": "dice: pool, d20 or plain",
    "help": "this list; help TOPIC: rules",
    "init": "a new encounter file (R12)",
    "add": "add a creature (R1, R13)",
    "remove": "remove a creature (R17)",
    "status": "turns, Loads, headroom (R2)",
    "turn": "turn start, turn end (R13)",
    "act": "a creature acts (R2-R11)",
    "team": "a Team Action (R11)",
    "effect": "lasting effects (R20)",
    "check": "a d20 check (C1-C8)",
    "action": "a creature's named actions",
    "exhaust": "Exhaustion level (R15)",
    "move": "move in the turn order",
    "damage": "take hit points off (R16)",
    "heal": "give hit points back (R18)",
    "note": "a note in the log",
    "set": "change a creature's fields",
    "log": "the changes, one line each",
    "undo": "revert the newest change",
    "redo": "put back an undone change",
    "recap": "the fight from its journal",
    "next": "next fight; the party stays",
    "bestiary": "your creatures and templates",
    "reveal": "show on the player view",
    "conceal": "hide from the player view",
    "alias": "a name for the players",
    "seat": "players' seats: join paths",
    "requests": "the seats' waiting requests",
    "approve": "carry out a seat's request",
    "deny": "answer a seat's request: no",
    "board": "a live full-screen board",
    "serve": "the player view on the web",
    "odds": "exact odds tables",
    "simulate": "play the fight many times",
    "forecast": "each side's chance to win",
    "balance": "a value for a target chance",
    "handbook": "the designer's handbook",
}
# The words only a session knows.
SESSION_WORDS: dict[str, str] = {
    "clear": "clear the screen",
    "exit": "leave (quit, Ctrl-D)",
}
NAME = 10  # the widest name, "simulate", and two spaces
PHRASE = 28
COLUMN = NAME + PHRASE + 2  # two columns of 40 fill 80

HEADER = "Commands, typed without 'd4cli' (Tab completes; Ctrl-C cancels the line):"
MORE = "More: 'help TOPIC' explains a rule (help R14), 'COMMAND --help' its options."


def help_lines(width: int | None) -> list[str]:
    """The session's ``help``: `HEADER`, the commands in columns that fit *width*
    (None: a pipe, laid out as at 80), and `MORE`."""
    phrases = {name: SESSION_COMMANDS[name] for name in COMMANDS if name in SESSION_COMMANDS}
    cells = [f"{name:<{NAME}}{phrase}" for name, phrase in {**phrases, **SESSION_WORDS}.items()]
    columns = 1 if width is not None and width < 2 * COLUMN else 2
    rows = -(-len(cells) // columns)
    lines = [
        "".join(cell.ljust(COLUMN) for cell in cells[row::rows]).rstrip() for row in range(rows)
    ]
    return [HEADER, *lines, MORE]


def write_help(stream: Any) -> None:
    """Write `help_lines` on *stream* (stdout), laid out for its terminal."""
    stream.write("\n".join(help_lines(terminal_width(stream))) + "\n")
    stream.flush()
