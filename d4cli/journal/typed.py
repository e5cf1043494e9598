"""The facts of a journal entry, read back typed: one record per kind of change.

Each record is read from a change's JSON object (a journal line's facts, or the object a command
prints for a change it made) by its class's `read`: every field a reader outside this package
uses is an attribute of the type it holds, and a value of another type (a hand-edited line, a key
an older version did not write) reads as None, False or empty. The quirks of older journals are
read here once: an act's ``aspect`` that held the Aspect's name, a GM-called roll known by
``gate_skipped`` alone. `Change.facts` keeps the whole object as written, for this package's
writers and printers and for undo's byte-for-byte patching.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Self

from d4cli.fight.several import SEVERAL_KINDS

Facts = Mapping[str, Any]


def _int(facts: Facts, key: str) -> int | None:
    value = facts.get(key)
    return value if type(value) is int else None


def _str(facts: Facts, key: str) -> str | None:
    value = facts.get(key)
    return value if isinstance(value, str) else None


def _objects(facts: Facts, key: str) -> list[Facts]:
    value = facts.get(key)
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _strs(facts: Facts, key: str) -> tuple[str, ...]:
    value = facts.get(key)
    return tuple(item for item in value if isinstance(item, str)) if isinstance(value, list) else ()


def _ints(facts: Facts, key: str) -> tuple[int, ...]:
    value = facts.get(key)
    return tuple(item for item in value if type(item) is int) if isinstance(value, list) else ()


def _table(facts: Facts, key: str) -> dict[str, Any]:
    value = facts.get(key)
    return dict(value) if isinstance(value, dict) else {}


def _object(facts: Facts, key: str) -> Facts | None:
    value = facts.get(key)
    return value if isinstance(value, dict) else None


class Ended(NamedTuple):
    """An effect a change ended (R20): its source, the creature it was on, why (in words), and
    whether the players saw it (``public``, absent: true)."""

    source: str | None
    creature: str | None
    reason: str | None
    public: bool

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            _str(facts, "source"),
            _str(facts, "creature"),
            _str(facts, "reason"),
            facts.get("public", True) is not False,
        )


class DiceTerm(NamedTuple):
    """One term of rolled dice (R6): its notation (``1d4+1``), the faces rolled, its modifier."""

    notation: str | None
    dice: tuple[int, ...]
    modifier: int | None

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(_str(facts, "notation"), _ints(facts, "dice"), _int(facts, "modifier"))


class DiceFacts(NamedTuple):
    """Dice rolled for an amount (``damage NAME 2d6+1``): the expression, its terms, the total."""

    expression: str | None
    terms: tuple[DiceTerm, ...]
    total: int | None

    @classmethod
    def read(cls, facts: Facts | None) -> Self | None:
        if facts is None:
            return None
        terms = tuple(DiceTerm.read(term) for term in _objects(facts, "terms"))
        return cls(_str(facts, "expression"), terms, _int(facts, "total"))


class Source(NamedTuple):
    """A source that counted in an act (R4): its name, its grant, its origin's journal name."""

    source: str | None
    grant: str | None
    origin: str | None


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


class ActionFacts(NamedTuple):
    """A named action's table as an ``action add``/``remove`` keeps it (its name, Aspect, Cost)."""

    name: str | None
    aspect: str | None
    cost: int | None

    @classmethod
    def read(cls, facts: Facts | None) -> Self | None:
        if facts is None:
            return None
        return cls(_str(facts, "name"), _str(facts, "aspect"), _int(facts, "cost"))


@dataclass(frozen=True, kw_only=True)
class Change:
    """The facts every change has: its ``kind``, the round and the turn it was made in, who it was
    about (``actor``; None: the whole encounter), the effects it ended (R20), the side that won by
    it (``fight_over``, R18), whether it changed anything (false only in the object printed for a
    change that changed nothing), and the whole object (`facts`). A kind this version does not
    know reads as a plain `Change`."""

    kind: str
    round: int | None
    turn: str | None
    actor: str | None
    effects_ended: tuple[Ended, ...] = ()
    fight_over: str | None = None
    changed: bool = True
    facts: Facts = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(**change_head(facts))

    @property
    def parts(self) -> tuple[Change, ...]:
        """Each creature's part of the change: of a change of several, its parts; else itself."""
        return (self,)


def change_head(facts: Facts) -> dict[str, Any]:
    """The fields of `Change` read from *facts*, as keywords for any record's constructor."""
    over = _object(facts, "fight_over")
    return {
        "kind": str(facts.get("kind")),
        "round": _int(facts, "round"),
        "turn": _str(facts, "turn"),
        "actor": _str(facts, "actor"),
        "effects_ended": tuple(Ended.read(gone) for gone in _objects(facts, "effects_ended")),
        "fight_over": None if over is None else _str(over, "winner"),
        "changed": facts.get("changed") is not False,
        "facts": facts,
    }


@dataclass(frozen=True, kw_only=True)
class InitChange(Change):
    """An ``init`` (R12): the encounter's name, mode and round reset, the template it came from."""

    name: str | None
    mode: str | None
    round_reset: str | None
    template: str | None

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            name=_str(facts, "name"),
            mode=_str(facts, "mode"),
            round_reset=_str(facts, "round_reset"),
            template=_str(facts, "from"),
        )


@dataclass(frozen=True, kw_only=True)
class ActChange(Change):
    """An ``act`` (R2-R11, R16): the pool rolled and what it did.

    ``aspect`` is the Aspect's value and ``aspect_name`` its name (journals of older versions held
    the name in ``aspect``); ``gm_called`` a GM-called roll (R9; older journals say so by
    ``gate_skipped`` alone); ``load`` the Load the gate read; ``extra`` the extra dice as rolled.
    """

    aspect: int | None
    aspect_name: str | None
    action: str | None
    cost: int | None
    load: int | None
    load_before: int | None
    load_after: int | None
    allowed: bool
    off_turn: bool
    gm_called: bool
    pool_size: int | None
    dice: tuple[int, ...]
    extra: tuple[DiceTerm, ...]
    total: int | None
    dc: int | None
    outcome: str | None
    evasion: int | None
    damage: int | None
    target: str | None
    hp_before: int | None
    hp_after: int | None
    target_down: bool
    advantage: tuple[str, ...]
    disadvantage: tuple[str, ...]
    sources: tuple[Source, ...]
    entered: bool

    @classmethod
    def read(cls, facts: Facts) -> Self:
        name = facts["aspect_name"] if "aspect_name" in facts else facts.get("aspect")
        return cls(
            **change_head(facts),
            aspect=_int(facts, "aspect"),
            aspect_name=name if isinstance(name, str) else None,
            action=_str(facts, "action"),
            cost=_int(facts, "cost"),
            load=_int(facts, "load"),
            load_before=_int(facts, "load_before"),
            load_after=_int(facts, "load_after"),
            allowed=bool(facts.get("allowed")),
            off_turn=bool(facts.get("off_turn")),
            gm_called=bool(facts.get("gm_called") or facts.get("gate_skipped")),
            pool_size=_int(facts, "pool_size"),
            dice=_ints(facts, "dice"),
            extra=tuple(DiceTerm.read(term) for term in _objects(facts, "extra")),
            total=_int(facts, "total"),
            dc=_int(facts, "dc"),
            outcome=_str(facts, "outcome"),
            evasion=_int(facts, "evasion"),
            damage=_int(facts, "damage"),
            target=_str(facts, "target"),
            hp_before=_int(facts, "hp_before"),
            hp_after=_int(facts, "hp_after"),
            target_down=bool(facts.get("target_down")),
            advantage=_strs(facts, "advantage"),
            disadvantage=_strs(facts, "disadvantage"),
            sources=tuple(
                Source(_str(item, "source"), _str(item, "grant"), _str(item, "origin"))
                for item in _objects(facts, "sources")
            ),
            entered=bool(facts.get("entered")),
        )


@dataclass(frozen=True, kw_only=True)
class TeamChange(Change):
    """A ``team`` (R11): the actor's Aspect (its name) and Cost, the target, the grant, its source, the Loads."""

    aspect: str | None
    cost: int | None
    target: str | None
    grant: str | None
    source: str | None
    load_before: int | None
    load_after: int | None

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            aspect=_str(facts, "aspect"),
            cost=_int(facts, "cost"),
            target=_str(facts, "target"),
            grant=_str(facts, "grant"),
            source=_str(facts, "source"),
            load_before=_int(facts, "load_before"),
            load_after=_int(facts, "load_after"),
        )


@dataclass(frozen=True, kw_only=True)
class CheckChange(Change):
    """A ``check`` from a sheet (C1-C8): the stats' names and values, the levels, the Result."""

    attribute_name: str | None
    proficiency_name: str | None
    specialization_name: str | None
    attribute: int | None
    proficiency: int | None
    specialization: int | None
    advantage_level: int | None
    disadvantage: int | None
    impossible: bool
    total: int | None
    dc: int | None
    outcome: str | None

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            attribute_name=_str(facts, "attribute_name"),
            proficiency_name=_str(facts, "proficiency_name"),
            specialization_name=_str(facts, "specialization_name"),
            attribute=_int(facts, "attribute"),
            proficiency=_int(facts, "proficiency"),
            specialization=_int(facts, "specialization"),
            advantage_level=_int(facts, "advantage_level"),
            disadvantage=_int(facts, "disadvantage"),
            impossible=bool(facts.get("impossible")),
            total=_int(facts, "total"),
            dc=_int(facts, "dc"),
            outcome=_str(facts, "outcome"),
        )


@dataclass(frozen=True, kw_only=True)
class ActionChange(Change):
    """An ``action-add`` or ``action-remove``: the action, and for an add the one it replaced."""

    action: ActionFacts
    replaced: ActionFacts | None

    @classmethod
    def read(cls, facts: Facts) -> Self:
        action = ActionFacts.read(_object(facts, "action")) or ActionFacts(None, None, None)
        replaced = facts.get("replaced")
        return cls(
            **change_head(facts),
            action=action,
            replaced=ActionFacts.read(replaced) if isinstance(replaced, dict) and replaced else None,
        )


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
            names=_strs(facts, "names"),
            like=_str(facts, "like"),
            aspects=_table(facts, "aspects"),
            load_buffer=_int(facts, "load_buffer"),
            exhaustion=_int(facts, "exhaustion"),
            load_after=_int(facts, "load_after"),
            evasion=_int(facts, "evasion"),
            hp_after=_int(facts, "hp_after"),
            max_hp=_int(facts, "max_hp"),
            side=_str(facts, "side"),
            attributes=_table(facts, "attributes"),
            proficiencies=_table(facts, "proficiencies"),
            specializations=_table(facts, "specializations"),
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
            position_before=_int(facts, "position_before"),
            position_after=_int(facts, "position_after"),
            order=_strs(facts, "order"),
            next=_str(facts, "next"),
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
            amount=_int(facts, "amount"),
            roll=DiceFacts.read(_object(facts, "roll")),
            hp_before=_int(facts, "hp_before"),
            hp_after=_int(facts, "hp_after"),
            max_hp=_int(facts, "max_hp"),
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
            next=_str(facts, "next"),
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
            ended=_str(facts, "ended"),
            new_round=bool(facts.get("new_round")),
            out_of_order=bool(facts.get("out_of_order")),
            resets=tuple(
                Reset(_str(r, "name"), _int(r, "load_before"), _int(r, "load_after"))
                for r in _objects(facts, "resets")
            ),
            skipped=_strs(facts, "skipped"),
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
        return cls(**change_head(facts), load_after=_int(facts, "load_after"), next=_str(facts, "next"))


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
            exhaustion_before=_int(facts, "exhaustion_before"),
            exhaustion_after=_int(facts, "exhaustion_after"),
            load_after=_int(facts, "load_after"),
            reset_value=_int(facts, "reset_value"),
        )


@dataclass(frozen=True, kw_only=True)
class EffectChange(Change):
    """An ``effect`` (R20): ``add`` or ``remove``, the effect's object and the one it replaced
    (`d4cli.journal.effects.effect_json`), the round its rounds count from."""

    action: str | None
    effect: Facts
    replaced: Facts | None
    counts_from: int | None

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            action=_str(facts, "action"),
            effect=_object(facts, "effect") or {},
            replaced=_object(facts, "replaced") or None,
            counts_from=_int(facts, "counts_from"),
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
            note=_str(facts, "note"),
            notes=_str(facts, "notes"),
            notes_before=_str(facts, "notes_before"),
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
            alias_before=_str(facts, "alias_before"),
            alias_after=_str(facts, "alias_after"),
        )


@dataclass(frozen=True, kw_only=True)
class SetChange(Change):
    """A ``set``: each field changed, in the order given (``actor`` None: the player view's table)."""

    changes: tuple[FieldChange, ...]

    @classmethod
    def read(cls, facts: Facts) -> Self:
        changes = tuple(
            FieldChange(_str(c, "field"), c.get("before"), c.get("after"))
            for c in _objects(facts, "changes")
        )
        return cls(**change_head(facts), changes=changes)


@dataclass(frozen=True, kw_only=True)
class SeveralChange(Change):
    """One change of several creatures (``damage "Goblin*" 3``): the names in the order applied,
    each one's part (read as its own kind), the dice rolled once for all."""

    names: tuple[str, ...]
    part_changes: tuple[Change, ...]
    roll: DiceFacts | None

    @property
    def parts(self) -> tuple[Change, ...]:
        return self.part_changes


def is_several(facts: Facts) -> bool:
    """Whether a change's object (or journal entry) is one of several creatures."""
    return facts.get("kind") in SEVERAL_KINDS and isinstance(facts.get("changes"), list)
