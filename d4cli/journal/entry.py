"""A journal entry: its head, its facts written from a record of the fight model, read back typed.

`KINDS` is the one table of the kinds of change: for each, the records of `d4cli.fight` written
as it, their facts writer and the typed record that reads them back (each kind's writer and
record sit together: `acts`, `changes`, `effects`; an ``init`` and a change of several here).
`record_json` writes a record's facts (what ``--json`` prints after a change), `journal_json`
the facts an entry keeps, `read_change` reads facts typed and `read_entry` a whole journal
line: its `Head` (``seq``, ``time``, ``note``, ``seat``, ``request``, the schema version) and its
change. A change of several creatures (`d4cli.fight.several`) shares its kind with its parts
and is told apart by its ``changes`` list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, Self

from d4cli.fight import closed_sets as kinds
from d4cli.fight.actions import ActRecord
from d4cli.fight.encounter_state import Encounter
from d4cli.fight.events import (
    AddEvent,
    DamageEvent,
    EffectEvent,
    ExhaustEvent,
    HealEvent,
    MoveEvent,
    NextEvent,
    NoteEvent,
    RemoveEvent,
    SetEvent,
    TurnEndEvent,
    TurnStartEvent,
)
from d4cli.fight.players_view import LoggedRoll
from d4cli.fight.several import SEVERAL_KINDS, SeveralEvent
from d4cli.fight.sheet_check import CheckRecord
from d4cli.fight.sheets import ActionEvent
from d4cli.fight.team import TeamRecord
from d4cli.fight.visibility import AliasEvent, ConcealEvent, RevealEvent, ViewEvent
from d4cli.journal import SCHEMA, SCHEMA_KEY, JsonObject
from d4cli.journal.acts import (
    ActChange,
    ActionChange,
    CheckChange,
    TeamChange,
    act_json,
    action_event_json,
    sheet_check_json,
    team_json,
)
from d4cli.journal.changes import (
    AddChange,
    ExhaustChange,
    HpChange,
    MoveChange,
    NoteChange,
    RemoveChange,
    SetChange,
    TurnEndChange,
    TurnStartChange,
    ViewChange,
    add_json,
    exhaust_json,
    hp_json,
    move_json,
    note_json,
    remove_json,
    set_json,
    turn_end_json,
    turn_start_json,
    view_event_json,
)
from d4cli.journal.effect_facts import EffectChange, effect_event_json
from d4cli.journal.heads import Change, Event, change_head, fight_over_json
from d4cli.journal.next_facts import NextChange, next_json
from d4cli.journal.roll_facts import DiceFacts, dice_json
from d4cli.journal.values import Facts, read_str


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

    @property
    def creatures(self) -> tuple[str, ...]:
        return tuple(name for part in self.part_changes for name in part.creatures)


def is_several(facts: Facts) -> bool:
    """Whether a change's object (or journal entry) is one of several creatures."""
    return facts.get("kind") in SEVERAL_KINDS and isinstance(facts.get("changes"), list)


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
    | NextEvent
)


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
            name=read_str(facts, "name"),
            mode=read_str(facts, "mode"),
            round_reset=read_str(facts, "round_reset"),
            template=read_str(facts, "from"),
        )


class Kind(NamedTuple):
    """One kind of change: the fight model's records written as it, their facts writer (None: the
    store writes it, as an ``init``), and the typed record that reads its facts back."""

    records: tuple[type, ...]
    write: Callable[[Any], JsonObject] | None
    read: Callable[[Facts], Change]


# Each kind of journal entry (`d4cli.fight.closed_sets`) -> its records, writer and reader.
KINDS: dict[str, Kind] = {
    kinds.INIT: Kind((), None, InitChange.read),
    kinds.ADD: Kind((AddEvent,), add_json, AddChange.read),
    kinds.REMOVE: Kind((RemoveEvent,), remove_json, RemoveChange.read),
    kinds.TURN_START: Kind((TurnStartEvent,), turn_start_json, TurnStartChange.read),
    kinds.TURN_END: Kind((TurnEndEvent,), turn_end_json, TurnEndChange.read),
    kinds.ACT: Kind((ActRecord,), act_json, ActChange.read),
    kinds.TEAM: Kind((TeamRecord,), team_json, TeamChange.read),
    kinds.EXHAUST: Kind((ExhaustEvent,), exhaust_json, ExhaustChange.read),
    kinds.DAMAGE: Kind((DamageEvent,), hp_json, HpChange.read),
    kinds.HEAL: Kind((HealEvent,), hp_json, HpChange.read),
    kinds.MOVE: Kind((MoveEvent,), move_json, MoveChange.read),
    kinds.EFFECT: Kind((EffectEvent,), effect_event_json, EffectChange.read),
    kinds.CHECK: Kind((CheckRecord,), sheet_check_json, CheckChange.read),
    kinds.ACTION_ADD: Kind((ActionEvent,), action_event_json, ActionChange.read),
    kinds.ACTION_REMOVE: Kind((), action_event_json, ActionChange.read),
    kinds.NOTE: Kind((NoteEvent,), note_json, NoteChange.read),
    kinds.REVEAL: Kind((RevealEvent,), view_event_json, ViewChange.read),
    kinds.CONCEAL: Kind((ConcealEvent,), view_event_json, ViewChange.read),
    kinds.ALIAS: Kind((AliasEvent,), view_event_json, ViewChange.read),
    kinds.SET: Kind((SetEvent,), set_json, SetChange.read),
    kinds.NEXT: Kind((NextEvent,), next_json, NextChange.read),
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


# Each record class -> its writer, as `KINDS` gives it (a change of several: `several_json`).
SERIALIZERS: dict[type, Callable[[Any], JsonObject]] = {
    **{
        record: kind.write
        for kind in KINDS.values()
        if kind.write is not None
        for record in kind.records
    },
    SeveralEvent: several_json,
}


def record_json(record: Record) -> JsonObject:
    """The JSON object of any encounter record (what ``--json`` prints after a change): the
    writer of its class in `SERIALIZERS`.

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


def read_change(facts: Facts) -> Change:
    """The typed record of a change's facts (a journal entry, or the object a change printed):
    the reader of its ``kind`` in `KINDS`; a change of several creatures with each part read as
    its kind; a kind this version does not know as a plain `Change`."""
    if is_several(facts):
        parts = [part for part in facts["changes"] if isinstance(part, dict)]
        names = facts.get("names")
        roll = facts.get("roll")
        return SeveralChange(
            **change_head(facts),
            names=tuple(n for n in names if isinstance(n, str)) if isinstance(names, list) else (),
            part_changes=tuple(read_change(part) for part in parts),
            roll=DiceFacts.read(roll if isinstance(roll, dict) else None),
        )
    kind = KINDS.get(str(facts.get("kind")))
    return Change.read(facts) if kind is None else kind.read(facts)


class Head(NamedTuple):
    """What a journal entry holds besides the facts of its change: ``seq`` (its number, ``log``'s
    ``#``), the ``time`` it was written (ISO 8601, to the second), its ``kind`` (the one fact every
    entry has), its ``note``, the ``seat`` and the ``request`` number of a seat's act, and the
    schema version it was written in (1: none written)."""

    seq: int | None
    time: str | None
    kind: str | None
    note: str | None
    seat: str | None
    request: int | None
    schema: int


class Entry(NamedTuple):
    """A journal entry read typed: its `Head` and its change."""

    head: Head
    change: Change

    @property
    def seq(self) -> int | None:
        return self.head.seq


def read_head(line: Mapping[str, Any]) -> Head:
    """The `Head` of a journal line's object (its facts left unread)."""
    seq, time, kind = line.get("seq"), line.get("time"), line.get("kind")
    note, seat, request = line.get("note"), line.get("seat"), line.get("request")
    schema = line.get(SCHEMA_KEY)
    return Head(
        seq if type(seq) is int else None,
        time if isinstance(time, str) else None,
        kind if isinstance(kind, str) else None,
        note if isinstance(note, str) else None,
        seat if isinstance(seat, str) else None,
        request if type(request) is int else None,
        schema if type(schema) is int else 1,
    )


def read_entry(line: Mapping[str, Any]) -> Entry:
    """A journal line's object (bookkeeping keys or not) read typed."""
    return Entry(read_head(line), read_change(line))


def logged_rolls(lines: Iterable[Mapping[str, Any]]) -> list[LoggedRoll]:
    """The rolls among journal lines (oldest first): each ``act`` and ``check`` that is not a dry
    run and has its ``seq`` and actor, as the players' feed reads them (`d4cli.fight.players_view`)."""
    found = []
    for line in lines:
        head = read_head(line)
        roll = _logged(head.seq, read_change(line)) if head.kind in _ROLLS else None
        if roll is not None:
            found.append(roll)
    return found


# The kinds of entry that roll dice, for the players' feed.
_ROLLS = (kinds.ACT, kinds.CHECK)


def _logged(seq: int | None, change: Change) -> LoggedRoll | None:
    actor = change.actor
    if seq is None or actor is None:
        return None
    if isinstance(change, ActChange) and not change.dry_run:
        using = tuple(name for name in (change.action, change.aspect_name) if name is not None)
        extra = tuple((t.notation, t.dice) for t in change.extra if t.notation is not None)
        return LoggedRoll(
            seq=seq,
            kind=change.kind,
            round=change.round or 0,
            actor=actor,
            target=change.target,
            using=using[:1],
            dice=change.dice,
            extra=extra,
            total=change.total,
            evasion=change.evasion,
            dc=change.dc,
            outcome=change.outcome,
            damage=change.damage,
            critical=None,
        )
    if isinstance(change, CheckChange) and not change.dry_run:
        names = (change.attribute_name, change.proficiency_name, change.specialization_name)
        natural = () if change.natural is None else (change.natural,)
        return LoggedRoll(
            seq=seq,
            kind=change.kind,
            round=change.round or 0,
            actor=actor,
            target=None,
            using=tuple(name for name in names if name is not None),
            dice=(*natural, *change.advantage_dice),
            extra=(),
            total=change.total,
            evasion=None,
            dc=change.dc,
            outcome=change.outcome,
            damage=None,
            critical=change.critical,
        )
    return None


def is_init(line: Mapping[str, Any]) -> bool:
    """Whether a journal line's object is an ``init`` entry: where a history starts (R12)."""
    return read_head(line).kind == kinds.INIT


def starts_fight(line: Mapping[str, Any]) -> bool:
    """Whether a journal line's object starts a fight's history: an ``init``, or a ``next`` (the
    next fight of an evening). What is before it belongs to another fight (its archive holds
    it): the log, the recap and the players' feed stop there; ``undo`` may still go back past a
    ``next``, never past an ``init``."""
    return read_head(line).kind in (kinds.INIT, kinds.NEXT)


def new_head(seq: int, time: str) -> JsonObject:
    """The keys a new entry starts with: ``seq``, ``time`` and the schema version (`SCHEMA`)."""
    return {"seq": seq, "time": time, SCHEMA_KEY: SCHEMA}
