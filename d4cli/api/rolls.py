"""Rolls with no encounter: a D4 pool (R2-R8), a d20 check (C1-C7), plain dice (L2, L3).

    >>> from d4cli.api.rolls import roll_pool
    >>> roll_pool(4, advantage=["torch"], dc=8).total      # doctest: +SKIP

Each returns the rules' record of the roll (dice, what counted, the total, the rule
that decided each step); the front ends render it. *rng* is any object with
``randint(a, b)`` (a seeded `random.Random` for reproducible rolls).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Literal, overload

from d4cli.api.arguments import DC, checked, dc_or_none
from d4cli.rules.action_roll import CheckRequest, CheckResult, apply_disadvantage
from d4cli.rules.action_roll import roll_check as roll_check_request
from d4cli.rules.dice import (
    DiceRoll,
    DiceSource,
    EnteredDice,
    ExtraDice,
    ScriptedDice,
    parse_expression,
    parse_extra,
    roll_expression,
)
from d4cli.rules.limits import ADVANTAGE_LEVEL, check_range
from d4cli.rules.pool import (
    PoolPlan,
    PoolRequest,
    PoolResult,
    RefusedPool,
    RolledPool,
    plan_pool,
    pool_size,
)
from d4cli.rules.pool import roll_pool as roll_pool_plan
from d4cli.sim.batched_dice import times_dice

__all__ = [
    "roll_pool",
    "pool_plan",
    "roll_check",
    "roll_dice",
    "pool_size",
    "PoolPlan",
    "PoolResult",
    "RolledPool",
    "RefusedPool",
    "CheckRequest",
    "CheckResult",
    "DiceRoll",
    "ExtraDice",
    "ScriptedDice",
    "EnteredDice",
    # The rules' own requests, for a front end that shows a plan before its roll, rolls it
    # many times or from entered faces: plan, then roll the plan (R2-R8, C1-C7, L2-L3).
    "PoolRequest",
    "plan_pool",
    "roll_pool_plan",
    "roll_check_request",
    "apply_disadvantage",
    "roll_expression",
    "times_dice",
]


def _dice(rng: DiceSource | None) -> DiceSource:
    return random.Random() if rng is None else rng


@checked
def pool_plan(
    aspect: int,
    *,
    load: int = 0,
    cost: int = 1,
    advantage: Iterable[str] = (),
    disadvantage: Iterable[str] = (),
    extra: Iterable[ExtraDice | str] = (),
    dc: DC | None = None,
    evasion: int | None = None,
    gm: bool = False,
    ignore_load: bool = False,
) -> PoolPlan:
    """The pool before any die is rolled: the gate (R2), Net Advantage (R4), the pool's size (R5).

    *extra* takes `ExtraDice` or notation such as ``"1d8+2"`` (R6); give at most one of
    *dc* (R7; a whole number or a tier such as ``"hard"``, C2) and *evasion* (R7). *gm* skips the gate and leaves the Load (R9), and
    *ignore_load* (with *gm*) sizes the pool as if Load were 0.

    Raises:
        InputError: a value the rules or limits refuse (L1-L4), or of the wrong type, naming
            its field.
    """
    request = PoolRequest(
        aspect=aspect,
        load=load,
        cost=cost,
        advantage=tuple(advantage),
        disadvantage=tuple(disadvantage),
        extra=tuple(parse_extra(e, "extra") if isinstance(e, str) else e for e in extra),
        dc=dc_or_none(dc),
        evasion=evasion,
        gm=gm,
        ignore_load=ignore_load,
    )
    return plan_pool(request)


@overload
def roll_pool(
    aspect: int,
    *,
    load: int = 0,
    cost: int = 1,
    advantage: Iterable[str] = (),
    disadvantage: Iterable[str] = (),
    extra: Iterable[ExtraDice | str] = (),
    dc: DC | None = None,
    evasion: int | None = None,
    gm: Literal[True],
    ignore_load: bool = False,
    rng: DiceSource | None = None,
) -> RolledPool: ...


@overload
def roll_pool(
    aspect: int,
    *,
    load: int = 0,
    cost: int = 1,
    advantage: Iterable[str] = (),
    disadvantage: Iterable[str] = (),
    extra: Iterable[ExtraDice | str] = (),
    dc: DC | None = None,
    evasion: int | None = None,
    gm: bool = False,
    ignore_load: bool = False,
    rng: DiceSource | None = None,
) -> RolledPool | RefusedPool: ...


@checked
def roll_pool(
    aspect: int,
    *,
    load: int = 0,
    cost: int = 1,
    advantage: Iterable[str] = (),
    disadvantage: Iterable[str] = (),
    extra: Iterable[ExtraDice | str] = (),
    dc: DC | None = None,
    evasion: int | None = None,
    gm: bool = False,
    ignore_load: bool = False,
    rng: DiceSource | None = None,
) -> RolledPool | RefusedPool:
    """Roll a D4 pool: the gate, the pool, each d4, the total; success against *dc* or
    damage against *evasion* (R2-R8).

    Returns a `RolledPool` (its ``total`` a whole number), or a `RefusedPool` when the gate
    refused (``allowed`` false, ``total`` None): nothing is rolled then. Test
    ``result.allowed`` and a type checker knows which; a GM-called roll (``gm=True``, R9)
    skips the gate and is always a `RolledPool`.

    Raises:
        InputError: as `pool_plan`.
    """
    plan = pool_plan(
        aspect,
        load=load,
        cost=cost,
        advantage=advantage,
        disadvantage=disadvantage,
        extra=extra,
        dc=dc,
        evasion=evasion,
        gm=gm,
        ignore_load=ignore_load,
    )
    return roll_pool_plan(plan, _dice(rng))


@checked(renamed={"advantage": "advantage_level"})
def roll_check(
    *,
    attribute: int = 0,
    proficiency: int = 0,
    specialization: int = 0,
    dc: DC | None = None,
    advantage_level: int = 0,
    disadvantage: int = 0,
    rule_of_three: bool = False,
    rng: DiceSource | None = None,
) -> CheckResult:
    """Make a d20 Action Roll: d20 + modifiers (C1), Advantage Level *advantage_level* (0-5,
    C3) less *disadvantage* (C4), crits (C5, C6), the Rule of Three (C7), graded against *dc*
    (a whole number or a tier such as ``"hard"``, C2).

    A check that Disadvantage makes impossible (C4) is a result with ``impossible`` true.
    The keyword ``advantage`` is the old name of *advantage_level* (a `DeprecationWarning`).

    Raises:
        InputError: *advantage_level* outside 0..5 (C3), a negative *disadvantage*, an
            unknown tier, or a value of the wrong type, naming its field.
    """
    check_range(advantage_level, "advantage_level", ADVANTAGE_LEVEL)
    request = CheckRequest(
        attribute=attribute,
        proficiency=proficiency,
        specialization=specialization,
        dc=dc_or_none(dc),
        advantage_level=advantage_level,
        disadvantage=disadvantage,
        rule_of_three=rule_of_three,
    )
    return roll_check_request(request, _dice(rng))


@checked
def roll_dice(expression: str, *, rng: DiceSource | None = None) -> DiceRoll:
    """Roll plain dice such as ``"2d6+1d4+3"``: each die and the total; no pool, no gate.

    Raises:
        InputError: not ``NdX`` terms and whole numbers joined by ``+``/``-`` (L2, L3).
    """
    return roll_expression(parse_expression(expression, "expression"), _dice(rng))
