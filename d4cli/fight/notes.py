"""Notes: a line for the log that changes nothing else, and a creature's ``notes`` (the sheet's free text).

Pure, like every transition: each takes an `Encounter` and returns ``(new_encounter, NoteEvent)``.
"""

from __future__ import annotations

from d4cli.fight.encounter_state import Encounter
from d4cli.fight.events import NoteEvent


def write_note(encounter: Encounter, name: str | None, text: str) -> tuple[Encounter, NoteEvent]:
    """A note for the log about creature *name* (N1), or the whole encounter (None); nothing else changes.

    Raises:
        InputError: no creature called *name*.
    """
    actor = None if name is None else encounter.find(name).name
    return encounter, NoteEvent(encounter.round, encounter.current, actor, text)


def set_notes(encounter: Encounter, name: str, text: str) -> tuple[Encounter, NoteEvent]:
    """Replace creature *name*'s ``notes`` by *text* ("" clears them).

    Raises:
        InputError: no creature called *name*.
    """
    position = encounter.position_of(name)
    creature = encounter.creatures[position]
    new = encounter.with_creature(position, creature._replace(notes=text))
    return new, NoteEvent(
        new.round, new.current, creature.name, text, set=True, notes_before=creature.notes
    )
