"""Exact odds of a d20 Action Roll (C1-C7): `check_odds`, `p_check_success`.

Pure: no printing, no Rich, no files; `d4cli.odds.roll_odds` re-exports these (their
JSON: `d4cli.output.serialize.odds_json`).

Method (C1-C7)
--------------
Always exact and small: the Advantage bonus over the multisets of L d6 (C3,
via `check.advantage_bonus`), minus the Disadvantage d6 when it applies (C4,
via `check.apply_disadvantage`), and per natural d20 the critical d6 on a 20
(C5); each (natural, total) pair is graded with `check.grade` (C6, C7).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import combinations_with_replacement

from d4cli.odds.distribution import Distribution
from d4cli.rules.action_roll import (
    FAILURE_BUT,
    SUCCESS,
    SUCCESS_AND,
    CheckRequest,
    Levels,
    advantage_bonus,
    apply_disadvantage,
    grade,
)
from d4cli.rules.errors import RefusedError
from d4cli.rules.records import notebook


@notebook
@dataclass(frozen=True)
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


def fraction_check_success(
    dc: int, modifiers: int = 0, advantage_level: int = 0, disadvantage: int = 0
) -> Fraction:
    """The exact P(success) of an Action Roll against *dc* (C1-C6): `p_check_success` as a fraction."""
    if apply_disadvantage(advantage_level, disadvantage).impossible:
        return Fraction(0)
    return _check_without_dc(modifiers, advantage_level, disadvantage).fraction_success_at(dc)
