"""What the players see: ``reveal``, ``conceal``, ``alias`` (docs/cli.md "The player view").

A thin skin: each is an ordinary journaled change of `d4cli.api.encounter.Tracker`, with
``--note``, ``--json``, ``undo`` and ``redo``.
"""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from typing import Annotated

import typer

from d4cli.api import InputError
from d4cli.cli.completion.creatures import complete_creature
from d4cli.cli.options import FileOption, JsonOption, NoteOption, check_note
from d4cli.cli.slips import party_hidden_note, record_names, say_note
from d4cli.cli.tracker_access import open_tracker, print_change

Name = Annotated[
    str,
    typer.Argument(
        metavar="NAME",
        help="The creature (its name in the file).",
        autocompletion=complete_creature,
    ),
]
# Optional for Typer so that no name at all is one plain line naming NAME (exit 2).
Names = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="NAME...",
        help="The creatures: names as in the file and shell patterns (Goblin*; N1).",
        autocompletion=complete_creature,
        show_default=False,
    ),
]


def reveal_command(
    names: Names = None, note: NoteOption = None, file: FileOption = None, json_: JsonOption = False
) -> None:
    """Put hidden creatures on the player view.

    The player view is what board --players and serve show; one change for all.

    Example: d4cli reveal "Goblin Shaman"; d4cli reveal "Goblin*"
    """
    tracker = open_tracker(file)
    print_change(
        tracker.reveal(names or [], note=check_note(note)), tracker, json_=json_, note=note
    )


def conceal_command(
    names: Names = None, note: NoteOption = None, file: FileOption = None, json_: JsonOption = False
) -> None:
    """Take creatures off the player view (R13).

    Their turns and rolls go on as before (R13).

    Example: d4cli conceal "Goblin Shaman"; d4cli conceal "Goblin*"
    """
    tracker = open_tracker(file)
    change = tracker.conceal(names or [], note=check_note(note))
    print_change(change, tracker, json_=json_, note=note)
    if change.written:
        say_note(party_hidden_note(change.encounter, record_names(change.record)))


def alias_command(
    name: Name,
    text: Annotated[
        str | None,
        typer.Argument(
            metavar="TEXT", help="The name the players see (unique, N1).", show_default=False
        ),
    ] = None,
    clear: Annotated[
        bool, typer.Option("--clear", help="Show its own name to the players again.")
    ] = False,
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Show a creature to the players under another name (N1).

    --clear: by its own name again (N1).

    Example: d4cli alias "Goblin Shaman" "Goblin 2"
    """
    if clear == (text is not None):
        raise InputError("TEXT", None, "give the name the players see, or --clear (not both)")
    tracker = open_tracker(file)
    print_change(tracker.alias(name, text, note=check_note(note)), tracker, json_=json_, note=note)
