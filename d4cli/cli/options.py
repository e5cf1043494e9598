"""Options and helpers shared by the command modules and the shell (docs/cli.md "Everywhere")."""

from __future__ import annotations

import os
import random
from typing import Annotated, Any

import typer

from d4cli.api import InputError
from d4cli.api.inputs import SEED, TIMES, check_text, escape_control, name_length, parse_whole
from d4cli.cli.completion import complete_dc_tier

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
SeedOption = Annotated[
    str | None,
    typer.Option("--seed", metavar="N", help="Seed the dice (0..2**63-1); else D4CLI_SEED."),
]
TimesOption = Annotated[
    str | None, typer.Option("--times", metavar="N", help="Roll N times (1..1,000,000).")
]
QuietOption = Annotated[
    bool, typer.Option("--quiet", "-q", help="Print only the essential number (total or damage).")
]
ShortOption = Annotated[
    bool,
    typer.Option(
        "--short", help="Print one line per roll: what was rolled, what counted, the result."
    ),
]
FacesOption = Annotated[
    str | None,
    typer.Option(
        "--faces",
        metavar="F,F,...",
        help="Real dice: the faces rolled at the table, in the order the roll takes its dice.",
    ),
]
OddsOption = Annotated[bool, typer.Option("--odds", help="Add the exact odds of this roll (L4).")]
NoteOption = Annotated[
    str | None,
    typer.Option("--note", metavar="TEXT", help="A note kept with this change in the log."),
]
LabelOption = Annotated[
    str | None,
    typer.Option(
        "--label", metavar="TEXT", help="What the roll is for: shown with it and in its JSON."
    ),
]
# `simulate` and `balance` also take the file as an argument, as they always have.
FileArgument = Annotated[
    str | None,
    typer.Argument(
        metavar="[FILE]",
        help="The encounter file; default the usual one (D4CLI_FILE or ./encounter.toml).",
    ),
]
FileOption = Annotated[
    str | None,
    typer.Option(
        "--file",
        "-f",
        metavar="PATH",
        help="The encounter file; else D4CLI_FILE, else ./encounter.toml.",
    ),
]
# `simulate` and `forecast`: which engine plays (d4cli.sim.engines); None: the batch engine where it can.
EngineOption = Annotated[
    str | None,
    typer.Option(
        "--engine",
        metavar="batch|reference",
        help="The engine that plays: batch (the default: many runs at once, where it can express the encounter) or reference (one fight at a time through the commands' own rules).",
    ),
]
SourceList = list[str] | None


# The pool's options, one set for `act` and `roll pool` (R4, R6, R7, C2).
AdvOption = Annotated[
    SourceList,
    typer.Option("--adv", metavar="SOURCE", help="A source of Advantage (R4); repeatable."),
]
DisOption = Annotated[
    SourceList,
    typer.Option("--dis", metavar="SOURCE", help="A source of Disadvantage (R4); repeatable."),
]
ExtraOption = Annotated[
    SourceList,
    typer.Option(
        "--extra", metavar="NdX[+M]", help="Extra dice such as a weapon's 1d8 (R6); repeatable."
    ),
]
PoolDcOption = Annotated[
    str | None,
    typer.Option(
        "--dc",
        metavar="N|TIER",
        autocompletion=complete_dc_tier,
        help="Succeed when the total meets it (R7): a number or easy, medium, hard, challenging, nearly-impossible (C2).",
    ),
]
EvasionOption = Annotated[
    str | None, typer.Option("--evasion", metavar="N", help="Damage = total - Evasion (R7).")
]
# The check's DC (`roll check`, `sheet check`).
CheckDcOption = Annotated[
    str | None,
    typer.Option(
        "--dc",
        metavar="N|TIER",
        autocompletion=complete_dc_tier,
        help="A number or easy, medium, hard, challenging, nearly-impossible (C2).",
    ),
]

# The longest --note / --label: one line of a log, not a document.
NOTE_MAX = 200


def check_note(text: str | None, field: str = "--note") -> str | None:
    """A ``--note`` or ``--label`` once it is safe to keep and print, else None when not given.

    Raises:
        InputError: not UTF-8 text, a control character (a line break, ...),
            blank, or longer than `NOTE_MAX` characters.
    """
    if text is None:
        return None

    check_text(text, field)
    if escape_control(text) != text:
        raise InputError(field, escape_control(text), "must be one line without control characters")
    if not text.strip():
        raise InputError(field, text, "must not be blank")
    if name_length(text) > NOTE_MAX:  # characters after NFC, as a name's (N1)
        raise InputError(field, text[:20] + "...", f"is longer than {NOTE_MAX} characters")
    return text


def make_rng(seed: str | None) -> Any:
    """Return the dice source: seeded from --seed, else D4CLI_SEED, else from the OS.

    Raises:
        InputError: a seed that is not a whole number within 0..2**63-1.
    """

    if seed is None:
        env = os.environ.get("D4CLI_SEED")
        if env is None or env == "":
            return random.Random()
        return random.Random(parse_whole(env, "D4CLI_SEED", SEED))
    return random.Random(parse_whole(seed, "--seed", SEED))


def parse_times(times: str | None, *, odds: bool = False) -> int:
    """The --times count (1 when not given).

    Raises:
        InputError: not a whole number within 1..1,000,000; or more than 1 with
            *odds* (``--odds``): the exact odds are one answer for every roll, so a
            million lines would repeat one distribution (docs/cli.md).
    """
    count = 1 if times is None else parse_whole(times, "--times", TIMES)
    if odds and count > 1:
        raise InputError(
            "--times",
            times,
            "--odds gives the exact odds of one roll, the same for every roll: ask for them without --times",
        )
    return count


# What round mode resets Loads to (`init`, `next`); the default is the fight's own or buffer.
RoundResetOption = Annotated[
    str | None,
    typer.Option(
        "--round-reset",
        metavar="buffer|zero",
        help="Round mode resets to the R1 value (buffer, the default) or to 0 (R12).",
    ),
]
