"""``log --states --json``: one line per journal entry with the encounter as it stood after it (docs/cli.md "Replay")."""

from __future__ import annotations

from d4cli.fight.encounter_state import Encounter
from d4cli.journal.entry import read_head
from d4cli.output.serialize import JsonObject
from d4cli.output.serialize.encounter_json import status_json


def state_line_json(entry: JsonObject, encounter: Encounter | None) -> JsonObject:
    """``{seq, entry, state}``: *entry* as ``log --json`` lists it, ``state`` the ``status --json`` object after it (or null)."""
    return {
        "seq": read_head(entry).seq,
        "entry": entry,
        "state": None if encounter is None else status_json(encounter),
    }
