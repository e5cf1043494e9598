"""Luck: where a logged roll's total falls in its own exact distribution, and what a creature's rolls add up to.

Pure. A roll's **percentile** is its mid-rank in the distribution of the
total it was rolled for: ``P(total < t) + P(total = t) / 2``, exact, as a
fraction 0..1 (a roll that can only come out one way is at 1/2). A pool's
distribution is that of its d4s and extra dice as rolled (R5-R7: the pool
size after Load and Net Advantage, the extra dice with their modifiers); a
check's is the Result's (C1-C5: modifiers, Advantage Level and Disadvantage
after C4/C8, the critical d6 on a natural 20).

A creature's **verdict** compares the mean percentile of its rolls with the
1/2 of fair dice: with ``n`` rolls the mean of fair percentiles has a spread
of about ``sqrt(1/12) / sqrt(n)``; two spreads or more above is "favoured",
two or more below is "against", anything between "even". The spread is that
of a continuous uniform, a little wider than a discrete roll's, so a verdict
is never called on less.

The journal's entries are read elsewhere (`d4cli.api.recap`), which hands each roll's plain
values here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from d4cli.odds.check_odds import check_odds
from d4cli.odds.distribution import Distribution
from d4cli.odds.roll_odds import pool_distribution
from d4cli.rules.action_roll import CheckRequest

# A verdict needs the mean percentile this many spreads away from 1/2.
VERDICT_SPREADS = 2.0
UNIFORM_SPREAD = math.sqrt(1 / 12)


@dataclass(frozen=True)
class RollLuck:
    """One logged roll and its percentile.

    Attributes:
        seq: the journal entry (``log``'s ``#``).
        creature: who rolled.
        kind: ``act`` (a pool roll, R5-R7) or ``check`` (an Action Roll, C1).
        round: the round it was rolled in.
        total: the total rolled.
        percentile: the exact mid-rank percentile, 0..1.
    """

    seq: int
    creature: str
    kind: str
    round: int
    total: int
    percentile: Fraction


@dataclass(frozen=True)
class CreatureLuck:
    """A creature's rolls taken together: how many, their mean percentile 0..1 and the plain verdict.

    ``verdict`` is ``favoured``, ``even`` or ``against`` (module docstring).
    """

    creature: str
    rolls: int
    mean: float
    verdict: str


def mid_rank(distribution: Distribution, total: int) -> Fraction:
    """``P(X < total) + P(X = total) / 2`` of an exact *distribution*.

    Raises:
        ValueError: *distribution* is not exact (fixed-point path), or *total* cannot be rolled.
    """
    if not distribution.exact:
        raise ValueError("an exact distribution is needed for a percentile")
    index = total - distribution.low
    if not 0 <= index < len(distribution.weights) or distribution.weights[index] == 0:
        raise ValueError(f"a total of {total} cannot be rolled")
    below = sum(distribution.weights[:index])
    return Fraction(2 * below + distribution.weights[index], 2 * distribution.denominator)


def pool_percentile(pool_size: int, extra: Iterable[Any], total: int) -> Fraction:
    """The mid-rank percentile of *total* for *pool_size* d4s plus *extra* (`ExtraDice`) dice (R5-R7).

    Raises:
        InputError: a pool too large for exact odds (L2, L4).
        ValueError: *total* cannot be rolled, or the distribution is not exact.
    """
    return mid_rank(pool_distribution(pool_size, tuple(extra)), total)


def check_percentile(
    modifiers: int, advantage_level: int, disadvantage: int, total: int
) -> Fraction:
    """The mid-rank percentile of an Action Roll's Result *total* (C1-C5) at these levels (after C8).

    Raises:
        RefusedError: an impossible check (C4).
        ValueError: *total* cannot be rolled.
    """
    request = CheckRequest(
        attribute=modifiers, advantage_level=advantage_level, disadvantage=disadvantage
    )
    return mid_rank(check_odds(request).distribution, total)


def verdict(mean: float, rolls: int) -> str:
    """``favoured``, ``even`` or ``against``: the mean percentile of *rolls* fair ones against 1/2."""
    if rolls == 0:
        return "even"
    spread = UNIFORM_SPREAD / math.sqrt(rolls)
    if mean - 0.5 >= VERDICT_SPREADS * spread:
        return "favoured"
    if 0.5 - mean >= VERDICT_SPREADS * spread:
        return "against"
    return "even"


def luck_by_creature(rolls: Iterable[RollLuck]) -> list[CreatureLuck]:
    """Each creature's `CreatureLuck`, in order of its first roll."""
    grouped: dict[str, list[Fraction]] = {}
    for roll in rolls:
        grouped.setdefault(roll.creature, []).append(roll.percentile)
    out = []
    for creature, values in grouped.items():
        mean = float(sum(values, Fraction(0)) / len(values))
        out.append(CreatureLuck(creature, len(values), mean, verdict(mean, len(values))))
    return out
