"""What the serializers of the encounter's records share: an event's head, grants (R11), ``fight_over`` (R21)."""

from __future__ import annotations

from d4cli.fight.effects import Pending
from d4cli.fight.events import (
    AddEvent,
    DamageEvent,
    EffectEvent,
    ExhaustEvent,
    HealEvent,
    MoveEvent,
    RemoveEvent,
    TurnEndEvent,
    TurnStartEvent,
)
from d4cli.fight.sides import FightEnd
from d4cli.output.serialize import JsonObject

Event = (
    AddEvent
    | MoveEvent
    | RemoveEvent
    | TurnStartEvent
    | TurnEndEvent
    | ExhaustEvent
    | DamageEvent
    | HealEvent
    | EffectEvent
)


def event_head(event: Event) -> JsonObject:
    """The keys every encounter change starts with: ``kind``, ``round``, ``turn``, ``actor``."""
    return {"kind": event.kind, "round": event.round, "turn": event.turn, "actor": event.actor}


def pending_json(pending: Pending) -> dict[str, list[str]]:
    """Team Action grants (R11) as ``{advantage: [...], disadvantage: [...]}``."""
    return {"advantage": list(pending.advantage), "disadvantage": list(pending.disadvantage)}


def fight_over_json(end: FightEnd[str] | None) -> dict[str, str | None] | None:
    """``fight_over`` (R21): ``{"winner": SIDE}`` when one side is left alone up, ``{"winner":
    null}`` when every creature is down, None while the fight goes on (or the change did not end it)."""
    return None if end is None else {"winner": end.winner}
