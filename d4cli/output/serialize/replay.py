"""``log --states --json``: one line per journal entry with the encounter as it stood after it (docs/cli.md "Replay")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from d4cli.output.serialize.base import JsonObject

if TYPE_CHECKING:
    from d4cli.fight.encounter import Encounter


def state_line_json(entry: JsonObject, encounter: Encounter | None) -> JsonObject:
    """``{seq, entry, state}``: *entry* as ``log --json`` lists it, ``state`` the ``status --json`` object after it (or null)."""
    from d4cli.output.serialize.views import status_json

    return {
        "seq": entry.get("seq"),
        "entry": entry,
        "state": None if encounter is None else status_json(encounter),
    }
