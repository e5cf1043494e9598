"""Rolls as facts: the ``roll pool`` and ``roll check`` objects, extra dice, the ``roll dice`` object
(R2-R8, C1-C7): what an act, a check or a rolled amount keeps in the journal and ``--json`` prints."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple, Self

from d4cli.journal import JsonObject
from d4cli.journal.values import Facts, read_int, read_ints, read_objects, read_str
from d4cli.rules.action_roll import CheckResult
from d4cli.rules.dice import DiceRoll, ExtraRoll
from d4cli.rules.pool import PoolResult


def pool_json(result: PoolResult, *, entered: bool = False) -> JsonObject:
    """The ``roll pool`` object: gate, sources, pool, dice, total, resolution (R2-R8);
    ``entered`` says the dice are faces entered by hand (``--faces``), not rolled."""
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
        "entered": entered,
    }


def extra_json(rolls: Iterable[ExtraRoll]) -> list[JsonObject]:
    """Extra-dice rolls (R6) as ``[{notation, dice, modifier}]``."""
    return [
        {"notation": roll.extra.notation, "dice": list(roll.dice), "modifier": roll.extra.modifier}
        for roll in rolls
    ]


def dice_json(roll: DiceRoll) -> JsonObject:
    """The ``roll dice`` object: ``kind`` "dice", ``expression`` as given, ``terms``
    (``[{notation, dice, modifier}]``, as `extra_json`), ``total``, ``dice_count``."""
    return {
        "kind": "dice",
        "expression": roll.expression.text,
        "terms": extra_json(roll.rolls),
        "total": roll.total,
        "dice_count": roll.expression.dice_count,
    }


def check_json(result: CheckResult, *, entered: bool = False) -> JsonObject:
    """The ``roll check`` object: natural d20, modifiers, Advantage, crit, outcome (C1-C7);
    ``entered`` as for `pool_json`."""
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
        "entered": entered,
    }


class DiceTerm(NamedTuple):
    """One term of rolled dice (R6): its notation (``1d4+1``), the faces rolled, its modifier."""

    notation: str | None
    dice: tuple[int, ...]
    modifier: int | None

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            read_str(facts, "notation"), read_ints(facts, "dice"), read_int(facts, "modifier")
        )


class DiceFacts(NamedTuple):
    """Dice rolled for an amount (``damage NAME 2d6+1``): the expression, its terms, the total."""

    expression: str | None
    terms: tuple[DiceTerm, ...]
    total: int | None

    @classmethod
    def read(cls, facts: Facts | None) -> Self | None:
        if facts is None:
            return None
        terms = tuple(DiceTerm.read(term) for term in read_objects(facts, "terms"))
        return cls(read_str(facts, "expression"), terms, read_int(facts, "total"))
