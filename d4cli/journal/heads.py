"""What the facts of the encounter's changes share: a change's head, grants (R11), ``fight_over`` (R18)."""

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
from d4cli.journal import JsonObject

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


def fight_over_json(winner: str | None) -> dict[str, str] | None:
    """``fight_over``: ``{"winner": SIDE}`` when a change left one side alone up (R18), else None."""
    return None if winner is None else {"winner": winner}
