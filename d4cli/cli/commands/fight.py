"""The fight's commands: ``move``, ``damage``, ``heal`` (docs/cli.md "The encounter"; R13, R16, R18, R19).

A thin skin: parse, call `d4cli.api.encounter.Tracker.move` / `damage` / `heal`, print the record
(one line, or its JSON).
"""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from typing import Annotated

import typer

from d4cli.api import InputError
from d4cli.api.inputs import HP, parse_whole
from d4cli.cli.completion.creatures import complete_creature
from d4cli.cli.options import FileOption, JsonOption, NoteOption, SeedOption, check_note
from d4cli.cli.tracker_access import open_tracker, print_change

# Optional for Typer so that a missing amount is one plain line naming N (exit 2), not a usage block.
Amount = Annotated[
    str | None,
    typer.Argument(
        metavar="N|EXPR",
        help="A whole number, 0 or more, or dice to roll: 2d6+1 (NdX terms and numbers, L3).",
        show_default=False,
    ),
]
Name = Annotated[
    str, typer.Argument(metavar="NAME", help="The creature.", autocompletion=complete_creature)
]
# Optional for Typer so that a missing name or amount is one plain line (exit 2); the amount is
# the last word (Click hands the words before it to NAME...).
Names = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="NAME...",
        help="The creatures: names and shell patterns (Goblin*, 'Goblin [23]'; N1).",
        autocompletion=complete_creature,
        show_default=False,
    ),
]


def move_command(
    name: Name,
    before: Annotated[
        str | None,
        typer.Option(
            "--before", metavar="OTHER", autocompletion=complete_creature, help="Just before OTHER."
        ),
    ] = None,
    after: Annotated[
        str | None,
        typer.Option(
            "--after", metavar="OTHER", autocompletion=complete_creature, help="Just after OTHER."
        ),
    ] = None,
    first: Annotated[bool, typer.Option("--first", help="First in the turn order.")] = False,
    last: Annotated[bool, typer.Option("--last", help="Last in the turn order.")] = False,
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Move a creature in the turn order (R13, R19).

    Nothing else is ever reordered (R13, R19).

    Example: d4cli move "Goblin Brute" --before Aria
    """
    given = [
        (place, other)
        for place, other, on in (
            ("before", before, before is not None),
            ("after", after, after is not None),
            ("first", None, first),
            ("last", None, last),
        )
        if on
    ]
    if len(given) != 1:
        raise InputError("--before/--after/--first/--last", None, "give exactly one of them")
    place, other = given[0]
    tracker = open_tracker(file)
    print_change(
        tracker.move(name, place, other, note=check_note(note)), tracker, json_=json_, note=note
    )


def _names_amount(names: list[str] | None, amount: str | None) -> tuple[list[str], int | str]:
    """NAME... and N of ``damage``/``heal``: one word alone is the name, its amount missing."""
    if not names:
        if amount is None:
            raise InputError("names", None, "missing: give the creature and the amount")
        return [amount], _amount(None)
    return names, _amount(amount)


def _amount(text: str | None) -> int | str:
    """N of ``damage``/``heal``: a plain whole number 0..100,000 (L1, L3), or the text of
    dice for the library to roll (``2d6+1``)."""
    if text is None:
        raise InputError("N", None, "missing: give the amount, a whole number 0 or more")
    if "d" not in text.lower():  # no die in it: a number, or not one (``2.5``)
        return parse_whole(text, "N", HP)
    return text


def damage_command(
    names: Names = None,
    amount: Amount = None,
    seed: SeedOption = None,
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Take hit points off one creature or several (R16, R18).

    N hit points come off each, never below 0; at 0 a creature is down (R16, R18).

    N may be dice to roll (2d6+1), rolled once for all: the line shows what they
    rolled, the log keeps it. Several names and patterns are one change: one line
    each, one undo.

    Example: d4cli damage "Goblin Archer" 4; d4cli damage "Goblin*" 2d6+1
    """
    found, value = _names_amount(names, amount)
    tracker = open_tracker(file, seed, dice=True)
    print_change(
        tracker.damage(found, value, note=check_note(note)), tracker, json_=json_, note=note
    )


def heal_command(
    names: Names = None,
    amount: Amount = None,
    seed: SeedOption = None,
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Give hit points back to one creature or several (R18).

    N hit points come back to each, up to its max_hp; above 0 a down creature is
    back in the order (R18).

    N may be dice to roll (1d8+2), as for damage; several names and patterns as
    for damage.

    Example: d4cli heal Borin 5; d4cli heal Borin Aria 1d8
    """
    found, value = _names_amount(names, amount)
    tracker = open_tracker(file, seed, dice=True)
    print_change(tracker.heal(found, value, note=check_note(note)), tracker, json_=json_, note=note)
