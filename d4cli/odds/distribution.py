"""Probability distributions of roll totals, exact or fixed-point (R7, L4).

Pure. A `Distribution` holds the weight of every possible total; `d4cli.odds.dice_sums`
builds them for sums of dice and `d4cli.odds.roll_odds` reads them for ``--odds``. See
`d4cli.odds.dice_sums` for the two paths (exact and fixed-point) and their error bounds.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

# Fixed-point path: probabilities are whole multiples of 2**-FIXED_BITS (the denominator).
FIXED_BITS = 110


# The smallest positive float and the largest float below 1: what a probability that is
# not exactly 0 or 1 shows when it rounds to the edge.
_TINY = 5e-324
_BELOW_ONE = 1.0 - 2.0**-53


def edge_safe(value: float, exactly_zero: bool, exactly_one: bool) -> float:
    """*value*, a probability as a float, never 0.0 or 1.0 unless exactly so.

    A probability within 2**-54 of 1 rounds to 1.0 as a float (30d4 against DC
    31 fails with chance 4**-27): it is given as the largest float below 1;
    one below the smallest float (600d4 against DC 2,400) as the smallest
    positive float.
    """
    if exactly_one:
        return 1.0
    if exactly_zero:
        return 0.0
    return min(max(value, _TINY), _BELOW_ONE)


def fraction_text(value: Fraction | None) -> str | None:
    """An exact probability as JSON text, ``"667/1024"`` (``"1/1"``, ``"0/1"``); None stays None."""
    if value is None:
        return None
    # 10,000 d4 have 4**10,000 outcomes, 6,021 digits: past Python's default limit of 4,300.
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return f"{value.numerator}/{value.denominator}"
    finally:
        sys.set_int_max_str_digits(limit)


# ---------------------------------------------------------------------------
# Distributions


@dataclass(frozen=True)
class Distribution:
    """The probability of every possible total from `low` to `high`.

    ``P(low + i) = weights[i] / denominator``: exactly on the exact path, to
    within 1e-22 on the fixed-point path (module docstring).

    Attributes:
        low: the smallest possible total.
        probabilities: every ``P(low + i)`` as a correctly rounded float.
        mean_exact: the exact mean of the total.
        weights: integer weights, one per possible total.
        denominator: the number of equally likely outcomes (exact path), or
            ``2**FIXED_BITS`` (fixed-point path).
        exact: whether the weights are exact counts, so ``sum(weights) == denominator``.
    """

    low: int
    probabilities: tuple[float, ...]
    mean_exact: Fraction
    weights: tuple[int, ...] = field(repr=False)
    denominator: int
    exact: bool

    @property
    def high(self) -> int:
        """The largest possible total."""
        return self.low + len(self.probabilities) - 1

    @property
    def mean(self) -> float:
        return float(self.mean_exact)

    def __len__(self) -> int:
        return len(self.probabilities)

    def items(self) -> Iterator[tuple[int, float]]:
        """``(total, probability)`` for every possible total, lowest first."""
        return zip(range(self.low, self.high + 1), self.probabilities)

    def probability(self, total: int) -> float:
        """``P(total)``; 0.0 outside `low`..`high`."""
        index = total - self.low
        return self.probabilities[index] if 0 <= index < len(self.probabilities) else 0.0

    def fraction(self, total: int) -> Fraction | None:
        """The exact ``P(total)``, or None on the fixed-point path."""
        if not self.exact:
            return None
        index = total - self.low
        weight = self.weights[index] if 0 <= index < len(self.weights) else 0
        return Fraction(weight, self.denominator)

    def p_at_least(self, threshold: int) -> float:
        """``P(total >= threshold)``: the chance of success against a DC (R7, C2).

        1.0 or 0.0 only when exactly so (`edge_safe`): a threshold at or below
        every total, or above every total (or, exact path, no way to reach it).
        """
        index = min(max(0, threshold - self.low), len(self.weights))
        ways = self._suffix[index]
        if self.exact:
            return edge_safe(ways / self.denominator, ways == 0, ways == self.denominator)
        return edge_safe(ways / self.denominator, index == len(self.weights), index == 0)

    def exact_at_least(self, threshold: int) -> Fraction | None:
        """The exact ``P(total >= threshold)``, or None when it cannot be had.

        The exact path divides its counts (`fraction_at_least`); a fixed-point
        distribution knows no more than its rounded weights: None. The
        distribution of a sum of dice answers on both paths
        (`d4cli.odds.dice_sums.DiceSumDistribution`).
        """
        return self.fraction_at_least(threshold)

    def fraction_at_least(self, threshold: int) -> Fraction | None:
        """The exact ``P(total >= threshold)``, or None on the fixed-point path."""
        if not self.exact:
            return None
        index = min(max(0, threshold - self.low), len(self.weights))
        return Fraction(self._suffix[index], self.denominator)

    def expected_excess(self, threshold: int) -> float:
        """``E[max(0, total - threshold)]``: the expected damage against an Evasion (R7).

        0.0 only when exactly 0 (*threshold* at or above every total).
        """
        value = float(self._excess(threshold))
        return value if threshold >= self.high else max(value, _TINY)

    def fraction_expected_excess(self, threshold: int) -> Fraction | None:
        """The exact ``E[max(0, total - threshold)]``, or None on the fixed-point path."""
        return self._excess(threshold) if self.exact else None

    def _excess(self, threshold: int) -> Fraction:
        if threshold < self.low:
            return self.mean_exact - threshold
        start = threshold + 1 - self.low
        # sum over totals t > threshold of (t - threshold) * w(t), as tail sums.
        suffix = self._suffix
        ways = sum(suffix[start : len(self.weights)])
        return Fraction(ways, self.denominator)

    @cached_property
    def _suffix(self) -> list[int]:
        # suffix[i] = sum(weights[i:]), with a 0 at the end.
        weights = self.weights
        suffix = [0] * (len(weights) + 1)
        running = 0
        for index in range(len(weights) - 1, -1, -1):
            running += weights[index]
            suffix[index] = running
        return suffix
