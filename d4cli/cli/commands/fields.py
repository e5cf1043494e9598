"""``d4cli set NAME FIELD=VALUE...``: a creature's fields changed mid-fight (docs/cli.md "set").

A thin skin over `d4cli.api.encounter.Tracker.set` and `Tracker.set_view`: one journaled change,
validated as the file is, with ``--note``, ``--json``, ``undo`` and ``redo``.
"""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from typing import Annotated

import typer

from d4cli.api import InputError
from d4cli.api.inputs import check_text
from d4cli.cli.completion.creatures import complete_creature
from d4cli.cli.options import FileOption, JsonOption, NoteOption, check_note
from d4cli.cli.tracker_access import open_tracker, print_change

ASSIGNMENT = "FIELD=VALUE"


def set_command(
    words: Annotated[
        list[str],
        typer.Argument(
            metavar="[NAME] FIELD=VALUE...",
            help=(
                "The creature, then its fields: hp, max_hp, evasion, load_buffer, side, "
                "hp_shown, evasion_shown, aspect.NAME, attribute.NAME, proficiency.NAME, "
                "specialization.NAME."
            ),
            autocompletion=complete_creature,
            show_default=False,
        ),
    ],
    view: Annotated[
        bool,
        typer.Option(
            "--view",
            help="Set the [player_view] table instead (party, party_hp, others_hp, seats, odds_shown); no NAME.",
        ),
    ] = False,
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Change a creature's fields mid-fight, checked as the file is.

    One change, one undo.

    Example: d4cli set "Goblin Archer" hp=4 max_hp=9 aspect.Might=2
    """
    kept = check_note(note)
    if view:
        changes = assignments(words)
        tracker = open_tracker(file)
        print_change(tracker.set_view(changes, note=kept), tracker, json_=json_, note=note)
        return
    if len(words) < 2:
        raise InputError(ASSIGNMENT, None, "give the creature, then at least one FIELD=VALUE")
    name = check_text(words[0], "NAME")
    changes = assignments(words[1:])
    tracker = open_tracker(file)
    print_change(tracker.set(name, changes, note=kept), tracker, json_=json_, note=note)


def assignments(words: list[str]) -> dict[str, str]:
    """``["hp=5", "side=foes"]`` as ``{"hp": "5", "side": "foes"}``, in the order given.

    Raises:
        InputError: no assignment; a word without ``=`` or without a field; a field given twice.
    """
    if not words:
        raise InputError(ASSIGNMENT, None, "give at least one field and its value")
    changes: dict[str, str] = {}
    for word in words:
        check_text(word, ASSIGNMENT)
        field, equals, value = word.partition("=")
        if not equals or not field:
            raise InputError(ASSIGNMENT, word, "must be FIELD=VALUE, such as hp=5")
        if field in changes:
            raise InputError(ASSIGNMENT, word, f"sets {field} twice")
        changes[field] = value
    return changes
