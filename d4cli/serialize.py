"""Every result record as the plain JSON object that the public contract fixes: the one serializer.

Each record has exactly one function here that turns it into its JSON object;
the commands print that object and the journal stores the same object plus its
bookkeeping (``seq``, ``time``, digests), so ``act --json`` and the ``log
--json`` entry of that act carry the same facts under the same keys. Every key
of the contract is always present (None where it does not apply); the extra
keys (``rules``, ``base_pool`` ...) explain the steps further.

No Rich, no Typer: importing this module is cheap (``--json`` paths).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # only for the annotations: keeps this module free to import
    from pathlib import Path

    from d4cli.actions import ActRecord, TeamRecord
    from d4cli.check import CheckResult
    from d4cli.dice import ExtraRoll
    from d4cli.effects import Effect, Ended
    from d4cli.encounter import Creature, Encounter, Pending
    from d4cli.pool import PoolResult
    from d4cli.records import (
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
    from d4cli.sheet_check import CheckRecord
    from d4cli.sheets import ActionEvent

    Event = AddEvent | MoveEvent | RemoveEvent | TurnStartEvent | TurnEndEvent | ExhaustEvent | DamageEvent | HealEvent | EffectEvent
    Record = ActRecord | TeamRecord | Event | CheckRecord | ActionEvent

JsonObject = dict[str, Any]


# --- rolls -----------------------------------------------------------------------------------


def pool_json(result: PoolResult) -> JsonObject:
    """The ``roll pool`` object: gate, sources, pool, dice, total, resolution (R2-R8)."""
    plan = result.plan
    request = plan.request
    gate = plan.gate
    return {
        "kind": "pool",
        "aspect": request.aspect,
        "load": request.load,
        "cost": request.cost,
        "allowed": gate.allowed,
        "headroom": gate.headroom,
        "advantage": list(plan.advantage),
        "disadvantage": list(plan.disadvantage),
        "net_advantage": plan.net_advantage,
        "pool_size": plan.size.size if gate.allowed else None,
        "dice": list(result.dice),
        "extra": extra_json(result.extra),
        "total": result.total,
        "dc": request.dc,
        "success": result.success,
        "evasion": request.evasion,
        "damage": result.damage,
        "gate_skipped": gate.skipped,
        "shortfall": gate.shortfall,
        "base_pool": plan.size.base,
        "minimum_applied": plan.size.minimum_applied if gate.allowed else None,
        "ignore_load": request.ignore_load,
        "advantage_repeats": list(plan.advantage_repeats),
        "disadvantage_repeats": list(plan.disadvantage_repeats),
        "load_after": plan.load_after,
    }


def extra_json(rolls: Iterable[ExtraRoll]) -> list[JsonObject]:
    """Extra-dice rolls (R6) as ``[{notation, dice, modifier}]``."""
    return [
        {"notation": roll.extra.notation, "dice": list(roll.dice), "modifier": roll.extra.modifier}
        for roll in rolls
    ]


def check_json(result: CheckResult) -> JsonObject:
    """The ``roll check`` object: natural d20, modifiers, Advantage, crit, outcome (C1-C7)."""
    request = result.request
    return {
        "kind": "check",
        "attribute": request.attribute,
        "proficiency": request.proficiency,
        "specialization": request.specialization,
        "advantage_level": request.advantage_level,
        "disadvantage": request.disadvantage,
        "effective_level": result.levels.effective_level,
        "impossible": result.impossible,
        "natural": result.natural,
        "advantage_dice": list(result.advantage_dice),
        "advantage_bonus": result.advantage_bonus,
        "disadvantage_die": result.disadvantage_die,
        "critical": result.critical,
        "crit_die": result.crit_die,
        "total": result.total,
        "dc": request.dc,
        "success": result.success,
        "outcome": result.outcome,
        "margin": result.margin,
        "rule_of_three": request.rule_of_three,
    }


def sheet_check_json(record: CheckRecord, *, dry_run: bool = False) -> JsonObject:
    """The ``check`` object: the ``roll check`` object plus who rolled, the stats' names and the sources (C8).

    ``attribute_name`` / ``proficiency_name`` / ``specialization_name`` are None when not used;
    ``sources`` lists every source as ``{name, grant, origin, level, counted}``.
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
        "base_disadvantage": record.base_disadvantage,
        "sources": [
            {**source._asdict(), "counted": id(source) in counted} for source in record.sources
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
    """The ``action add`` / ``action remove`` object: the creature and the action's table."""
    from d4cli.sheets import action_document

    return {
        "kind": event.kind,
        "round": event.round,
        "turn": event.turn,
        "actor": event.actor,
        "action": action_document(event.action),
    }


def with_odds(obj: JsonObject, odds: object | None) -> JsonObject:
    """*obj* with the ``odds`` key (L4): the odds object of `d4cli.odds.odds_json`, or None."""
    if odds is None:
        obj["odds"] = None
        return obj
    from d4cli.odds import odds_json

    obj["odds"] = odds_json(odds)  # type: ignore[arg-type]
    return obj


# --- encounter records -----------------------------------------------------------------------


def pending_json(pending: Pending) -> dict[str, list[str]]:
    """Team Action grants (R11) as ``{advantage: [...], disadvantage: [...]}``."""
    return {"advantage": list(pending.advantage), "disadvantage": list(pending.disadvantage)}


def act_json(record: ActRecord, *, dry_run: bool = False) -> JsonObject:
    """The ``act`` object: the ``roll pool`` object plus what the action did (R2-R11, R16).

    ``aspect`` stays the Aspect's value (as in ``roll pool``); ``aspect_name``
    is its name. The journal entry of the act is this object with ``kind`` =
    "act" (`journal_json`); *dry_run* says nothing was written. A down actor
    (R18) is refused: ``allowed`` false, ``actor_down`` true, nothing rolled.
    """
    refused_down = {"allowed": False, "pool_size": None, "minimum_applied": None} if record.actor_down else {}
    return {
        **pool_json(record.result),
        **refused_down,
        "actor": record.actor,
        "target": record.target,
        "load_before": record.load_before,
        "load_after": record.load_after,
        "off_turn": record.off_turn,
        "hp_before": record.hp_before,
        "hp_after": record.hp_after,
        "hp_zero": record.hp_zero,
        "aspect_name": record.aspect,
        "aspect_value": record.result.plan.request.aspect,
        "round": record.round,
        "turn": record.turn,
        "grants_used": pending_json(record.grants_used),
        "outcome": record.outcome,
        "dry_run": dry_run,
        "actor_down": record.actor_down,
        "target_down": record.target_down,
        "sources": [{"source": s, "grant": g, "origin": ORIGIN_NAMES[o]} for s, g, o in record.sources],
        "effects_ended": ended_json(record.effects_ended),
    }


# Where a source of an act came from (R4, R11, R20), as the JSON names it.
ORIGIN_NAMES = {"command": "command-line", "effect": "effect", "team": "team-action"}


def effect_json(effect: Effect) -> JsonObject:
    """A lasting effect (R20): ``{source, grant, on, ends: {kind, creature, last_round, uses}, origin}``."""
    return {
        "source": effect.source,
        "grant": effect.grant,
        "on": effect.on,
        "ends": {"kind": effect.ends, "creature": effect.creature, "last_round": effect.last_round, "uses": effect.uses},
        "origin": ORIGIN_NAMES[effect.origin],
    }


def ended_json(ended: Iterable[Ended]) -> list[JsonObject]:
    """Effects a change ended (R20): each effect's object plus ``creature`` and ``reason``."""
    return [{**effect_json(gone.effect), "creature": gone.creature, "reason": gone.reason} for gone in ended]


def effects_list_json(encounter: Encounter, only: str | None = None) -> JsonObject:
    """The ``effect list --json`` object: ``{round, effects: [{creature, ...effect}]}`` (R20)."""
    from d4cli.names import fold_name

    rows = [
        {"creature": creature.name, **effect_json(effect)}
        for creature in encounter.creatures
        if only is None or fold_name(only) == fold_name(creature.name)
        for effect in creature.effects
    ]
    return {"round": encounter.round, "effects": rows}


def effect_event_json(event: EffectEvent) -> JsonObject:
    """An ``effect`` change (R20): ``action`` add or remove, the effect, the one it replaced."""
    return {
        **_event_head(event),
        "action": event.action,
        "effect": effect_json(event.effect),
        "replaced": None if event.replaced is None else effect_json(event.replaced),
        **({"counts_from": event.counts_from} if event.counts_from is not None else {}),
    }


def team_json(record: TeamRecord) -> JsonObject:
    """The ``team`` object: the actor's gate, the grant, the Loads (R2, R10, R11)."""
    return {
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


def _event_head(event: Event) -> JsonObject:
    return {"kind": event.kind, "round": event.round, "turn": event.turn, "actor": event.actor}


def add_json(event: AddEvent) -> JsonObject:
    """An ``add`` (R1, R13): the new creature's sheet and starting Load."""
    return {
        **_event_head(event),
        "aspects": dict(event.aspects),
        "load_buffer": event.load_buffer,
        "exhaustion": event.exhaustion,
        "load_after": event.load_after,
        "evasion": event.evasion,
        "hp_after": event.hp_after,
        "max_hp": event.max_hp,
        "position": event.position,
        "next": event.next,
    }


def move_json(event: MoveEvent) -> JsonObject:
    """A ``move`` (R13): the place before and after (from 1), the new order, who is next (R19)."""
    return {
        **_event_head(event),
        "position_before": event.position_before,
        "position_after": event.position_after,
        "order": list(event.order),
        "next": event.next,
    }


def hp_json(event: DamageEvent | HealEvent) -> JsonObject:
    """A ``damage`` or ``heal`` (R16, R18): the amount, hp before and after, down before and after."""
    return {
        **_event_head(event),
        "amount": event.amount,
        "hp_before": event.hp_before,
        "hp_after": event.hp_after,
        "max_hp": event.max_hp,
        "down_before": event.down_before,
        "down_after": event.down_after,
    }


def remove_json(event: RemoveEvent) -> JsonObject:
    """A ``remove`` (R17): whether it ended the running turn, and who is next."""
    return {
        **_event_head(event),
        "ended_turn": event.ended_turn,
        "next": event.next,
        "load_before": event.load_before,
        "hp_before": event.hp_before,
        "effects_ended": ended_json(event.effects_ended),
    }


def turn_start_json(event: TurnStartEvent) -> JsonObject:
    """A ``turn-start`` (R1, R12, R13): the turn ended first, the resets made, who is next."""
    return {
        **_event_head(event),
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
    }


def turn_end_json(event: TurnEndEvent) -> JsonObject:
    """A ``turn-end`` (R14): the Load kept, who is next, whether the round is over."""
    return {
        **_event_head(event),
        "load_after": event.load_after,
        "next": event.next,
        "round_over": event.round_over,
        "effects_ended": ended_json(event.effects_ended),
    }


def exhaust_json(event: ExhaustEvent) -> JsonObject:
    """An ``exhaust`` (R15): the level before and after, the Load kept, the new reset value."""
    return {
        **_event_head(event),
        "exhaustion_before": event.exhaustion_before,
        "exhaustion_after": event.exhaustion_after,
        "load_after": event.load_after,
        "reset_value": event.reset_value,
    }


def record_json(record: Record) -> JsonObject:
    """The JSON object of any encounter record (what ``--json`` prints after a change)."""
    from d4cli import actions, sheet_check, sheets
    from d4cli import records as model

    if isinstance(record, sheet_check.CheckRecord):
        return sheet_check_json(record)
    if isinstance(record, sheets.ActionEvent):
        return action_event_json(record)
    if isinstance(record, actions.ActRecord):
        return act_json(record)
    if isinstance(record, actions.TeamRecord):
        return team_json(record)
    if isinstance(record, model.AddEvent):
        return add_json(record)
    if isinstance(record, model.RemoveEvent):
        return remove_json(record)
    if isinstance(record, model.TurnStartEvent):
        return turn_start_json(record)
    if isinstance(record, model.TurnEndEvent):
        return turn_end_json(record)
    if isinstance(record, model.EffectEvent):
        return effect_event_json(record)
    if isinstance(record, model.MoveEvent):
        return move_json(record)
    if isinstance(record, (model.DamageEvent, model.HealEvent)):
        return hp_json(record)
    return exhaust_json(record)


def journal_json(record: Record) -> JsonObject:
    """The facts a journal entry keeps of *record*: its `record_json` object, ``kind`` the log kind.

    Only ``kind`` differs from the printed object, and only for an act (``pool``
    there, ``act`` in the log, both fixed by the contract).
    """
    obj = record_json(record)
    obj["kind"] = record.kind
    return obj


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


def init_output_json(path: Path | str, details: JsonObject) -> JsonObject:
    """The ``init --json`` object: ``kind``, ``file`` and the `init_json` facts."""
    return {"kind": "init", "file": str(path), **details}


def undo_json(entry: JsonObject, hand_edited: bool) -> JsonObject:
    """The ``undo --json`` object: the journal entry undone, and whether a hand edit went too."""
    return {"kind": "undo", "undone": entry, "hand_edited": hand_edited}


def redo_json(entry: JsonObject) -> JsonObject:
    """The ``redo --json`` object: the journal entry put back."""
    return {"kind": "redo", "redone": entry}


def log_json(entries: list[JsonObject]) -> JsonObject:
    """The ``log --json`` object: ``{"entries": [...]}``, oldest first."""
    return {"entries": entries}


def help_json(topics: Mapping[str, object], rules: Iterable[object] = (), *, topics_key: bool = True) -> JsonObject:
    """The ``help --json`` object: ``{"topics": [{topic, ...its fields}], "rules": [{id, title, text, example}]}``.

    ``help --json`` lists every topic and every rule; ``help --json TOPIC`` one topic;
    ``help --json R14`` only ``rules`` (*topics_key* false).
    """
    found: JsonObject = {}
    if topics_key:
        found["topics"] = [{"topic": name, **vars(entry)} for name, entry in topics.items()]
    if rules:
        found["rules"] = [vars(rule) for rule in rules]
    return found


def status_json(encounter: Encounter) -> JsonObject:
    """The ``status --json`` object: round, mode, current, creatures in turn order (R1, R2, R11, R18, R19)."""
    return {
        "name": encounter.name,
        "round": encounter.round,
        "mode": encounter.mode,
        "round_reset": encounter.round_reset,
        "current": encounter.current,
        "next": encounter.next_turn,
        "creatures": [
            {
                "name": creature.name,
                "aspects": dict(creature.aspects),
                "load": creature.load,
                "buffer": creature.load_buffer,
                "load_buffer": creature.load_buffer,
                "exhaustion": creature.exhaustion,
                "evasion": creature.evasion,
                "hp": creature.hp,
                "headroom": creature.headroom(),
                "pending": pending_json(creature.grants),
                "effects": [effect_json(effect) for effect in creature.effects],
                "reset_value": encounter.reset_to(creature),
                "had_turn": creature.had_turn,
                "down": creature.down,
                "max_hp": creature.max_hp,
                **sheet_json(creature),
            }
            for creature in encounter.creatures
        ],
    }


def sheet_json(creature: Creature) -> JsonObject:
    """A creature's sheet in ``status --json``: side, stats and actions (C8)."""
    from d4cli.encounter import STAT_KINDS
    from d4cli.sheets import action_document

    sheet: JsonObject = {"side": getattr(creature, "side", "") or None}
    for kind in STAT_KINDS:
        sheet[kind] = dict(getattr(creature, kind))
    sheet["actions"] = [action_document(action) for action in creature.actions]
    return sheet
