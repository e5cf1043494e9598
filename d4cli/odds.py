"""Exact odds of a D4 pool roll and of a d20 Action Roll (R5-R7, C1-C7, L4).

Pure: no printing, no Rich, no files. `pool_odds` and `check_odds` answer the
``--odds`` flag; `odds_json` gives the contract's ``odds`` object
(docs/cli.md); the plain-number functions (`p_pool_success`,
`expected_pool_damage`, `p_check_success`) feed the grids of ``d4cli odds``
(`d4cli.grids`). The distributions of pool totals come from `d4cli.dice_sums`
(its docstring gives the method and the error bounds).

Method, check (C1-C7)
---------------------
Always exact and small: the Advantage bonus over the multisets of L d6 (C3,
via `check.advantage_bonus`), minus the Disadvantage d6 when it applies (C4,
via `check.apply_disadvantage`), and per natural d20 the critical d6 on a 20
(C5); each (natural, total) pair is graded with `check.grade` (C6, C7).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import field
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import combinations_with_replacement

from d4cli.check import (
    FAILURE_BUT,
    SUCCESS,
    SUCCESS_AND,
    CheckRequest,
    Levels,
    advantage_bonus,
    apply_disadvantage,
    grade,
)
from d4cli.dice import ExtraDice
from d4cli.dice_sums import DiceSum, check_odds_size, dice_sum, sum_distribution
from d4cli.distribution import Distribution, fraction_text
from d4cli.errors import InputError, RefusedError
from d4cli.lazy_dataclass import frozen_dataclass
from d4cli.pool import PoolPlan

# ---------------------------------------------------------------------------
# Pool odds


@frozen_dataclass
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
        plan: from `d4cli.pool.plan_pool`.

    Returns:
        The `PoolOdds`, with the request's DC or Evasion.

    Raises:
        InputError: more than 100,000 possible totals (L4), field ``--odds``.
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
    pool_size: int, extra: Iterable[ExtraDice] = (), *, field: str = "--odds"
) -> Distribution:
    """The distribution of *pool_size* d4s plus *extra* dice (R5-R7); cached.

    Args:
        pool_size: the pool's d4s (R5), at least 1.
        extra: extra dice with their modifiers (R6); their order does not matter.
        field: the option to name when the roll is too large (L4).

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


# ---------------------------------------------------------------------------
# Check odds


@frozen_dataclass
class CheckOdds:
    """The exact odds of a d20 Action Roll (C1-C7).

    Attributes:
        request: the check.
        levels: Advantage after Disadvantage (C4).
        distribution: the distribution of the Result (C1), exact.
        success: P(success), natural 1s excluded (C6); None without a DC.
        success_and / failure_but: the Rule of Three grades (C7); None
            without a DC or without the Rule of Three.
        critical_success / critical_failure: P(natural 20), P(natural 1) (C5, C6).
    """

    request: CheckRequest
    levels: Levels
    distribution: Distribution
    success: Fraction | None
    success_and: Fraction | None
    failure_but: Fraction | None
    critical_success: Fraction = Fraction(1, 20)
    critical_failure: Fraction = Fraction(1, 20)
    # Ways to reach each total (aligned with the distribution) without a natural 1 (C6).
    counts_not_natural_one: tuple[int, ...] = field(default=(), repr=False)

    def fraction_success_at(self, dc: int) -> Fraction:
        """The exact P(success) against any *dc*: ``total >= dc`` and not a natural 1 (C2, C6)."""
        distribution = self.distribution
        index = min(max(0, dc - distribution.low), len(distribution))
        return Fraction(self._suffix[index], distribution.denominator)

    def p_success_at(self, dc: int) -> float:
        """`fraction_success_at` as a float (correctly rounded)."""
        return float(self.fraction_success_at(dc))

    @cached_property
    def _suffix(self) -> list[int]:
        suffix = [0] * (len(self.counts_not_natural_one) + 1)
        running = 0
        for index in range(len(self.counts_not_natural_one) - 1, -1, -1):
            running += self.counts_not_natural_one[index]
            suffix[index] = running
        return suffix

    @property
    def dc(self) -> int | None:
        return self.request.dc

    @property
    def mean(self) -> float:
        return self.distribution.mean

    @property
    def p_success(self) -> float | None:
        return None if self.success is None else float(self.success)

    @property
    def p_success_and(self) -> float | None:
        return None if self.success_and is None else float(self.success_and)

    @property
    def p_failure_but(self) -> float | None:
        return None if self.failure_but is None else float(self.failure_but)

    @property
    def p_critical_success(self) -> float:
        return float(self.critical_success)

    @property
    def p_critical_failure(self) -> float:
        return float(self.critical_failure)


@lru_cache(maxsize=8)
def _advantage_ways(level: int) -> tuple[tuple[int, int], ...]:
    """``(bonus, ways)`` over the 6**level rolls of *level* d6 (C3), via `advantage_bonus`.

    Each multiset of faces is weighted by its number of orderings.
    """
    ways: Counter[int] = Counter()
    for dice in combinations_with_replacement(range(1, 7), level):
        orderings = math.factorial(level)
        for face in set(dice):
            orderings //= math.factorial(dice.count(face))
        ways[advantage_bonus(dice)] += orderings
    return tuple(sorted(ways.items()))


def check_odds(request: CheckRequest) -> CheckOdds:
    """The exact odds of an Action Roll (C1-C7).

    Every outcome of the d20, the Advantage d6s (C3), the Disadvantage d6 (C4)
    and the critical d6 (C5, rolled on a natural 20 only) is weighed; the
    common denominator is ``20 * 6**dice * 6``. Grades come from `check.grade`.

    Args:
        request: the check; its DC and Rule of Three decide which odds exist.

    Returns:
        The `CheckOdds`.

    Raises:
        InputError: an Advantage Level outside 0..5 (C3).
        RefusedError: an impossible check (two or more Disadvantages, C4).
    """
    levels = apply_disadvantage(request.advantage_level, request.disadvantage)
    if levels.impossible:
        raise RefusedError(
            f"impossible (C4): {request.disadvantage} Disadvantages; a check that "
            "cannot be made has no odds"
        )
    other: Counter[int] = Counter()
    for bonus, ways in _advantage_ways(levels.effective_level):
        if levels.subtract_die:
            for die in range(1, 7):
                other[bonus - die] += ways
        else:
            other[bonus] += ways
    other_outcomes = 6 ** (levels.effective_level + (1 if levels.subtract_die else 0))
    outcomes = 20 * other_outcomes * 6
    totals: Counter[int] = Counter()
    not_one: Counter[int] = Counter()
    grades: Counter[str | None] = Counter()
    dc, rule_of_three = request.dc, request.rule_of_three
    for natural in range(1, 21):
        crit = range(1, 7) if natural == 20 else (0,)
        weight = 1 if natural == 20 else 6
        for value, ways in other.items():
            for crit_die in crit:
                total = natural + request.modifiers + value + crit_die
                totals[total] += ways * weight
                if natural != 1:
                    not_one[total] += ways * weight
                grades[grade(natural, total, dc, rule_of_three)] += ways * weight
    low, high = min(totals), max(totals)
    counts = tuple(totals[t] for t in range(low, high + 1))
    mean = Fraction(sum(t * n for t, n in totals.items()), outcomes)
    distribution = Distribution(
        low, tuple(c / outcomes for c in counts), mean, counts, outcomes, True
    )
    success = success_and = failure_but = None
    if dc is not None:
        success = Fraction(grades[SUCCESS] + grades[SUCCESS_AND], outcomes)
        if rule_of_three:
            success_and = Fraction(grades[SUCCESS_AND], outcomes)
            failure_but = Fraction(grades[FAILURE_BUT], outcomes)
    return CheckOdds(
        request,
        levels,
        distribution,
        success,
        success_and,
        failure_but,
        counts_not_natural_one=tuple(not_one[t] for t in range(low, high + 1)),
    )


def p_check_success(
    dc: int, modifiers: int = 0, advantage_level: int = 0, disadvantage: int = 0
) -> float:
    """P(success) of an Action Roll against *dc* (C1-C6); 0.0 when impossible (C4).

    Args:
        dc: the Difficulty Class (C2).
        modifiers: Attribute + Proficiency + Specialization (C1).
        advantage_level: 0..5 (C3).
        disadvantage: the number of Disadvantages (C4).

    Raises:
        InputError: an Advantage Level outside 0..5 (C3).
    """
    if apply_disadvantage(advantage_level, disadvantage).impossible:
        return 0.0
    return _check_without_dc(modifiers, advantage_level, disadvantage).p_success_at(dc)


@lru_cache(maxsize=256)
def _check_without_dc(modifiers: int, advantage_level: int, disadvantage: int) -> CheckOdds:
    return check_odds(
        CheckRequest(
            attribute=modifiers, advantage_level=advantage_level, disadvantage=disadvantage
        )
    )


def clear_caches() -> None:
    """Forget every cached distribution (for benchmarks that time the cold computation)."""
    _cached_distribution.cache_clear()
    _check_without_dc.cache_clear()
    _advantage_ways.cache_clear()


# ---------------------------------------------------------------------------
# JSON


def odds_json(odds: PoolOdds | CheckOdds) -> dict[str, object]:
    """The ``odds`` object of docs/cli.md (floats, exact to 1e-12).

    Keys: ``distribution`` (each total whose probability is not 0.0 as a
    float, as a string, to its probability) and ``distribution_omitted`` (the
    exact probability of the totals left out, a fraction string such as
    ``"0/1"``), ``mean``; with a DC ``p_success``; with an Evasion
    ``expected_damage`` (and ``p_any_damage``); for checks
    ``p_critical_success``, ``p_critical_failure`` and, with the Rule of Three
    and a DC, ``p_success_and`` and ``p_failure_but``. ``exact`` says whether
    the exact path was used (module docstring).

    No float is 0.0 or 1.0 unless the probability is exactly 0 or 1
    (`edge_safe`). Each headline probability also comes exact, as a fraction
    string under the same key plus ``_exact`` (``p_success_exact: "667/1024"``);
    null only for a fixed-point roll whose smaller dice are themselves beyond
    the exact path (`Distribution.exact_at_least`).
    """
    distribution = odds.distribution
    listed, omitted = _listed_totals(distribution)
    obj: dict[str, object] = {
        "distribution": listed,
        "distribution_omitted": fraction_text(omitted),
        "mean": distribution.mean,
        "exact": distribution.exact,
    }
    if isinstance(odds, PoolOdds):
        if odds.dc is not None:
            obj["p_success"] = odds.p_success
            obj["p_success_exact"] = fraction_text(odds.success_exact)
        if odds.evasion is not None:
            obj["expected_damage"] = odds.expected_damage
            obj["p_any_damage"] = odds.p_any_damage
            obj["p_any_damage_exact"] = fraction_text(odds.any_damage_exact)
        return obj
    if odds.success is not None:
        obj["p_success"] = odds.p_success
        obj["p_success_exact"] = fraction_text(odds.success)
    obj["p_critical_success"] = odds.p_critical_success
    obj["p_critical_success_exact"] = fraction_text(odds.critical_success)
    obj["p_critical_failure"] = odds.p_critical_failure
    obj["p_critical_failure_exact"] = fraction_text(odds.critical_failure)
    if odds.success_and is not None:
        obj["p_success_and"] = odds.p_success_and
        obj["p_success_and_exact"] = fraction_text(odds.success_and)
        obj["p_failure_but"] = odds.p_failure_but
        obj["p_failure_but_exact"] = fraction_text(odds.failure_but)
    return obj


def _listed_totals(distribution: Distribution) -> tuple[dict[str, float], Fraction]:
    """The totals whose probability is not 0.0 as a float, and the exact probability of the rest.

    Exact path: the rest is the sum of their counts. Fixed-point path: the rest
    lies in the two tails (sums of dice have no inner gaps), so it is
    ``1 - P(total >= first) + P(total > last)`` (`Distribution.exact_at_least`);
    when that cannot be had exactly, every total is listed and nothing omitted.
    """
    listed = {str(total): p for total, p in distribution.items() if p != 0.0}
    if len(listed) == len(distribution):
        return listed, Fraction(0)
    if distribution.exact:
        rest = sum(w for w, p in zip(distribution.weights, distribution.probabilities) if p == 0.0)
        return listed, Fraction(rest, distribution.denominator)
    totals = [int(total) for total in listed]
    below = distribution.exact_at_least(totals[0])
    above = distribution.exact_at_least(totals[-1] + 1)
    if below is None or above is None:
        return {str(total): p for total, p in distribution.items()}, Fraction(0)
    return listed, 1 - below + above
