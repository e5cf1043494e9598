"""The facts of the encounter's changes: add, move, damage/heal, remove, turns, exhaust, note,
set, reveal/conceal/alias (R1, R12-R18)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple, Self

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
from d4cli.journal.effect_facts import ended_json
from d4cli.journal.heads import Change, change_head, event_head, fight_over_json
from d4cli.journal.roll_facts import DiceFacts, dice_json
from d4cli.journal.values import (
    Facts,
    read_int,
    read_object,
    read_objects,
    read_str,
    read_strs,
    read_table,
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


class Reset(NamedTuple):
    """A Load reset at a turn start (R1, R12)."""

    name: str | None
    load_before: int | None
    load_after: int | None


class FieldChange(NamedTuple):
    """One field a ``set`` changed: its name, the value before (None: absent) and after."""

    field: str | None
    before: object
    after: object


@dataclass(frozen=True, kw_only=True)
class AddChange(Change):
    """An ``add`` (R1, R13, C8): the new creatures' names, Aspects, Load, stats and sheet."""

    names: tuple[str, ...]
    like: str | None
    aspects: dict[str, Any]
    load_buffer: int | None
    exhaustion: int | None
    load_after: int | None
    evasion: int | None
    hp_after: int | None
    max_hp: int | None
    side: str | None
    attributes: dict[str, Any]
    proficiencies: dict[str, Any]
    specializations: dict[str, Any]
    hidden: bool

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            names=read_strs(facts, "names"),
            like=read_str(facts, "like"),
            aspects=read_table(facts, "aspects"),
            load_buffer=read_int(facts, "load_buffer"),
            exhaustion=read_int(facts, "exhaustion"),
            load_after=read_int(facts, "load_after"),
            evasion=read_int(facts, "evasion"),
            hp_after=read_int(facts, "hp_after"),
            max_hp=read_int(facts, "max_hp"),
            side=read_str(facts, "side"),
            attributes=read_table(facts, "attributes"),
            proficiencies=read_table(facts, "proficiencies"),
            specializations=read_table(facts, "specializations"),
            hidden=bool(facts.get("hidden")),
        )


@dataclass(frozen=True, kw_only=True)
class MoveChange(Change):
    """A ``move`` (R13): the places before and after (from 1), the new order, who is next (R19)."""

    position_before: int | None
    position_after: int | None
    order: tuple[str, ...]
    next: str | None

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            position_before=read_int(facts, "position_before"),
            position_after=read_int(facts, "position_after"),
            order=read_strs(facts, "order"),
            next=read_str(facts, "next"),
        )


@dataclass(frozen=True, kw_only=True)
class HpChange(Change):
    """A ``damage`` or ``heal`` (R16, R18): the amount (and the dice rolled for it), hp and down
    before and after; a heal's ``next_round`` (back, its next turn in the next round, R19)."""

    amount: int | None
    roll: DiceFacts | None
    hp_before: int | None
    hp_after: int | None
    max_hp: int | None
    down_before: bool
    down_after: bool
    next_round: bool

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            amount=read_int(facts, "amount"),
            roll=DiceFacts.read(read_object(facts, "roll")),
            hp_before=read_int(facts, "hp_before"),
            hp_after=read_int(facts, "hp_after"),
            max_hp=read_int(facts, "max_hp"),
            down_before=bool(facts.get("down_before")),
            down_after=bool(facts.get("down_after")),
            next_round=bool(facts.get("next_round")),
        )


@dataclass(frozen=True, kw_only=True)
class RemoveChange(Change):
    """A ``remove`` (R17, R19): whether it ended the running turn, who is next, a round left open."""

    ended_turn: bool
    next: str | None
    round_open: bool

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            ended_turn=bool(facts.get("ended_turn")),
            next=read_str(facts, "next"),
            round_open=bool(facts.get("round_open")),
        )


@dataclass(frozen=True, kw_only=True)
class TurnStartChange(Change):
    """A ``turn-start`` (R1, R12, R13, R18, R19): the turn ended first, the resets, who was skipped."""

    ended: str | None
    new_round: bool
    out_of_order: bool
    resets: tuple[Reset, ...]
    skipped: tuple[str, ...]
    again: bool
    down: bool

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            ended=read_str(facts, "ended"),
            new_round=bool(facts.get("new_round")),
            out_of_order=bool(facts.get("out_of_order")),
            resets=tuple(
                Reset(read_str(r, "name"), read_int(r, "load_before"), read_int(r, "load_after"))
                for r in read_objects(facts, "resets")
            ),
            skipped=read_strs(facts, "skipped"),
            again=bool(facts.get("again")),
            down=bool(facts.get("down")),
        )


@dataclass(frozen=True, kw_only=True)
class TurnEndChange(Change):
    """A ``turn-end`` (R14): the Load kept, who is next (None: the round is over)."""

    load_after: int | None
    next: str | None

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            load_after=read_int(facts, "load_after"),
            next=read_str(facts, "next"),
        )


@dataclass(frozen=True, kw_only=True)
class ExhaustChange(Change):
    """An ``exhaust`` (R15): the level before and after, the Load kept, the new reset value."""

    exhaustion_before: int | None
    exhaustion_after: int | None
    load_after: int | None
    reset_value: int | None

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            exhaustion_before=read_int(facts, "exhaustion_before"),
            exhaustion_after=read_int(facts, "exhaustion_after"),
            load_after=read_int(facts, "load_after"),
            reset_value=read_int(facts, "reset_value"),
        )


@dataclass(frozen=True, kw_only=True)
class NoteChange(Change):
    """A ``note``: its text, or with ``set`` the creature's notes now and before."""

    set: bool
    note: str | None
    notes: str | None
    notes_before: str | None

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            set=bool(facts.get("set")),
            note=read_str(facts, "note"),
            notes=read_str(facts, "notes"),
            notes_before=read_str(facts, "notes_before"),
        )


@dataclass(frozen=True, kw_only=True)
class ViewChange(Change):
    """A ``reveal``, ``conceal`` or ``alias``: hidden and alias before and after."""

    hidden_before: bool
    hidden_after: bool
    alias_before: str | None
    alias_after: str | None

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            hidden_before=bool(facts.get("hidden_before")),
            hidden_after=bool(facts.get("hidden_after")),
            alias_before=read_str(facts, "alias_before"),
            alias_after=read_str(facts, "alias_after"),
        )


@dataclass(frozen=True, kw_only=True)
class SetChange(Change):
    """A ``set``: each field changed, in the order given (``actor`` None: the player view's table)."""

    changes: tuple[FieldChange, ...]

    @classmethod
    def read(cls, facts: Facts) -> Self:
        changes = tuple(
            FieldChange(read_str(c, "field"), c.get("before"), c.get("after"))
            for c in read_objects(facts, "changes")
        )
        return cls(**change_head(facts), changes=changes)
