"""The changes of what the players see as JSON: ``reveal``, ``conceal``, ``alias``."""

from __future__ import annotations

from d4cli.fight.visibility import ViewEvent
from d4cli.output.serialize import JsonObject


def view_event_json(event: ViewEvent) -> JsonObject:
    """A ``reveal``, ``conceal`` or ``alias``: ``kind``, ``round``, ``turn``, ``actor`` (its name in
    the file), ``hidden_before``/``hidden_after`` and ``alias_before``/``alias_after`` (null: none)."""
    return {
        "kind": event.kind,
        "round": event.round,
        "turn": event.turn,
        "actor": event.actor,
        "hidden_before": event.hidden_before,
        "hidden_after": event.hidden_after,
        "alias_before": event.alias_before,
        "alias_after": event.alias_after,
    }
