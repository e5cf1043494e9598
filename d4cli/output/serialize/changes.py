"""Encounter changes as JSON: add, move, damage/heal, remove, turns, exhaust; any record, its journal facts (R1, R12-R18)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from d4cli.fight.actions import ActRecord
from d4cli.fight.events import (
    AddEvent,
    DamageEvent,
    EffectEvent,
    ExhaustEvent,
    HealEvent,
    MoveEvent,
    NoteEvent,
    RemoveEvent,
    SetEvent,
    TurnEndEvent,
    TurnStartEvent,
)
from d4cli.fight.several import SEVERAL_KINDS, SeveralEvent
from d4cli.fight.sheet_check import CheckRecord
from d4cli.fight.sheets import ActionEvent
from d4cli.fight.team import TeamRecord
from d4cli.fight.visibility import AliasEvent, ConcealEvent, RevealEvent, ViewEvent
from d4cli.output.serialize import JsonObject
from d4cli.output.serialize.acts import act_json, action_event_json, sheet_check_json, team_json
from d4cli.output.serialize.base import Event, event_head, fight_over_json
from d4cli.output.serialize.effects import effect_event_json, ended_json
from d4cli.output.serialize.rolls import dice_json
from d4cli.output.serialize.visibility import view_event_json

Record = (
    ActRecord
    | TeamRecord
    | Event
    | CheckRecord
    | ActionEvent
    | NoteEvent
    | ViewEvent
    | SetEvent
    | SeveralEvent
)


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


def several_json(event: SeveralEvent) -> JsonObject:
    """One change of several creatures (``damage "Goblin*" 3``): ``kind`` (every part's),
    ``round``, ``turn``, ``names`` (the creatures changed, in the order applied), ``changes``
    (each creature's object, as the one-creature change prints it; a damage part's ``roll``
    and ``fight_over`` null), ``roll`` (the dice rolled once for every creature, null for a
    number) and ``fight_over`` (R18: the whole change's)."""
    return {
        "kind": event.kind,
        "round": event.round,
        "turn": event.turn,
        "names": list(event.names),
        "changes": [record_json(part) for part in event.changes],
        "roll": None if event.roll is None else dice_json(event.roll),
        "fight_over": fight_over_json(event.fight_over),
    }


def is_several(obj: JsonObject) -> bool:
    """Whether a change's object (or journal entry) is one of several creatures (`several_json`)."""
    return obj.get("kind") in SEVERAL_KINDS and isinstance(obj.get("changes"), list)


# Each record class -> its serializer: `record_json` looks up the record's own class.
SERIALIZERS: dict[type, Callable[[Any], JsonObject]] = {
    ActRecord: act_json,
    TeamRecord: team_json,
    CheckRecord: sheet_check_json,
    ActionEvent: action_event_json,
    AddEvent: add_json,
    MoveEvent: move_json,
    RemoveEvent: remove_json,
    TurnStartEvent: turn_start_json,
    TurnEndEvent: turn_end_json,
    ExhaustEvent: exhaust_json,
    EffectEvent: effect_event_json,
    DamageEvent: hp_json,
    HealEvent: hp_json,
    NoteEvent: note_json,
    RevealEvent: view_event_json,
    ConcealEvent: view_event_json,
    AliasEvent: view_event_json,
    SetEvent: set_json,
    SeveralEvent: several_json,
}


def record_json(record: Record) -> JsonObject:
    """The JSON object of any encounter record (what ``--json`` prints after a change): the
    serializer of its class in `SERIALIZERS`.

    Raises:
        TypeError: *record*'s class is not in `SERIALIZERS` (a subclass is not either).
    """
    kind = type(record)
    serializer = SERIALIZERS.get(kind)
    if serializer is None:
        raise TypeError(f"no JSON serializer for a {kind.__module__}.{kind.__qualname__} record")
    return serializer(record)


def journal_json(record: Record) -> JsonObject:
    """The facts a journal entry keeps of *record*: its `record_json` object, ``kind`` the log kind.

    Only ``kind`` differs from the printed object, and only for an act (``pool``
    there, ``act`` in the log, both fixed by the contract).
    """
    obj = record_json(record)
    obj["kind"] = record.kind
    return obj


def unchanged_json(obj: JsonObject) -> JsonObject:
    """A change's object (*obj*, from `record_json` or `action_event_json`) for a change that
    changed nothing: ``changed`` false, nothing written or logged; an effect's ``replaced`` null
    (the effect it has stays as it was); of several creatures, each part's too."""
    if is_several(obj):
        return {
            **obj,
            "changes": [unchanged_json(part) for part in obj["changes"]],
            "changed": False,
        }
    return {**obj, **({"replaced": None} if "replaced" in obj else {}), "changed": False}
