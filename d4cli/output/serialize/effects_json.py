"""``effect list --json``: every lasting effect of the encounter, each as the journal writes one (R20)."""

from __future__ import annotations

from d4cli.fight.encounter_state import Encounter
from d4cli.journal.effect_facts import effect_json
from d4cli.output.serialize import JsonObject
from d4cli.rules.names import fold_name


def effects_list_json(encounter: Encounter, only: str | None = None) -> JsonObject:
    """The ``effect list --json`` object: ``{round, effects: [{creature, ...effect}]}`` (R20)."""
    rows = [
        {"creature": creature.name, **effect_json(effect)}
        for creature in encounter.creatures
        if only is None or fold_name(only) == fold_name(creature.name)
        for effect in creature.effects
    ]
    return {"round": encounter.round, "effects": rows}
