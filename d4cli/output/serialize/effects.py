"""Lasting effects as JSON (R20): one effect, the effects a change ended, ``effect list``, an ``effect`` change."""

from __future__ import annotations

from collections.abc import Iterable

from d4cli.fight.effects import Effect, Ended
from d4cli.fight.encounter import Encounter
from d4cli.fight.events import EffectEvent
from d4cli.output.effecttext import ORIGINS, end_reason
from d4cli.output.serialize import JsonObject
from d4cli.output.serialize.base import event_head
from d4cli.rules.names import fold_name


def effect_json(effect: Effect) -> JsonObject:
    """A lasting effect (R20): ``{source, grant, on, ends: {kind, creature, last_round, uses}, origin, level}``
    (``level``: its Advantage level on checks, C8; 1 unless the effect says otherwise); a GM-only
    effect also ``public`` false (never on the player view)."""
    found = {
        "source": effect.source,
        "grant": effect.grant,
        "on": effect.on,
        "ends": {
            "kind": effect.ends,
            "creature": effect.creature,
            "last_round": effect.last_round,
            "uses": effect.uses,
        },
        "origin": ORIGINS[effect.origin].json,
        "level": effect.level,
    }
    if not effect.public:
        found["public"] = False
    return found


def ended_json(ended: Iterable[Ended]) -> list[JsonObject]:
    """Effects a change ended (R20): each effect's object plus ``creature`` and ``reason``."""
    return [
        {**effect_json(gone.effect), "creature": gone.creature, "reason": end_reason(gone)}
        for gone in ended
    ]


def effects_list_json(encounter: Encounter, only: str | None = None) -> JsonObject:
    """The ``effect list --json`` object: ``{round, effects: [{creature, ...effect}]}`` (R20)."""
    rows = [
        {"creature": creature.name, **effect_json(effect)}
        for creature in encounter.creatures
        if only is None or fold_name(only) == fold_name(creature.name)
        for effect in creature.effects
    ]
    return {"round": encounter.round, "effects": rows}


def effect_event_json(event: EffectEvent) -> JsonObject:
    """An ``effect`` change (R20): ``action`` add or remove, the effect, the one it replaced."""
    return {
        **event_head(event),
        "action": event.action,
        "effect": effect_json(event.effect),
        "replaced": None if event.replaced is None else effect_json(event.replaced),
        **({"counts_from": event.counts_from} if event.counts_from is not None else {}),
    }
