"""The facts of the encounter's changes: init, add, move, damage/heal, remove, turns, exhaust, note,
set, reveal/conceal/alias (R1, R12-R18)."""

from __future__ import annotations

from d4cli.fight.encounter import Encounter
from d4cli.fight.events import (
    AddEvent,
    DamageEvent,
    ExhaustEvent,
    HealEvent,
    MoveEvent,
    NoteEvent,
    RemoveEvent,
    SetEvent,
    TurnEndEvent,
    TurnStartEvent,
)
from d4cli.fight.visibility import ViewEvent
from d4cli.journal import JsonObject
from d4cli.journal.effects import ended_json
from d4cli.journal.heads import event_head, fight_over_json
from d4cli.journal.rolls import dice_json


def init_json(encounter: Encounter, template: str | None) -> JsonObject:
    """The ``init`` facts (R12): the journal keeps them as the entry; ``--json`` adds ``kind`` and ``file``."""
    return {
        "round": encounter.round,
        "turn": encounter.current,
        "name": encounter.name,
        "mode": encounter.mode,
        "round_reset": encounter.round_reset,
        "from": template,
        "creatures": len(encounter.creatures),
    }


def add_json(event: AddEvent) -> JsonObject:
    """An ``add`` (R1, R13): the new creature's Aspects, starting Load, side and stats (C8)."""
    return {
        **event_head(event),
        "aspects": dict(event.aspects),
        "load_buffer": event.load_buffer,
        "exhaustion": event.exhaustion,
        "load_after": event.load_after,
        "evasion": event.evasion,
        "hp_after": event.hp_after,
        "max_hp": event.max_hp,
        "position": event.position,
        "next": event.next,
        "side": event.side,
        "attributes": dict(event.attributes),
        "proficiencies": dict(event.proficiencies),
        "specializations": dict(event.specializations),
        "names": list(event.names or (event.actor,)),
        "like": event.like,
        "hidden": event.hidden,
    }


def move_json(event: MoveEvent) -> JsonObject:
    """A ``move`` (R13): the place before and after (from 1), the new order, who is next (R19)."""
    return {
        **event_head(event),
        "position_before": event.position_before,
        "position_after": event.position_after,
        "order": list(event.order),
        "next": event.next,
    }


def hp_json(event: DamageEvent | HealEvent) -> JsonObject:
    """A ``damage`` or ``heal`` (R16, R18): the amount, hp before and after, down before and after;
    a ``heal`` also ``next_round`` (back, but its next turn is in the next round, R19); ``roll``
    the dice rolled for the amount (`dice_json`), null for a number given."""
    found = {
        **event_head(event),
        "amount": event.amount,
        "hp_before": event.hp_before,
        "hp_after": event.hp_after,
        "max_hp": event.max_hp,
        "down_before": event.down_before,
        "down_after": event.down_after,
    }
    if event.kind == "heal":
        found["next_round"] = getattr(event, "next_round", False)
    found["fight_over"] = fight_over_json(getattr(event, "fight_over", None))
    # The dice that gave the amount (``damage NAME 2d6+1``): the ``roll dice`` object; else null.
    found["roll"] = None if event.roll is None else dice_json(event.roll)
    return found


def remove_json(event: RemoveEvent) -> JsonObject:
    """A ``remove`` (R17): whether it ended the running turn, and who is next; ``round_open``:
    nobody is left to go, yet the round runs on until the next turn start (R19)."""
    return {
        **event_head(event),
        "ended_turn": event.ended_turn,
        "next": event.next,
        "round_open": event.round_open,
        "load_before": event.load_before,
        "hp_before": event.hp_before,
        "effects_ended": ended_json(event.effects_ended),
        "fight_over": fight_over_json(event.fight_over),
    }


def turn_start_json(event: TurnStartEvent) -> JsonObject:
    """A ``turn-start`` (R1, R12, R13): the turn ended first, the resets made, who is next."""
    return {
        **event_head(event),
        "ended": event.ended,
        "new_round": event.new_round,
        "out_of_order": event.out_of_order,
        "resets": [
            {"name": reset.name, "load_before": reset.load_before, "load_after": reset.load_after}
            for reset in event.resets
        ],
        "next": event.next,
        "effects_ended": ended_json(event.effects_ended),
        "skipped": list(event.skipped),
        "again": event.again,
        "down": event.down,
        "fight_over": fight_over_json(event.fight_over),
    }


def turn_end_json(event: TurnEndEvent) -> JsonObject:
    """A ``turn-end`` (R14): the Load kept, who is next, whether the round is over."""
    return {
        **event_head(event),
        "load_after": event.load_after,
        "next": event.next,
        "round_over": event.round_over,
        "effects_ended": ended_json(event.effects_ended),
    }


def exhaust_json(event: ExhaustEvent) -> JsonObject:
    """An ``exhaust`` (R15): the level before and after, the Load kept, the new reset value."""
    return {
        **event_head(event),
        "exhaustion_before": event.exhaustion_before,
        "exhaustion_after": event.exhaustion_after,
        "load_after": event.load_after,
        "reset_value": event.reset_value,
    }


def note_json(event: NoteEvent) -> JsonObject:
    """A ``note``: ``note`` (its text) about ``actor`` (null: the whole encounter); with ``set``
    true instead the creature's ``notes`` became ``notes`` (``notes_before``: what they were)."""
    head = {
        "kind": event.kind,
        "round": event.round,
        "turn": event.turn,
        "actor": event.actor,
        "set": event.set,
    }
    if event.set:
        return {**head, "notes": event.text, "notes_before": event.notes_before}
    return {**head, "note": event.text}


def set_json(event: SetEvent) -> JsonObject:
    """A ``set``: ``actor`` (null: the ``[player_view]`` table) and ``changes``, each
    ``{"field", "before", "after"}`` (``before`` null: the field was absent), in the order given."""
    return {
        "kind": event.kind,
        "round": event.round,
        "turn": event.turn,
        "actor": event.actor,
        "changes": [
            {"field": change.field, "before": change.before, "after": change.after}
            for change in event.changes
        ],
    }


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
