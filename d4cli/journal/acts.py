"""What a creature does, as journal facts: ``act``, ``team``, ``check`` from a sheet, ``action add/remove`` (R2-R11, R16, C8)."""

from __future__ import annotations

from d4cli.fight import closed_sets as kinds
from d4cli.fight.actions import ActRecord
from d4cli.fight.sheet_check import CheckRecord
from d4cli.fight.sheets import ActionEvent, action_document
from d4cli.fight.team import TeamRecord
from d4cli.journal import JsonObject
from d4cli.journal.effects import ORIGINS, check_origin, ended_json
from d4cli.journal.heads import fight_over_json, pending_json
from d4cli.journal.rolls import check_json, pool_json


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
