"""P(success) and expected damage of pools of growing size, one d4 at a time (R5-R7, L2, L4).

Pure. The grids of ``d4cli odds`` (`d4cli.odds.grids`) read every row of pools from
`pool_values`: small grids from each pool's own distribution, larger ones along
one chain of pool sizes (`_PoolChain`); `grid_work` bounds the work before any
is done.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from d4cli.odds.dice_sums import check_odds_size, dice_sum
from d4cli.odds.distribution import FIXED_BITS, Distribution, edge_safe
from d4cli.odds.roll_odds import pool_distribution
from d4cli.rules.dice import ExtraDice
from d4cli.rules.errors import InputError

# At most this much work in one grid of pools (`grid_work`): one unit is one possible total
# carried one d4 further along the chain of pool sizes, or one possible total of a
# distribution computed from scratch. The largest grid inside it answers within seconds
# (benchmarks/run.py times it): 10,000 one-column rows of 1..10,000 d4 are 150 million.
MAX_GRID_WORK = 200_000_000
# The chain's fixed-point slots (`_PoolChain`): 2**-FIXED_BITS units with room for sums.
_SLOT_BITS = 160
_SLOT_BYTES = _SLOT_BITS // 8
# A grid whose pools have at most this many possible totals in all reads each pool's own
# distribution (exact where the pool is small); a larger one runs the chain.
_DIRECT_TOTALS = 20_000


def grid_work(pool_sizes: Sequence[int], extra: Sequence[ExtraDice]) -> int:
    """The work of a grid whose rows are pools of *pool_sizes* d4 plus *extra* (see `MAX_GRID_WORK`).

    The rows are computed along one chain (`_PoolChain`): the smallest pool from
    scratch, then one d4 at a time, each step touching every possible total.
    """
    sizes = sorted(set(pool_sizes))
    if not sizes:
        return 0
    spread = sum(item.count * (item.sides - 1) for item in extra) + 1
    first, last = sizes[0], sizes[-1]
    steps = last - first
    # sum over n = first+1..last of the totals of n d4 (3n + spread)
    chain = 3 * (last * (last + 1) - first * (first + 1)) // 2 + spread * steps
    return 3 * first + spread + chain


def check_grid_work(pool_sizes: Sequence[int], extra: Sequence[ExtraDice]) -> int:
    """Refuse at once a grid of pools whose work (`grid_work`) passes `MAX_GRID_WORK`.

    Raises:
        InputError: naming the pools asked for, the work and the bound.
    """
    work = grid_work(pool_sizes, extra)
    if work > MAX_GRID_WORK:
        sizes = sorted(set(pool_sizes))
        raise InputError(
            "aspects/pool_sizes",
            f"{len(sizes):,} pools of {sizes[0]:,}..{sizes[-1]:,}d4",
            f"about {work:,} units of work; a grid does at most {MAX_GRID_WORK:,} "
            "(fewer or smaller pools)",
        )
    return work


class _PoolChain:
    """P(total >= t) and E[max(0, total - e)] of pools of growing size, one d4 at a time.

    Each pool's values are the suffix sums ``S[k] = P(total >= k)`` (for DCs)
    and their own suffix sums ``SS[k] = E[max(0, total - k + 1)]`` (for
    Evasions), held as fixed-point slots of one big integer (units of
    ``2**-FIXED_BITS``). One more d4 maps both the same way (the sum of four
    shifted copies, divided by 4), with the values below the lowest total
    (``S = 1``, ``SS`` growing by 1 a step) added at the first slots: a handful
    of big-integer operations per d4 instead of a distribution from scratch.
    Each step floors once (error below ``2**-FIXED_BITS`` per slot), so after
    10,000 d4 a value is off by less than 1e-26.

    A slot of total ``t`` one d4 on is made from the slots of ``t-1..t-4`` alone (and
    a slot floors on its own: the mask drops what the shift brings down from the one
    above), so the slots above the highest total any column reads (*top*) are cut
    off at each step: the same values for the slots kept, in time that follows the
    columns asked for, not the pool (``--pool 1..10000 --dc 5`` keeps none after 5 d4).
    """

    def __init__(self, distribution: Distribution, damage: bool, top: int | None = None) -> None:
        one = 1 << FIXED_BITS
        self.one = one
        self.low = distribution.low
        self.high = distribution.high
        self._mean = distribution.mean_exact
        self.steps = 0  # d4s added: the mean grows by 5/2 each (kept whole: a Fraction sum per d4 cost a tenth)
        self.damage = damage
        running = 0
        suffix = []
        for weight in reversed(distribution.weights):
            running += weight
            suffix.append(running)
        suffix.reverse()
        scale = distribution.denominator
        values = [(value * one) // scale for value in suffix]
        values[0] = one
        if damage:
            running = 0
            ss = []
            for value in reversed(values):
                running += value
                ss.append(running)
            ss.reverse()
            values = ss
        self.slots = len(values)
        # The highest total whose slot a column reads (`values`): slots above it are never needed.
        self.top = None if top is None else top + 1 if damage else top
        self.packed = int.from_bytes(
            b"".join(v.to_bytes(_SLOT_BYTES, "little") for v in values), "little"
        )
        self.kept = self.slots
        self._cut()
        self.mask = self._mask(self.kept + 3)

    def _cut(self) -> None:
        """Drop the slots above `top` (the totals no column reads, now or after more d4s)."""
        if self.top is None:
            return
        keep = max(0, min(self.slots, self.top - self.low + 1))
        if keep < self.kept:
            self.packed &= (1 << (_SLOT_BITS * keep)) - 1
        self.kept = keep

    @staticmethod
    def _mask(slots: int) -> int:
        unit = (1 << (_SLOT_BITS - 2)) - 1
        mask, count = unit, 1
        while count < slots:
            mask |= mask << (_SLOT_BITS * count)
            count *= 2
        return mask

    def add_d4(self) -> None:
        s = _SLOT_BITS
        packed = self.packed
        one = self.one
        if self.damage:
            first = packed & ((1 << s) - 1)
            corr = (3 * first + 6 * one) + ((2 * first + 3 * one) << s) + ((first + one) << (2 * s))
        else:
            corr = 3 * one + ((2 * one) << s) + (one << (2 * s))
        self.low += 1
        self.high += 4
        self.steps += 1
        self.slots += 3
        if self.kept == 0 and self.top is not None:
            return  # no column reads a slot any more (the totals only grow)
        total = packed + (packed << s) + (packed << (2 * s)) + (packed << (3 * s)) + corr
        self.kept = self.slots if self.top is None else self.kept + 3
        if self.kept > (self.mask.bit_length() + 2) // s:
            self.mask = self._mask(2 * self.kept)
        self.packed = (total >> 2) & self.mask
        self._cut()

    @property
    def mean(self) -> Fraction:
        """The pool's mean total, exact."""
        return self._mean + Fraction(5 * self.steps, 2)  # a d4's mean is 5/2

    def values(self, columns: Sequence[int]) -> tuple[float, ...]:
        data = b""

        def slot(index: int) -> int:
            nonlocal data
            if not data:  # only when some column falls inside the possible totals
                data = self.packed.to_bytes(self.kept * _SLOT_BYTES, "little")
            return int.from_bytes(data[index * _SLOT_BYTES : (index + 1) * _SLOT_BYTES], "little")

        out = []
        for column in columns:
            if self.damage:
                if column >= self.high:
                    out.append(0.0)
                elif column < self.low:
                    out.append(float(self.mean - column))
                else:
                    out.append(max(slot(column + 1 - self.low) / self.one, 5e-324))
            elif column <= self.low:
                out.append(1.0)
            elif column > self.high:
                out.append(0.0)
            else:
                out.append(edge_safe(slot(column - self.low) / self.one, False, False))
        return tuple(out)


def pool_values(
    pool_sizes: Sequence[int], extra: Sequence[ExtraDice], columns: Sequence[int], *, damage: bool
) -> dict[int, tuple[float, ...]]:
    """P(success) (or, with *damage*, expected damage) of each pool size against each column.

    Small grids read each pool's own distribution; larger ones run one
    `_PoolChain` from the smallest pool up (`grid_work` bounds both).

    Raises:
        InputError: a pool below 1d4 (R5), over 10,000 dice (L2) or 100,000
            totals (L4), or a grid past `MAX_GRID_WORK`.
    """
    extra = tuple(extra)
    sizes = sorted(set(pool_sizes))
    extra_count = sum(item.count for item in extra)
    for size in (sizes[0], sizes[-1]) if sizes else ():
        if size < 1:
            raise InputError("pool size", size, "a pool has at least 1d4 (R5)")
        check_odds_size(size, extra_count, dice_sum(size, extra).totals, "extra")
    check_grid_work(sizes, extra)
    spread = sum(item.count * (item.sides - 1) for item in extra) + 1
    if len(sizes) == 1 or sum(3 * size + spread for size in sizes) <= _DIRECT_TOTALS:
        value = Distribution.expected_excess if damage else Distribution.p_at_least
        return {
            size: tuple(
                value(pool_distribution(size, extra, field="extra"), column) for column in columns
            )
            for size in sizes
        }
    top = max(columns, default=None)
    chain = _PoolChain(pool_distribution(sizes[0], extra, field="extra"), damage, top)
    out: dict[int, tuple[float, ...]] = {}
    current = sizes[0]
    for size in sizes:
        while current < size:
            chain.add_d4()
            current += 1
        out[size] = chain.values(columns)
    return out
