"""What the facts of every change share: a change's head, grants (R11), ``fight_over`` (R21),
written from the fight model's records and read back typed (`Change`, the base of every kind's
record, and the readers of one value each).

A record is read from a change's JSON object (a journal line's facts, or the object a command
prints for a change it made) by its class's ``read``: every field a reader outside this package
uses is an attribute of the type it holds, and a value of another type (a hand-edited line, a key
an older version did not write) reads as None, False or empty. `Change.facts` keeps the whole
object as written, for this package's writers and printers and for undo's byte-for-byte patching.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple, Self

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
from d4cli.journal import JsonObject
from d4cli.journal.values import Facts, read_int, read_object, read_objects, read_str

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
            read_str(facts, "source"),
            read_str(facts, "creature"),
            read_str(facts, "reason"),
            facts.get("public", True) is not False,
        )


@dataclass(frozen=True, kw_only=True)
class Change:
    """The facts every change has: its ``kind``, the round and the turn it was made in, who it was
    about (``actor``; None: the whole encounter), the effects it ended (R20), the end of the fight it
    made (``fight_over``, R21), whether it changed anything (false only in the object printed for a
    change that changed nothing), and the whole object (`facts`). A kind this version does not
    know reads as a plain `Change`."""

    kind: str
    round: int | None
    turn: str | None
    actor: str | None
    effects_ended: tuple[Ended, ...] = ()
    fight_over: FightEnd[str] | None = None
    changed: bool = True
    facts: Facts = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(**change_head(facts))

    @property
    def parts(self) -> tuple[Change, ...]:
        """Each creature's part of the change: of a change of several, its parts; else itself."""
        return (self,)

    @property
    def creatures(self) -> tuple[str, ...]:
        """The creatures the change is about, by their names in the file: its actor (an act's
        and a Team Action's target too; a change of several: each part's actor)."""
        return () if self.actor is None else (self.actor,)


def change_head(facts: Facts) -> dict[str, Any]:
    """The fields of `Change` read from *facts*, as keywords for any record's constructor."""
    over = read_object(facts, "fight_over")
    return {
        "kind": str(facts.get("kind")),
        "round": read_int(facts, "round"),
        "turn": read_str(facts, "turn"),
        "actor": read_str(facts, "actor"),
        "effects_ended": tuple(Ended.read(gone) for gone in read_objects(facts, "effects_ended")),
        "fight_over": None if over is None else FightEnd(read_str(over, "winner")),
        "changed": facts.get("changed") is not False,
        "facts": facts,
    }
