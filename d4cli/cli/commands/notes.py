"""``d4cli note [NAME] TEXT``: a note in the log and nothing else; ``note NAME --set TEXT``: a creature's notes."""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from typing import Annotated

import typer

from d4cli.api import InputError
from d4cli.api.inputs import MAX_NOTES, check_text, escape_control
from d4cli.cli.completion.creatures import complete_creature
from d4cli.cli.options import FileOption, JsonOption, check_note
from d4cli.cli.tracker_access import open_tracker, print_change


def note_command(
    first: Annotated[
        str,
        typer.Argument(
            metavar="NAME|TEXT",
            help="The note, or the creature it is about when TEXT follows.",
            autocompletion=complete_creature,
        ),
    ],
    second: Annotated[
        str | None,
        typer.Argument(
            metavar="[TEXT]", help="The note, after the creature it is about.", show_default=False
        ),
    ] = None,
    set_: Annotated[
        str | None,
        typer.Option(
            "--set",
            metavar="TEXT",
            help="Set NAME's notes (the sheet's free text) to TEXT; \"\" clears them.",
        ),
    ] = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Write a note to the log, or set a creature's notes.

    A note changes nothing else; --set sets a creature's notes. Journaled: undo
    takes it back.

    Set the sheet's notes: d4cli note Aria --set "sworn to the Duke".

    Example: d4cli note Aria "owes Borin a favour"
    """

    if set_ is not None:
        if second is not None:
            raise InputError("TEXT", second, "give either TEXT or --set, not both")
        notes = _check_notes(set_)
        name = check_text(first, "NAME")
        tracker = open_tracker(file)
        print_change(tracker.set_notes(name, notes), tracker, json_=json_, note=None)
        return
    about: str | None = None if second is None else check_text(first, "NAME")
    checked = check_note(first if second is None else second, "TEXT")
    assert checked is not None
    tracker = open_tracker(file)
    # A note changes nothing else in the encounter, and is journaled all the same.
    print_change(tracker.note(about, checked), tracker, json_=json_, note=None)


def _check_notes(text: str) -> str:
    """``--set`` TEXT as a creature's notes: UTF-8 text, "" to clear, within the file's limit.

    Raises:
        InputError: naming ``--set``: not UTF-8 text, a control character other than a
            line break or tab, or longer than the file allows.
    """

    check_text(text, "--set")
    if any(escape_control(line) != line for line in text.replace("\t", " ").split("\n")):
        raise InputError("--set", escape_control(text), "must be text without control characters")
    if len(text) > MAX_NOTES:
        raise InputError(
            "--set", text[:20] + "...", f"is {len(text):,} characters long; at most {MAX_NOTES:,}"
        )
    return text
