"""Sums of uniform dice as exact distributions: the pool's d4s plus extra dice (R5-R7, L2, L4).

Pure. `dice_sum` describes a roll's dice; `sum_distribution` gives its
`DiceSumDistribution` (a `d4cli.odds.distribution.Distribution` that keeps its dice);
`exact_tail` the exact chance of reaching a total.

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
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from d4cli.odds.distribution import FIXED_BITS, Distribution
from d4cli.rules.dice import ExtraDice
from d4cli.rules.errors import InputError
from d4cli.rules.limits import MAX_TOTALS, check_dice

# Exact path while (possible totals) x (bits of the number of outcomes) stays below this.
EXACT_BITS = 2**25
# Fixed-point path: ends below 2**-TRIM_BITS are dropped.
TRIM_BITS = 100
_FIXED_ONE = 1 << FIXED_BITS
_TRIM_FLOOR = 1 << (FIXED_BITS - TRIM_BITS)
# An output of a fixed-point convolution stays below 2**(2 * FIXED_BITS + 1).
_FIXED_SLOT_BITS = 2 * FIXED_BITS + 8


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
    if t <= 0:
        return Fraction(1)
    if t > spec.totals - 1:
        return Fraction(0)
    groups = sorted(spec.groups, key=lambda group: group[1] * (group[0] - 1))
    faces, count = groups[-1]
    rest = DiceSum(tuple(groups[:-1]), 0)
    if rest.totals * rest.outcome_bits > EXACT_BITS:
        return None
    rest_counts, rest_outcomes = _exact_counts(rest)
    tails = _tails(count, faces, [t - b for b in range(len(rest_counts))])
    numerator = sum(ways * tails[t - b] for b, ways in enumerate(rest_counts) if ways)
    return Fraction(numerator, faces**count * rest_outcomes)


def _exact_counts(spec: DiceSum) -> tuple[Sequence[int], int]:
    """The exact counts of every total of *spec* and their number of outcomes (``(1,), 1`` for no dice)."""
    if not spec.groups:
        return (1,), 1
    distribution = sum_distribution(spec, exact=True)
    return distribution.weights, distribution.denominator


def _tails(count: int, faces: int, thresholds: Iterable[int]) -> dict[int, int]:
    """``P(A >= k) * faces**count`` for each k of *thresholds*, ``A`` the sum of *count* d*faces*
    read from 0: a sum of ``A``'s counts ``g[k..top]``, which is ``prefix(top - k)`` by symmetry."""
    top = count * (faces - 1)
    outcomes = faces**count
    tails = {k: outcomes if k <= 0 else 0 if k > top else -1 for k in thresholds}
    # Each open k: prefix(j) with j = top - k; prefix(j) = outcomes - prefix(top - j - 1) when j > half.
    half = top // 2
    needs = {
        (j if j <= half else top - j - 1): 0
        for j in (top - k for k, value in tails.items() if value < 0)
    }
    if needs:
        _prefix_sums(count, faces, needs)
    for k, value in tails.items():
        if value < 0:
            j = top - k
            tails[k] = needs[j] if j <= half else outcomes - needs[top - j - 1]
    return tails


def _prefix_sums(count: int, faces: int, needs: dict[int, int]) -> None:
    """Fill *needs* (keys: sums ``s``) with ``g[0] + ... + g[s]`` of *count* d*faces*, in one pass of
    the recurrence up to the largest; ``needs[-1]`` is 0."""
    last = max(needs)
    running = 0
    for s, ways in enumerate(_recurrence(count, faces) if faces > 1 else iter((1,))):
        if s > last:
            break
        running += ways
        if s in needs:
            needs[s] = running
    needs[-1] = 0


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


@dataclass(frozen=True)
class DiceSumDistribution(Distribution):
    """The `Distribution` of a sum of dice (`sum_distribution`): it keeps its dice, so that
    `exact_at_least` is exact on the fixed-point path too (`exact_tail`).

    Attributes:
        spec: the dice and the constant whose total this is.
    """

    spec: DiceSum = field(repr=False, compare=False)

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
        return exact_tail(self.spec, threshold)


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


def check_odds_size(pool_size: int, extra_dice: int, totals: int, field: str = "odds") -> None:
    """Refuse a roll too large for odds (L2, L4).

    Args:
        pool_size / extra_dice: the roll's d4s and extra dice (L2, `limits.check_dice`).
        totals: possible totals of the roll.
        field: the field to name in the message.

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


def sum_distribution(spec: DiceSum, *, exact: bool | None = None) -> DiceSumDistribution:
    """The distribution of a sum of dice (R7), exact or fixed-point (module docstring).

    Args:
        spec: the dice and the constant.
        exact: force the exact (True) or fixed-point (False) path; None
            chooses by size (`EXACT_BITS`).

    Returns:
        The `DiceSumDistribution` of the total.

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
        return DiceSumDistribution(
            spec.shift, probabilities, spec.mean, tuple(counts), outcomes, True, spec
        )
    start, window = 0, [_FIXED_ONE]
    for faces, count in narrow_first:
        offset, part = _fixed_group(count, faces)
        product = kronecker(window, part, _FIXED_SLOT_BITS)
        half = 1 << (FIXED_BITS - 1)
        window = [(v + half) >> FIXED_BITS for v in product]
        start, window = _trim(start + offset, window)
    weights = (0,) * start + tuple(window) + (0,) * (totals - start - len(window))
    probabilities = tuple(w / _FIXED_ONE if w else 0.0 for w in weights)
    return DiceSumDistribution(
        spec.shift, probabilities, spec.mean, weights, _FIXED_ONE, False, spec
    )


def _trim(start: int, window: list[int]) -> tuple[int, list[int]]:
    """Drop fixed-point weights below ``2**-TRIM_BITS`` from both ends of a window."""
    lo, hi = 0, len(window)
    while hi - lo > 1 and window[lo] < _TRIM_FLOOR:
        lo += 1
    while hi - lo > 1 and window[hi - 1] < _TRIM_FLOOR:
        hi -= 1
    return start + lo, window[lo:hi]
