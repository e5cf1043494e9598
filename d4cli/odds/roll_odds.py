"""Exact odds of a D4 pool roll and of a d20 Action Roll (R5-R7, C1-C7, L4).

Pure: no printing, no Rich, no files. `pool_odds` and `check_odds` answer the
``--odds`` flag (their JSON: `d4cli.output.serialize.odds_json`); the plain-number functions (`p_pool_success`,
`expected_pool_damage`, `p_check_success`) feed the grids of ``d4cli odds``
(`d4cli.odds.grids`). The distributions of pool totals come from `d4cli.odds.dice_sums`
(its docstring gives the method and the error bounds).
The check odds (C1-C7, their method) live in `d4cli.odds.check_odds`, re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from d4cli.odds.check_odds import CheckOdds as CheckOdds  # re-exported: the odds of either roll
from d4cli.odds.check_odds import (
    _advantage_ways,
    _check_without_dc,
)
from d4cli.odds.check_odds import (
    check_odds as check_odds,  # re-exported: `d4cli.odds.roll_odds` answers --odds
)
from d4cli.odds.check_odds import p_check_success as p_check_success
from d4cli.odds.dice_sums import DiceSum, check_odds_size, dice_sum, sum_distribution
from d4cli.odds.distribution import Distribution
from d4cli.rules.dice import ExtraDice
from d4cli.rules.errors import InputError
from d4cli.rules.pool import PoolPlan
from d4cli.rules.records import notebook

# ---------------------------------------------------------------------------
# Pool odds


@notebook
@dataclass(frozen=True)
class PoolOdds:
    """The odds of a pool roll (R5-R7, L4).

    Attributes:
        distribution: the distribution of the total (R7).
        pool_size: the pool's d4s (R5).
        extra: the extra dice (R6).
        dc: the Difficulty Class, if any (R7).
        evasion: the target's Evasion, if any (R7).
    """

    distribution: Distribution
    pool_size: int
    extra: tuple[ExtraDice, ...] = ()
    dc: int | None = None
    evasion: int | None = None

    @property
    def mean(self) -> float:
        return self.distribution.mean

    @property
    def p_success(self) -> float | None:
        """``P(total >= dc)`` (R7), None without a DC."""
        return None if self.dc is None else self.distribution.p_at_least(self.dc)

    @property
    def expected_damage(self) -> float | None:
        """``E[max(0, total - evasion)]`` (R7), None without an Evasion."""
        return None if self.evasion is None else self.distribution.expected_excess(self.evasion)

    @property
    def p_any_damage(self) -> float | None:
        """``P(total > evasion)``: the chance of dealing at least 1 damage (R7)."""
        return None if self.evasion is None else self.distribution.p_at_least(self.evasion + 1)

    @property
    def success_fraction(self) -> Fraction | None:
        """The exact P(success), when there is a DC and the exact path was used."""
        return None if self.dc is None else self.distribution.fraction_at_least(self.dc)

    @property
    def success_exact(self) -> Fraction | None:
        """The exact P(success) on either path (`Distribution.exact_at_least`); None without a DC."""
        return None if self.dc is None else self.distribution.exact_at_least(self.dc)

    @property
    def any_damage_exact(self) -> Fraction | None:
        """The exact P(total > evasion) on either path; None without an Evasion."""
        return None if self.evasion is None else self.distribution.exact_at_least(self.evasion + 1)

    @property
    def expected_damage_fraction(self) -> Fraction | None:
        """The exact expected damage, when there is an Evasion and the exact path was used."""
        if self.evasion is None:
            return None
        return self.distribution.fraction_expected_excess(self.evasion)


def pool_odds(plan: PoolPlan) -> PoolOdds:
    """The odds of the pool roll *plan* describes (R5, R6, R7).

    The gate (R2) is not consulted: the caller asks only for allowed rolls.

    Args:
        plan: from `d4cli.rules.pool.plan_pool`.

    Returns:
        The `PoolOdds`, with the request's DC or Evasion.

    Raises:
        InputError: more than 100,000 possible totals (L4), field ``odds``.
    """
    request = plan.request
    pool_size = plan.size.size
    return PoolOdds(
        pool_distribution(pool_size, request.extra),
        pool_size,
        tuple(request.extra),
        request.dc,
        request.evasion,
    )


def pool_distribution(
    pool_size: int, extra: Iterable[ExtraDice] = (), *, field: str = "odds"
) -> Distribution:
    """The distribution of *pool_size* d4s plus *extra* dice (R5-R7); cached.

    Args:
        pool_size: the pool's d4s (R5), at least 1.
        extra: extra dice with their modifiers (R6); their order does not matter.
        field: the field to name when the roll is too large (L4).

    Raises:
        InputError: a pool below 1d4 (R5), over 10,000 dice (L2) or over
            100,000 possible totals (L4).
    """
    extra = tuple(extra)
    if pool_size < 1:
        raise InputError("pool size", pool_size, "a pool has at least 1d4 (R5)")
    spec = dice_sum(pool_size, extra)
    check_odds_size(pool_size, sum(item.count for item in extra), spec.totals, field)
    return _cached_distribution(spec)


def dice_odds(terms: Iterable[ExtraDice], *, field: str = "odds") -> PoolOdds:
    """The odds of a plain dice expression (``roll dice``): the sum of *terms*, no pool (R6, L2, L4).

    Returns:
        A `PoolOdds` with ``pool_size`` 0 and no DC or Evasion.

    Raises:
        InputError: over 10,000 dice (L2) or over 100,000 possible totals (L4), naming *field*.
    """
    terms = tuple(terms)
    spec = dice_sum(0, terms)
    check_odds_size(0, sum(term.count for term in terms), spec.totals, field)
    return PoolOdds(_cached_distribution(spec), 0, terms)


@lru_cache(maxsize=64)
def _cached_distribution(spec: DiceSum) -> Distribution:
    return sum_distribution(spec)


def p_pool_success(pool_size: int, dc: int, extra: Iterable[ExtraDice] = ()) -> float:
    """``P(total >= dc)`` for *pool_size* d4s plus *extra* (R7).

    >>> p_pool_success(5, 12)
    0.6513671875

    Raises:
        InputError: as `pool_distribution`.
    """
    return pool_distribution(pool_size, extra).p_at_least(dc)


def expected_pool_damage(pool_size: int, evasion: int, extra: Iterable[ExtraDice] = ()) -> float:
    """``E[max(0, total - evasion)]`` for *pool_size* d4s plus *extra* (R7).

    >>> expected_pool_damage(1, 2)
    0.75

    Raises:
        InputError: as `pool_distribution`.
    """
    return pool_distribution(pool_size, extra).expected_excess(evasion)


def clear_caches() -> None:
    """Forget every cached distribution (for benchmarks that time the cold computation)."""
    _cached_distribution.cache_clear()
    _check_without_dc.cache_clear()
    _advantage_ways.cache_clear()
