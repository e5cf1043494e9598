"""Exact odds of a D4 pool roll and of a d20 Action Roll (R5-R7, C1-C7, L4).

Pure: no printing, no Rich, no files. `pool_odds` and `check_odds` answer the
``--odds`` flag; `odds_json` gives the contract's ``odds`` object
(docs/cli.md); the plain-number functions (`p_pool_success`,
`expected_pool_damage`, `p_check_success`) feed the grids of ``d4cli odds``
(`d4cli.grids`).

Method, pool (R5-R7)
--------------------
A pool total is a sum of uniform dice, the pool's d4s (R5) and the extra dice
(R6), plus a constant (one per die, as dice count from 1, and the extra dice's
modifiers). Dice are grouped by their number of faces: the pool's d4s and a
dagger's 1d4 are one group.

The ways ``g[s]`` for ``m`` dice of ``X`` faces, each read 0..X-1, to sum to
``s`` are the coefficients of ``G(x) = ((1 - x**X) / (1 - x))**m``. From
``(1 - x)(1 - x**X) G' = m (1 - X x**(X-1) + (X-1) x**X) G`` follows a
recurrence with three terms::

    (s+1) g[s+1] = (s+m) g[s] + (s-X+1-mX) g[s-X+1] + (m(X-1)-s+X) g[s-X]

run in exact integers from ``g[0] = 1`` up to the middle (``g`` is symmetric):
O(m(X-1)) big-integer steps, about 0.13 s for 10,000 d4.

*Exact path* (at most `EXACT_BITS` bits of counts): the groups' counts are
convolved as integers; every probability is ``count / outcomes`` with
``outcomes`` the product of the ``X**m``, a Fraction, and the counts sum to
exactly ``outcomes``. This covers every roll up to about 2,300 d4.

*Fixed-point path* (larger rolls, up to L4's 100,000 totals): each group's
exact counts are rounded to whole multiples of ``2**-110`` (error at most
``2**-111`` each) and the ends below ``2**-100`` are dropped (at most 100,000
entries, so less than 1e-25 of mass per group). The groups are convolved
exactly as integers (Kronecker substitution: one big-integer product), then
rounded back to ``2**-110`` and trimmed the same way. Convolving with a
probability vector never enlarges an error in the sum of absolute values, and
L4 allows at most 447 groups (``sum m(X-1) <= 99,999`` over distinct X), so
the weights are off by less than 1e-22 in all (sum of absolute errors). Every
probability and tail sum (P(success)) is summed from them in exact integers
and converted to a float once, correctly rounded: within 2e-16 of the exact
value, far below the 1e-12 of docs/cli.md. A damage expectation weighs each
error by at most 100,000 (the widest excess), so it is off by less than 1e-17.
Measured against the exact path the probabilities agree to about 1e-30 (tests
compare both paths). The mean is exact on both paths.

A roll with more than `MAX_TOTALS` possible totals has no odds (L4).

Measured (cold, one core of a shared 2-core VM, Python 3.11; see
benchmarks/odds.py, which also times icepool on the same questions): 5d4
0.1 ms, 30d4+1d8 0.25 ms, 1,000d4 13 ms, 9,999d4+1d8 (the 10,000 dice of L2)
0.15-0.25 s; the slowest rolls L4 admits, such as 1d4+9,999d10 (89,995 totals),
about 1 s (big-integer steps on 33,000-bit counts).

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
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
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
from d4cli.errors import InputError, RefusedError
from d4cli.limits import MAX_TOTALS, check_dice
from d4cli.pool import PoolPlan

# Exact path while (possible totals) x (bits of the number of outcomes) stays below this.
EXACT_BITS = 2**25
# Fixed-point path: probabilities are whole multiples of 2**-FIXED_BITS ...
FIXED_BITS = 110
# ... and ends below 2**-TRIM_BITS are dropped.
TRIM_BITS = 100
_FIXED_ONE = 1 << FIXED_BITS
_TRIM_FLOOR = 1 << (FIXED_BITS - TRIM_BITS)
# An output of a fixed-point convolution stays below 2**(2 * FIXED_BITS + 1).
_FIXED_SLOT_BITS = 2 * FIXED_BITS + 8


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
    import sys

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
        spec: the dice, when this is the distribution of a `DiceSum` (for exact
            tails on the fixed-point path, `exact_at_least`).
    """

    low: int
    probabilities: tuple[float, ...]
    mean_exact: Fraction
    weights: tuple[int, ...] = field(repr=False)
    denominator: int
    exact: bool
    spec: DiceSum | None = field(default=None, repr=False, compare=False)

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
        """The exact ``P(total >= threshold)`` on either path, or None when too costly.

        The exact path divides its counts. On the fixed-point path the widest
        group of dice is summed in exact integers by its recurrence (streamed,
        nothing stored but the needed sums) against the exact counts of the
        other dice; None when those other dice are themselves beyond the exact
        path (`EXACT_BITS`), such as 5,000d4 + 5,000d6.
        """
        if self.exact:
            return self.fraction_at_least(threshold)
        if self.spec is None:
            return None
        return exact_tail(self.spec, threshold)

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


def _recurrence(m: int, x: int) -> Iterator[int]:
    """Yield ``g[0..D//2]``, the ways for *m* dice of *x* faces (read 0..x-1) to sum to s.

    The three-term recurrence of the module docstring, in exact integers,
    keeping only the last ``x + 1`` values. Needs ``m >= 1`` and ``x >= 2``.
    """
    top = m * (x - 1)
    ring = [0] * (x + 1)  # g[s] lives at ring[s % (x + 1)]
    ring[0] = 1
    size = x + 1
    mx = m * x
    upper = m * (x - 1) + x
    current = 1
    yield current
    for s in range(top // 2):
        value = (s + m) * current
        back = s - x + 1
        if back >= 0:
            value += (back - mx) * ring[back % size]
            if back >= 1:
                value += (upper - s) * ring[(back - 1) % size]
        current = value // (s + 1)
        ring[(s + 1) % size] = current
        yield current


def uniform_counts(m: int, x: int) -> tuple[int, ...]:
    """The ways for *m* dice of *x* faces, each read 0..x-1, to give each sum.

    Args:
        m: how many dice (>= 0).
        x: faces of each (>= 1).

    Returns:
        ``g[0..m*(x-1)]``; ``sum(g) == x**m`` and ``g[s] == g[m*(x-1) - s]``.
    """
    if m == 0 or x == 1:
        return (1,)
    half = list(_recurrence(m, x))
    top = m * (x - 1)
    return tuple(half + [half[top - s] for s in range(len(half), top + 1)])


def exact_tail(spec: DiceSum, threshold: int) -> Fraction | None:
    """The exact ``P(total >= threshold)`` of *spec* whatever its size, or None when too costly.

    ``P(A + B >= t) = sum_b P(B = b) P(A >= t - b)`` with ``A`` the widest group
    of dice and ``B`` the others. ``P(A >= k)`` is a sum of ``A``'s counts,
    which are symmetric, so each is a prefix sum of the first half: one pass of
    the recurrence (`_recurrence`) yields every one needed. ``B`` is convolved
    exactly; beyond the exact path (`EXACT_BITS`) the answer is None.
    """
    t = threshold - spec.shift
    top = spec.totals - 1
    if t <= 0:
        return Fraction(1)
    if t > top:
        return Fraction(0)
    groups = sorted(spec.groups, key=lambda group: group[1] * (group[0] - 1))
    faces, count = groups[-1]
    rest = DiceSum(tuple(groups[:-1]), 0)
    if rest.totals * rest.outcome_bits > EXACT_BITS:
        return None
    if rest.groups:
        rest_distribution = sum_distribution(rest, exact=True)
        rest_counts, rest_outcomes = rest_distribution.weights, rest_distribution.denominator
    else:
        rest_counts, rest_outcomes = (1,), 1
    big_top = count * (faces - 1)
    big_outcomes = faces**count
    # P(A >= k) * big_outcomes for k = t - b: sum of g[k..big_top] = prefix(big_top - k) by symmetry.
    wanted: dict[int, int] = {}
    for b in range(len(rest_counts)):
        k = t - b
        if k <= 0:
            wanted[k] = big_outcomes
        elif k > big_top:
            wanted[k] = 0
        else:
            wanted[k] = -1
    # Each open k: prefix(j) with j = big_top - k; prefix(j) = outcomes - prefix(big_top - j - 1) when j > half.
    half = big_top // 2
    needs: dict[int, int] = {}
    for k, value in wanted.items():
        if value < 0:
            j = big_top - k
            needs[j if j <= half else big_top - j - 1] = 0
    if needs:
        last = max(needs)
        running = 0
        for s, ways in enumerate(_recurrence(count, faces) if faces > 1 else iter((1,))):
            if s > last:
                break
            running += ways
            if s in needs:
                needs[s] = running
        needs[-1] = 0
    for k, value in wanted.items():
        if value < 0:
            j = big_top - k
            wanted[k] = needs[j] if j <= half else big_outcomes - needs[big_top - j - 1]
    numerator = sum(ways * wanted[t - b] for b, ways in enumerate(rest_counts) if ways)
    return Fraction(numerator, big_outcomes * rest_outcomes)


def _fixed_group(m: int, x: int) -> tuple[int, list[int]]:
    """The probabilities of *m* d*x* (read from 0) in units of ``2**-FIXED_BITS``, ends trimmed.

    Only the kept counts are ever stored; the exact division rounds to nearest.

    Returns:
        ``(offset, weights)``: the first kept sum and the kept weights.
    """
    if m == 0 or x == 1:
        return 0, [_FIXED_ONE]
    outcomes = x**m
    # weight >= _TRIM_FLOOR  <=>  count * 2**FIXED_BITS >= (_TRIM_FLOOR - 1/2) * outcomes
    floor = -((-(2 * _TRIM_FLOOR - 1) * outcomes) >> (FIXED_BITS + 1))
    kept: list[int] = []
    first = 0
    for s, count in enumerate(_recurrence(m, x)):
        if not kept and count < floor:
            continue
        if not kept:
            first = s
        kept.append(((count << (FIXED_BITS + 1)) + outcomes) // (2 * outcomes))
    top = m * (x - 1)
    last = top - first
    middle = first + len(kept) - 1  # == top // 2
    kept.extend(kept[top - s - first] for s in range(middle + 1, last + 1))
    return first, kept


def kronecker(a: Sequence[int], b: Sequence[int], slot_bits: int) -> list[int]:
    """The exact convolution of two sequences of non-negative integers, by one big product.

    Each sequence is packed into one integer, ``slot_bits`` per element; the
    product's slots are the convolution's terms (Kronecker substitution).

    Args:
        a, b: non-negative integers.
        slot_bits: every element of *a* and *b* and every term of the
            convolution is below ``2**slot_bits``.

    Returns:
        ``c[t] = sum(a[j] * b[t - j])`` for t in 0..len(a)+len(b)-2.
    """
    size = (slot_bits + 7) // 8
    packed_a = int.from_bytes(b"".join(v.to_bytes(size, "little") for v in a), "little")
    packed_b = int.from_bytes(b"".join(v.to_bytes(size, "little") for v in b), "little")
    count = len(a) + len(b) - 1
    raw = (packed_a * packed_b).to_bytes(count * size, "little")
    return [int.from_bytes(raw[i : i + size], "little") for i in range(0, count * size, size)]


@dataclass(frozen=True)
class DiceSum:
    """A sum of uniform dice plus a constant (R5-R7): what a pool total is made of.

    Attributes:
        groups: ``(faces, count)`` pairs, faces ascending, each faces once, faces >= 2.
        shift: the constant: one per die (dice count from 1) and the extra
            dice's modifiers.
    """

    groups: tuple[tuple[int, int], ...]
    shift: int

    @property
    def totals(self) -> int:
        """How many totals are possible (L4): ``sum(m * (X - 1)) + 1``."""
        return sum(count * (faces - 1) for faces, count in self.groups) + 1

    @property
    def mean(self) -> Fraction:
        """The exact mean: each die's is ``(X - 1) / 2`` above the shift."""
        return self.shift + sum(
            (Fraction(count * (faces - 1), 2) for faces, count in self.groups), Fraction(0)
        )

    @property
    def outcome_bits(self) -> int:
        """Bits of the number of equally likely outcomes, ``prod(X**m)``."""
        return sum(math.ceil(count * math.log2(faces)) for faces, count in self.groups) + 1


def dice_sum(pool_size: int, extra: Iterable[ExtraDice] = ()) -> DiceSum:
    """What a total of *pool_size* d4s and *extra* dice is made of (R5, R6, R7).

    Args:
        pool_size: the pool's d4s (R5).
        extra: extra dice, with their modifiers (R6).

    Returns:
        The `DiceSum`, dice grouped by faces.
    """
    faces: Counter[int] = Counter()
    faces[4] += pool_size
    shift = 0
    for item in extra:
        faces[item.sides] += item.count
        shift += item.modifier
    shift += sum(faces.values())  # every die counts from 1
    faces.pop(1, None)  # a d1 is the constant 1, already in the shift
    groups = tuple(sorted((x, m) for x, m in faces.items() if m > 0))
    return DiceSum(groups, shift)


def check_odds_size(pool_size: int, extra_dice: int, totals: int, field: str = "--odds") -> None:
    """Refuse a roll too large for odds (L2, L4).

    Args:
        pool_size / extra_dice: the roll's d4s and extra dice (L2, `limits.check_dice`).
        totals: possible totals of the roll.
        field: the option to name in the message.

    Raises:
        InputError: more than 10,000 dice (L2) or more than 100,000 possible totals (L4).
    """
    check_dice(pool_size, extra_dice)
    if totals > MAX_TOTALS:
        raise InputError(
            field,
            totals,
            f"possible totals, more than the {MAX_TOTALS:,} for which exact odds are offered (L4)",
        )


def sum_distribution(spec: DiceSum, *, exact: bool | None = None) -> Distribution:
    """The distribution of a sum of dice (R7), exact or fixed-point (module docstring).

    Args:
        spec: the dice and the constant.
        exact: force the exact (True) or fixed-point (False) path; None
            chooses by size (`EXACT_BITS`).

    Returns:
        The `Distribution` of the total.

    Raises:
        InputError: more than 100,000 possible totals (L4).
    """
    totals = spec.totals
    check_odds_size(0, 0, totals)
    if exact is None:
        exact = totals * spec.outcome_bits <= EXACT_BITS
    narrow_first = sorted(spec.groups, key=lambda group: group[1] * (group[0] - 1))
    if exact:
        counts: list[int] = [1]
        outcomes = 1
        for faces, count in narrow_first:
            group = uniform_counts(count, faces)
            group_outcomes = faces**count
            counts = kronecker(counts, group, (outcomes * group_outcomes).bit_length())
            outcomes *= group_outcomes
        probabilities = tuple(c / outcomes for c in counts)
        return Distribution(spec.shift, probabilities, spec.mean, tuple(counts), outcomes, True, spec)
    start, window = 0, [_FIXED_ONE]
    for faces, count in narrow_first:
        offset, part = _fixed_group(count, faces)
        product = kronecker(window, part, _FIXED_SLOT_BITS)
        half = 1 << (FIXED_BITS - 1)
        window = [(v + half) >> FIXED_BITS for v in product]
        start, window = _trim(start + offset, window)
    weights = (0,) * start + tuple(window) + (0,) * (totals - start - len(window))
    probabilities = tuple(w / _FIXED_ONE if w else 0.0 for w in weights)
    return Distribution(spec.shift, probabilities, spec.mean, weights, _FIXED_ONE, False, spec)


def _trim(start: int, window: list[int]) -> tuple[int, list[int]]:
    """Drop fixed-point weights below ``2**-TRIM_BITS`` from both ends of a window."""
    lo, hi = 0, len(window)
    while hi - lo > 1 and window[lo] < _TRIM_FLOOR:
        lo += 1
    while hi - lo > 1 and window[hi - 1] < _TRIM_FLOOR:
        hi -= 1
    return start + lo, window[lo:hi]


# ---------------------------------------------------------------------------
# Pool odds


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
