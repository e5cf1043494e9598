"""What a creature does, as journal facts: ``act``, ``team``, ``check`` from a sheet, ``action add/remove`` (R2-R11, R16, C8)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Self

from d4cli.fight import closed_sets as kinds
from d4cli.fight.actions import ActRecord
from d4cli.fight.sheet_check import CheckRecord
from d4cli.fight.sheets import ActionEvent, action_document
from d4cli.fight.team import TeamRecord
from d4cli.journal import JsonObject
from d4cli.journal.effect_facts import MODEL_ORIGINS, ORIGINS, check_origin, ended_json
from d4cli.journal.heads import Change, change_head, fight_over_json, pending_json
from d4cli.journal.roll_facts import DiceTerm, check_json, pool_json
from d4cli.journal.values import (
    Facts,
    read_int,
    read_ints,
    read_object,
    read_objects,
    read_str,
    read_strs,
)


def act_json(record: ActRecord, *, dry_run: bool = False) -> JsonObject:
    """The ``act`` object: the ``roll pool`` object plus what the action did (R2-R11, R16).

    ``aspect`` stays the Aspect's value (as in ``roll pool``); ``aspect_name``
    is its name; ``action`` the named action used (None when an Aspect was named). The journal entry of the act is this object with ``kind`` =
    "act" (`journal_json`); *dry_run* says nothing was written. A down actor
    (R18) is refused: ``allowed`` false, ``actor_down`` true, nothing rolled.
    A GM-called roll (R9) has ``gm_called`` true, ``off_turn`` false and ``cost`` 0.
    """
    refused_down = (
        {"allowed": False, "pool_size": None, "minimum_applied": None} if record.actor_down else {}
    )
    return {
        **pool_json(record.result, entered=record.entered),
        **refused_down,
        "actor": record.actor,
        "target": record.target,
        "load_before": record.load_before,
        "load_after": record.load_after,
        "off_turn": record.off_turn,
        "gm_called": record.result.plan.request.gm,
        "hp_before": record.hp_before,
        "hp_after": record.hp_after,
        "hp_zero": record.hp_zero,
        "aspect_name": record.aspect,
        "action": record.action,
        "aspect_value": record.result.plan.request.aspect,
        "round": record.round,
        "turn": record.turn,
        "grants_used": pending_json(record.grants_used),
        "outcome": record.outcome,
        "dry_run": dry_run,
        "actor_down": record.actor_down,
        "target_down": record.target_down,
        "sources": [
            {"source": s, "grant": g, "origin": ORIGINS[o].json} for s, g, o in record.sources
        ],
        "effects_ended": ended_json(record.effects_ended),
        "fight_over": fight_over_json(record.fight_over),
    }


def team_json(record: TeamRecord, *, dry_run: bool = False) -> JsonObject:
    """The ``team`` object: the actor's gate, the grant, the Loads (R2, R10, R11); a dry run's
    also has ``dry_run`` true (nothing was written)."""
    obj: JsonObject = {
        "kind": "team",
        "round": record.round,
        "turn": record.turn,
        "actor": record.actor,
        "aspect": record.aspect,
        "aspect_value": record.gate.aspect,
        "cost": record.gate.cost,
        "load_before": record.load_before,
        "load_after": record.load_after,
        "off_turn": record.off_turn,
        "allowed": record.allowed,
        "headroom": record.gate.headroom,
        "shortfall": record.gate.shortfall,
        "target": record.target,
        "grant": record.grant,
        "source": record.source,
        "actor_down": record.actor_down,
    }
    if dry_run:
        obj["dry_run"] = True
    return obj


def sheet_check_json(record: CheckRecord, *, dry_run: bool = False) -> JsonObject:
    """The ``check`` object: the ``roll check`` object plus who rolled, the stats' names and the sources (C8).

    ``attribute_name`` / ``proficiency_name`` / ``specialization_name`` are None when not used;
    ``sources`` lists every source as ``{name, grant, origin, level, counted}``;
    ``uncapped_advantage_level`` is the Advantage Level before the cap at 5 (C3, C8).
    """
    names = {kind: name for kind, name, _ in record.stats}
    counted = {id(source) for source in record.counted}
    return {
        **check_json(record.result),
        "actor": record.actor,
        "attribute_name": names.get("attribute"),
        "proficiency_name": names.get("proficiency"),
        "specialization_name": names.get("specialization"),
        "base_advantage_level": record.base_level,
        "uncapped_advantage_level": record.raised_level,
        "base_disadvantage": record.base_disadvantage,
        "sources": [
            {
                **source._asdict(),
                "origin": check_origin(source.origin),
                "counted": id(source) in counted,
            }
            for source in record.sources
        ],
        "grants_used": pending_json(record.grants_used),
        "effects_ended": ended_json(record.effects_ended),
        "round": record.round,
        "turn": record.turn,
        "load": record.load,
        "note": record.note,
        "dry_run": dry_run,
    }


def action_event_json(event: ActionEvent) -> JsonObject:
    """The ``action add`` / ``action remove`` object: the creature and the action's table;
    an add also has ``replaced`` (the table of the action it replaced, or null)."""
    obj: JsonObject = {
        "kind": event.kind,
        "round": event.round,
        "turn": event.turn,
        "actor": event.actor,
        "action": action_document(event.action),
    }
    if event.kind == kinds.ACTION_ADD:
        obj["replaced"] = None if event.replaced is None else action_document(event.replaced)
    return obj


class Source(NamedTuple):
    """A source that counted in an act (R4): its name, its grant, its origin's journal name."""

    source: str | None
    grant: str | None
    origin: str | None


class ActionFacts(NamedTuple):
    """A named action's table as an ``action add``/``remove`` keeps it (its name, Aspect, Cost)."""

    name: str | None
    aspect: str | None
    cost: int | None

    @classmethod
    def read(cls, facts: Facts | None) -> Self | None:
        if facts is None:
            return None
        return cls(read_str(facts, "name"), read_str(facts, "aspect"), read_int(facts, "cost"))


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
    dry_run: bool

    @classmethod
    def read(cls, facts: Facts) -> Self:
        name = facts["aspect_name"] if "aspect_name" in facts else facts.get("aspect")
        return cls(
            **change_head(facts),
            aspect=read_int(facts, "aspect"),
            aspect_name=name if isinstance(name, str) else None,
            action=read_str(facts, "action"),
            cost=read_int(facts, "cost"),
            load=read_int(facts, "load"),
            load_before=read_int(facts, "load_before"),
            load_after=read_int(facts, "load_after"),
            allowed=bool(facts.get("allowed")),
            off_turn=bool(facts.get("off_turn")),
            gm_called=bool(facts.get("gm_called") or facts.get("gate_skipped")),
            pool_size=read_int(facts, "pool_size"),
            dice=read_ints(facts, "dice"),
            extra=tuple(DiceTerm.read(term) for term in read_objects(facts, "extra")),
            total=read_int(facts, "total"),
            dc=read_int(facts, "dc"),
            outcome=read_str(facts, "outcome"),
            evasion=read_int(facts, "evasion"),
            damage=read_int(facts, "damage"),
            target=read_str(facts, "target"),
            hp_before=read_int(facts, "hp_before"),
            hp_after=read_int(facts, "hp_after"),
            target_down=bool(facts.get("target_down")),
            advantage=read_strs(facts, "advantage"),
            disadvantage=read_strs(facts, "disadvantage"),
            sources=tuple(
                Source(read_str(item, "source"), read_str(item, "grant"), read_str(item, "origin"))
                for item in read_objects(facts, "sources")
            ),
            entered=bool(facts.get("entered")),
            dry_run=bool(facts.get("dry_run")),
        )

    @property
    def creatures(self) -> tuple[str, ...]:
        return tuple(name for name in (self.actor, self.target) if name is not None)

    def model_sources(self) -> list[tuple[str, str, str]]:
        """The sources that counted as the fight model holds them: ``(source, grant, origin)``,
        the origin the model's (`d4cli.journal.effect_facts.MODEL_ORIGINS`; R4, R11, R20).

        Raises:
            ValueError: a source without its name or grant, or of an origin this version does not know.
        """
        found = []
        for source in self.sources:
            origin = MODEL_ORIGINS.get(str(source.origin))
            if source.source is None or source.grant is None or origin is None:
                raise ValueError(f"an act's source that cannot be read: {source}")
            found.append((source.source, source.grant, origin))
        return found


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

    @property
    def creatures(self) -> tuple[str, ...]:
        return tuple(name for name in (self.actor, self.target) if name is not None)

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            aspect=read_str(facts, "aspect"),
            cost=read_int(facts, "cost"),
            target=read_str(facts, "target"),
            grant=read_str(facts, "grant"),
            source=read_str(facts, "source"),
            load_before=read_int(facts, "load_before"),
            load_after=read_int(facts, "load_after"),
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
    natural: int | None
    advantage_dice: tuple[int, ...]
    critical: str | None
    total: int | None
    dc: int | None
    outcome: str | None
    dry_run: bool

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            attribute_name=read_str(facts, "attribute_name"),
            proficiency_name=read_str(facts, "proficiency_name"),
            specialization_name=read_str(facts, "specialization_name"),
            attribute=read_int(facts, "attribute"),
            proficiency=read_int(facts, "proficiency"),
            specialization=read_int(facts, "specialization"),
            advantage_level=read_int(facts, "advantage_level"),
            disadvantage=read_int(facts, "disadvantage"),
            impossible=bool(facts.get("impossible")),
            natural=read_int(facts, "natural"),
            advantage_dice=read_ints(facts, "advantage_dice"),
            critical=read_str(facts, "critical"),
            dry_run=bool(facts.get("dry_run")),
            total=read_int(facts, "total"),
            dc=read_int(facts, "dc"),
            outcome=read_str(facts, "outcome"),
        )


@dataclass(frozen=True, kw_only=True)
class ActionChange(Change):
    """An ``action-add`` or ``action-remove``: the action, and for an add the one it replaced."""

    action: ActionFacts
    replaced: ActionFacts | None

    @classmethod
    def read(cls, facts: Facts) -> Self:
        action = ActionFacts.read(read_object(facts, "action")) or ActionFacts(None, None, None)
        replaced = facts.get("replaced")
        return cls(
            **change_head(facts),
            action=action,
            replaced=ActionFacts.read(replaced)
            if isinstance(replaced, dict) and replaced
            else None,
        )
