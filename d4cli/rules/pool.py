"""The D4 dice pool (R1-R10): the gate, the pool and the roll.

Pure functions on plain data. `plan_pool` decides everything that does not
need dice (the gate, Net Advantage, the pool size); `roll_pool` rolls that plan
with an injected `DiceSource`. Both return immutable records that say what
happened and which rule decided it (named tuples: a command builds them at
every start, and a named tuple class costs a fraction of a frozen dataclass).
"""

# No `from __future__ import annotations`: a named tuple's field annotations would then be
# strings, each compiled when the class is made (start-up).

from typing import Literal, NamedTuple

from d4cli.rules.dice import DiceSource, ExtraDice, ExtraRoll, roll_dice, roll_extra
from d4cli.rules.errors import InputError
from d4cli.rules.limits import ASPECT, COST, DC, EVASION, LOAD, check_dice, check_range
from d4cli.rules.names import distinct_sources
from d4cli.rules.records import notebook


def reset_load(load_buffer: int, exhaustion: int = 0) -> int:
    """Load at the start of a creature's turn (R1): ``Exhaustion - Load Buffer``.

    >>> reset_load(1), reset_load(1, exhaustion=2)
    (-1, 1)
    """
    return exhaustion - load_buffer


@notebook
class Gate(NamedTuple):
    """The "can I act?" gate (R2, R3, R9): ``Aspect - Load >= Cost``.

    Attributes:
        headroom: ``Aspect - Load``.
        allowed: whether the action may be taken (always true when skipped).
        skipped: a GM-called roll skips the gate (R9).
        shortfall: how much the headroom fell short of the Cost (0 when allowed).
    """

    aspect: int
    load: int
    cost: int
    headroom: int
    allowed: bool
    skipped: bool = False

    @property
    def shortfall(self) -> int:
        return 0 if self.allowed else self.cost - self.headroom


def check_gate(aspect: int, load: int, cost: int, *, gm: bool = False) -> Gate:
    """Apply the gate (R2): allowed when ``aspect - load >= cost``; skipped for a GM-called roll (R9).

    Advantage and Disadvantage never enter the gate (R2).

    Raises:
        InputError: an Aspect or a Load outside -1000..1000, a Cost outside 0..1000 (R3, L1),
            naming ``aspect``, ``load`` or ``cost``.
    """
    check_range(aspect, "aspect", ASPECT)
    check_range(load, "load", LOAD)
    check_range(cost, "cost", COST)
    headroom = aspect - load
    return Gate(aspect, load, cost, headroom, gm or headroom >= cost, skipped=gm)


@notebook
class PoolSize(NamedTuple):
    """How the pool size came about (R5, R9).

    Attributes:
        base: ``Aspect - max(0, Load)`` (or the Aspect when Load is ignored, R9).
        net_advantage: distinct Advantage sources minus distinct Disadvantage sources (R4).
        size: ``max(1, base + net_advantage)`` d4s.
        minimum_applied: the 1-die minimum raised the pool (R5).
    """

    base: int
    net_advantage: int
    size: int
    minimum_applied: bool


def pool_size(aspect: int, load: int, net_advantage: int, *, ignore_load: bool = False) -> PoolSize:
    """Size the pool (R5): ``max(1, Aspect - max(0, Load) + Net Advantage)`` d4s.

    A negative Load never enlarges the pool; with *ignore_load* (a GM-called
    roll, R9) the base is the Aspect alone.

    >>> pool_size(4, 0, 1).size, pool_size(1, 3, -1).size
    (5, 1)
    """
    base = aspect if ignore_load else aspect - max(0, load)
    raw = base + net_advantage
    return PoolSize(base, net_advantage, max(1, raw), raw < 1)


@notebook
class PoolRequest(NamedTuple):
    """What a pool roll asks for (docs/cli.md ``roll pool``).

    Attributes:
        aspect: the Aspect's value (may be negative, L1).
        load: the current Action Load.
        cost: the action's Cost (>= 0, R3).
        advantage / disadvantage: source names as given; repeats count once (R4).
        extra: extra dice added after the pool (R6).
        dc: resolve against a Difficulty Class (R7), or
        evasion: resolve against a target's Evasion, giving damage (R7).
        gm: a GM-called roll, which skips the gate (R9).
        ignore_load: size the pool as if Load were 0 (R9).
    """

    aspect: int
    load: int = 0
    cost: int = 1
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    extra: tuple[ExtraDice, ...] = ()
    dc: int | None = None
    evasion: int | None = None
    gm: bool = False
    ignore_load: bool = False


@notebook
class PoolPlan(NamedTuple):
    """Everything about a pool roll that is known before the dice (R2, R4, R5, R6).

    Attributes:
        advantage / disadvantage: the distinct sources counted (first spelling kept).
        advantage_repeats / disadvantage_repeats: names folded as repeats (R4).
        size: the pool size, or None when the gate refused.
        dice_count: all dice the roll would throw (pool and extra, L2).
    """

    request: PoolRequest
    gate: Gate
    advantage: tuple[str, ...]
    disadvantage: tuple[str, ...]
    advantage_repeats: tuple[str, ...]
    disadvantage_repeats: tuple[str, ...]
    size: PoolSize

    @property
    def net_advantage(self) -> int:
        return len(self.advantage) - len(self.disadvantage)

    @property
    def dice_count(self) -> int:
        return self.size.size + sum(extra.count for extra in self.request.extra)

    @property
    def load_after(self) -> int:
        """Load after the action (R8): raised by the Cost when allowed, unchanged when refused
        and after a GM-called roll (R9)."""
        gate = self.gate
        return gate.load + gate.cost if gate.allowed and not gate.skipped else gate.load


def plan_pool(request: PoolRequest) -> PoolPlan:
    """Decide the gate, the sources and the pool size of *request* (R2-R6, R9).

    Raises:
        InputError: the roll would throw more than 10,000 dice (L2), both
            a DC and an Evasion were given, a number out of its range (L1: the gate's, as
            `check_gate`; a DC within -100,000..100,000, an Evasion within 0..100,000), or
            a source name is not valid UTF-8 text (`d4cli.rules.names.check_text`).
    """
    if request.dc is not None and request.evasion is not None:
        raise InputError("dc/evasion", None, "give a DC or an Evasion, not both")
    if request.dc is not None:
        check_range(request.dc, "dc", DC)
    if request.evasion is not None:
        check_range(request.evasion, "evasion", EVASION)
    if request.ignore_load and not request.gm:
        raise InputError(
            "ignore_load",
            None,
            "only with {gm}: ignoring Load is for a GM-called roll (R9)",
            mentions=("gm",),
        )
    gate = check_gate(request.aspect, request.load, request.cost, gm=request.gm)
    advantage, advantage_repeats = distinct_sources(request.advantage, "advantage")
    disadvantage, disadvantage_repeats = distinct_sources(request.disadvantage, "disadvantage")
    size = pool_size(
        request.aspect,
        request.load,
        len(advantage) - len(disadvantage),
        ignore_load=request.ignore_load,
    )
    plan = PoolPlan(
        request, gate, advantage, disadvantage, advantage_repeats, disadvantage_repeats, size
    )
    extra_dice = 0
    for extra in request.extra:
        extra_dice += extra.count
    check_dice(size.size, extra_dice)  # plan.dice_count - the pool
    return plan


@notebook
class PoolResult(NamedTuple):
    """A rolled (or refused) pool action (R2-R8).

    Attributes:
        plan: the gate, sources and size the roll was made from.
        dice: each d4 of the pool, in the order rolled (empty when refused).
        extra: each extra-dice roll (empty when refused).
        total: sum of the pool and the extra dice (R7), None when refused.
        success: ``total >= dc`` when a DC was given (R7).
        damage: ``max(0, total - evasion)`` when an Evasion was given (R7).
    """

    plan: PoolPlan
    dice: tuple[int, ...] = ()
    extra: tuple[ExtraRoll, ...] = ()
    total: int | None = None

    @property
    def allowed(self) -> bool:
        return self.plan.gate.allowed

    @property
    def success(self) -> bool | None:
        dc = self.plan.request.dc
        return None if dc is None or self.total is None else self.total >= dc

    @property
    def damage(self) -> int | None:
        evasion = self.plan.request.evasion
        return None if evasion is None or self.total is None else max(0, self.total - evasion)


class RolledPool(PoolResult):
    """A pool the gate allowed, rolled (R2-R8): its ``total`` is a whole number.

    What `roll_pool` returns when the dice were thrown; test ``result.allowed`` on what it
    returns and a type checker knows which of the two it holds.
    """

    __slots__ = ()
    total: int

    @property
    def allowed(self) -> Literal[True]:
        return True


class RefusedPool(PoolResult):
    """A pool the gate refused (R2): nothing was rolled, ``total`` is None."""

    __slots__ = ()
    total: None

    @property
    def allowed(self) -> Literal[False]:
        return False


def roll_pool(request: PoolRequest | PoolPlan, rng: DiceSource) -> RolledPool | RefusedPool:
    """Roll a pool action: gate, pool, extra dice, total and resolution (R2-R8).

    The pool's d4s are rolled first, then each extra dice group in order. A
    refused action (R2) rolls nothing.

    Args:
        request: the roll, or a plan already made from it.
        rng: the source of dice.

    Returns:
        A `RolledPool`, or a `RefusedPool` (``allowed`` false) when the gate refused.

    Raises:
        InputError: as `plan_pool`.
    """
    plan = request if isinstance(request, PoolPlan) else plan_pool(request)
    if not plan.gate.allowed:
        return RefusedPool(plan)
    many = getattr(rng, "roll_many", None)
    if many is not None:  # a batched source (`roll_dice`): the same dice, each group in one call
        dice = many(plan.size.size, 4)
        total = sum(dice)
        rolls = []
        for item in plan.request.extra:  # then each extra dice group, in order (`roll_extra`)
            got = many(item.count, item.sides)
            total += sum(got) + item.modifier  # `ExtraRoll.subtotal`
            rolls.append(ExtraRoll(item, got))
        return RolledPool(plan, dice, tuple(rolls), total)
    dice = roll_dice(plan.size.size, 4, rng)
    total = sum(dice)
    rolls = []
    for item in plan.request.extra:  # then each extra dice group, in order
        roll = roll_extra(item, rng)
        total += roll.subtotal
        rolls.append(roll)
    return RolledPool(plan, dice, tuple(rolls), total)


def roll_pools(plan: PoolPlan, rng: DiceSource, count: int) -> list[RolledPool | RefusedPool]:
    """*count* rolls of *plan*: the very results of *count* `roll_pool` calls with *rng*, in order (R2-R8).

    A source with ``roll_rows(rolls, count, sides)`` (`d4cli.sim.batched_dice.BatchedDice`)
    hands the pools' d4s of every roll in one call when there are no extra dice (R6).
    """
    rows = getattr(rng, "roll_rows", None)
    if rows is None or not plan.gate.allowed or plan.request.extra:
        return [roll_pool(plan, rng) for _ in range(count)]
    return [RolledPool(plan, dice, (), sum(dice)) for dice in rows(count, plan.size.size, 4)]
