"""Grids of exact odds for designers (``d4cli odds``): P(success) and expected damage
by pool or Advantage Level against DCs or Evasions, and the two systems side by side.

Pure: builds `Grid` records from the distributions of `d4cli.odds`; rendering
is in `d4cli.render.odds`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from d4cli.check import apply_disadvantage
from d4cli.dice import ExtraDice
from d4cli.errors import InputError
from d4cli.odds import (
    FIXED_BITS,
    Distribution,
    check_odds_size,
    dice_sum,
    edge_safe,
    p_check_success,
    pool_distribution,
)
from d4cli.pool import pool_size as rules_pool_size

P_SUCCESS = "p_success"
EXPECTED_DAMAGE = "expected_damage"
# At most this many cells in one grid (d4cli odds).
MAX_CELLS = 10_000
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

Key = tuple[str, int | str]


@dataclass(frozen=True)
class GridRow:
    """One row of a grid.

    Attributes:
        label: what the row shows, for people (``3 (3d4)``, ``Adv 2``).
        keys: the numbers that define the row (``("aspect", 3), ("pool_size", 3)``).
        values: one value per column of the grid.
    """

    label: str
    keys: tuple[Key, ...]
    values: tuple[float, ...]


@dataclass(frozen=True)
class Grid:
    """A table of odds: rows of rolls by columns of DCs or Evasions.

    Attributes:
        kind: ``pool``, ``check``, ``damage`` or ``compare``.
        title: a one-line description with the rule ids.
        quantity: `P_SUCCESS` or `EXPECTED_DAMAGE`: what the cells hold.
        row_header: the header of the label column.
        column_key: ``dc`` or ``evasion``.
        columns: the DCs or Evasions.
        rows: the rows, in the order asked for.
        settings: the fixed inputs (Load, Net Advantage, extra dice, modifiers ...).
    """

    kind: str
    title: str
    quantity: str
    row_header: str
    column_key: str
    columns: tuple[int, ...]
    rows: tuple[GridRow, ...]
    settings: tuple[tuple[str, object], ...] = ()


def grid_cells(rows: int, columns: int, field: str) -> int:
    """Refuse a grid of more than `MAX_CELLS` cells.

    Raises:
        InputError: naming *field*, with the size asked for.
    """
    cells = rows * columns
    if cells > MAX_CELLS:
        raise InputError(
            field, f"{rows:,} x {columns:,}", f"{cells:,} cells; a grid has at most {MAX_CELLS:,}"
        )
    return cells


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
            "--aspect/--pool",
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
    """

    def __init__(self, distribution: Distribution, damage: bool) -> None:
        one = 1 << FIXED_BITS
        self.one = one
        self.low = distribution.low
        self.high = distribution.high
        self.mean = distribution.mean_exact
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
        self.packed = int.from_bytes(b"".join(v.to_bytes(_SLOT_BYTES, "little") for v in values), "little")
        self.mask = self._mask(self.slots + 3)

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
        total = packed + (packed << s) + (packed << (2 * s)) + (packed << (3 * s)) + corr
        self.slots += 3
        if self.slots > (self.mask.bit_length() + 2) // s:
            self.mask = self._mask(2 * self.slots)
        self.packed = (total >> 2) & self.mask
        self.low += 1
        self.high += 4
        self.mean += Fraction(5, 2)  # a d4's mean

    def values(self, columns: Sequence[int]) -> tuple[float, ...]:
        data = b""

        def slot(index: int) -> int:
            nonlocal data
            if not data:  # only when some column falls inside the possible totals
                data = self.packed.to_bytes(self.slots * _SLOT_BYTES, "little")
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
        check_odds_size(size, extra_count, dice_sum(size, extra).totals, "--extra")
    check_grid_work(sizes, extra)
    spread = sum(item.count * (item.sides - 1) for item in extra) + 1
    if len(sizes) == 1 or sum(3 * size + spread for size in sizes) <= _DIRECT_TOTALS:
        value = Distribution.expected_excess if damage else Distribution.p_at_least
        return {
            size: tuple(value(pool_distribution(size, extra, field="--extra"), column) for column in columns)
            for size in sizes
        }
    chain = _PoolChain(pool_distribution(sizes[0], extra, field="--extra"), damage)
    out: dict[int, tuple[float, ...]] = {}
    current = sizes[0]
    for size in sizes:
        while current < size:
            chain.add_d4()
            current += 1
        out[size] = chain.values(columns)
    return out


def pool_notation(pool_size: int, extra: Sequence[ExtraDice] = ()) -> str:
    """``5d4``, ``5d4+1d8+2``: the dice of a pool roll (R5, R6)."""
    return "+".join([f"{pool_size}d4", *(item.notation for item in extra)])


def _pool_rows(
    aspects: Sequence[int] | None,
    pool_sizes: Sequence[int] | None,
    load: int,
    net_advantage: int,
    extra: Sequence[ExtraDice],
) -> list[tuple[str, tuple[Key, ...], int]]:
    if pool_sizes is not None:
        return [(pool_notation(size, extra), (("pool_size", size),), size) for size in pool_sizes]
    rows = []
    for aspect in aspects or ():
        size = rules_pool_size(aspect, load, net_advantage).size
        rows.append(
            (
                f"{aspect} ({pool_notation(size, extra)})",
                (("aspect", aspect), ("pool_size", size)),
                size,
            )
        )
    return rows


def _pool_settings(
    by_aspect: bool, load: int, net_advantage: int, extra: Sequence[ExtraDice]
) -> tuple[tuple[str, object], ...]:
    settings: list[tuple[str, object]] = []
    if by_aspect:
        settings += [("load", load), ("net_advantage", net_advantage)]
    settings.append(("extra", tuple(item.notation for item in extra)))
    return tuple(settings)


def pool_grid(
    dcs: Sequence[int],
    *,
    aspects: Sequence[int] | None = None,
    pool_sizes: Sequence[int] | None = None,
    load: int = 0,
    net_advantage: int = 0,
    extra: Sequence[ExtraDice] = (),
) -> Grid:
    """P(success) of a D4 pool by Aspect (or pool size) and DC (R5, R6, R7).

    Args:
        dcs: the columns.
        aspects: rows by Aspect, sized with *load* and *net_advantage* (R5); or
        pool_sizes: rows by pool size directly.
        extra: extra dice added to every roll (R6).

    Raises:
        InputError: a roll over 10,000 dice (L2) or 100,000 totals (L4).
    """
    return _pool_value_grid(
        "pool",
        "Chance of success of a D4 pool: total >= DC (R5-R7)",
        P_SUCCESS,
        "dc",
        dcs,
        lambda distribution, dc: distribution.p_at_least(dc),
        aspects,
        pool_sizes,
        load,
        net_advantage,
        extra,
    )


def damage_grid(
    evasions: Sequence[int],
    *,
    aspects: Sequence[int] | None = None,
    pool_sizes: Sequence[int] | None = None,
    load: int = 0,
    net_advantage: int = 0,
    extra: Sequence[ExtraDice] = (),
) -> Grid:
    """Expected damage ``E[max(0, total - Evasion)]`` by pool and Evasion (R5-R7).

    Args and Raises: as `pool_grid`, with Evasions for columns.
    """
    return _pool_value_grid(
        "damage",
        "Expected damage of a D4 pool: max(0, total - Evasion) (R5-R7)",
        EXPECTED_DAMAGE,
        "evasion",
        evasions,
        lambda distribution, evasion: distribution.expected_excess(evasion),
        aspects,
        pool_sizes,
        load,
        net_advantage,
        extra,
    )


def _pool_value_grid(
    kind: str,
    title: str,
    quantity: str,
    column: str,
    columns: Sequence[int],
    value: Callable[[Distribution, int], float],
    aspects: Sequence[int] | None,
    pool_sizes: Sequence[int] | None,
    load: int,
    net_advantage: int,
    extra: Sequence[ExtraDice],
) -> Grid:
    """A grid of *value* (distribution, column) over the pool rows (R5-R7).

    The rows are computed together (`pool_values`); *value* names the quantity.
    """
    extra = tuple(extra)
    pool_rows = _pool_rows(aspects, pool_sizes, load, net_advantage, extra)
    values = pool_values(
        [size for _, _, size in pool_rows], extra, columns, damage=quantity == EXPECTED_DAMAGE
    )
    rows = tuple(GridRow(label, keys, values[size]) for label, keys, size in pool_rows)
    return Grid(
        kind,
        title,
        quantity,
        "Pool" if pool_sizes is not None else "Aspect (pool)",
        column,
        tuple(columns),
        rows,
        _pool_settings(pool_sizes is None, load, net_advantage, extra),
    )


def check_label(advantage_level: int, disadvantage: int, modifiers: int | None = None) -> str:
    """``Adv 2``, ``Adv 2, Dis 1 (= Adv 1)``, ``Dis 1 (-1d6)``, ``d20+3, Adv 2`` (C3, C4)."""
    parts = [] if modifiers is None else [f"d20{modifiers:+d}"]
    levels = apply_disadvantage(advantage_level, disadvantage)
    if advantage_level:
        parts.append(f"Adv {advantage_level}")
    if disadvantage:
        parts.append(f"Dis {disadvantage}")
    text = ", ".join(parts) or "no Advantage"
    if levels.impossible:
        return text + " (impossible)"
    if disadvantage and levels.subtract_die:
        return text + " (-1d6)"
    if disadvantage:
        return text + f" (= Adv {levels.effective_level})"
    return text


def check_grid(
    dcs: Sequence[int],
    *,
    advantage_levels: Sequence[int] = (0,),
    disadvantages: Sequence[int] = (0,),
    modifiers: int = 0,
) -> Grid:
    """P(success) of an Action Roll by Advantage Level and Disadvantage x DC (C1-C6).

    Rows are every (level, Disadvantages) pair, levels outer. An impossible
    check (C4) has P(success) 0.

    Raises:
        InputError: a level outside 0..5 (C3).
    """
    rows = tuple(
        GridRow(
            check_label(level, dis),
            (("advantage_level", level), ("disadvantage", dis)),
            tuple(p_check_success(dc, modifiers, level, dis) for dc in dcs),
        )
        for level in advantage_levels
        for dis in disadvantages
    )
    return Grid(
        "check",
        "Chance of success of a d20 Action Roll: natural 1 fails, crit d6 on 20 (C1-C6)",
        P_SUCCESS,
        "Advantage",
        "dc",
        tuple(dcs),
        rows,
        (("modifiers", modifiers),),
    )


def compare_grid(
    dcs: Sequence[int],
    *,
    aspects: Sequence[int] | None = None,
    pool_sizes: Sequence[int] | None = None,
    load: int = 0,
    net_advantage: int = 0,
    extra: Sequence[ExtraDice] = (),
    modifiers: Sequence[int] = (0,),
    advantage_level: int = 0,
    disadvantage: int = 0,
) -> Grid:
    """The two systems side by side: P(success) of D4 pools and of d20 checks over the same DCs.

    Raises:
        InputError: as `pool_grid` and `check_grid`.
    """
    extra = tuple(extra)
    prefix = "Aspect " if pool_sizes is None else "Pool "
    pool_rows = _pool_rows(aspects, pool_sizes, load, net_advantage, extra)
    values = pool_values([size for _, _, size in pool_rows], extra, dcs, damage=False)
    rows = [
        GridRow(prefix + label, (("system", "pool"), *keys), values[size])
        for label, keys, size in pool_rows
    ]
    rows += [
        GridRow(
            check_label(advantage_level, disadvantage, modifier),
            (
                ("system", "check"),
                ("modifiers", modifier),
                ("advantage_level", advantage_level),
                ("disadvantage", disadvantage),
            ),
            tuple(p_check_success(dc, modifier, advantage_level, disadvantage) for dc in dcs),
        )
        for modifier in modifiers
    ]
    return Grid(
        "compare",
        "Chance of success: D4 pool (R5-R7) against d20 Action Roll (C1-C6)",
        P_SUCCESS,
        "Roll",
        "dc",
        tuple(dcs),
        tuple(rows),
        _pool_settings(pool_sizes is None, load, net_advantage, extra),
    )


def grid_json(grid: Grid) -> dict[str, object]:
    """A grid as one JSON object: ``table``, ``quantity``, ``columns``, ``rows``, ``settings``.

    Each row is ``{"label": ..., <its keys>..., "values": [...]}`` with one
    value per column; ``column`` names what the columns are (``dc``, ``evasion``).
    """
    return {
        "kind": "odds",
        "table": grid.kind,
        "title": grid.title,
        "quantity": grid.quantity,
        "column": grid.column_key,
        "columns": list(grid.columns),
        "rows": [
            {"label": row.label, **dict(row.keys), "values": list(row.values)} for row in grid.rows
        ],
        "settings": {
            key: list(value) if isinstance(value, tuple) else value for key, value in grid.settings
        },
    }


