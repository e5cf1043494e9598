"""Grids of exact odds for designers (``d4cli odds``): P(success) and expected damage
by pool or Advantage Level against DCs or Evasions, and the two systems side by side.

Pure: builds `Grid` records from the distributions of `d4cli.odds.roll_odds`: codes and
numbers, no words. The titles, headers and row labels are `d4cli.output.gridtext`;
rendering is in `d4cli.output.render.odds_charts`, the JSON in `d4cli.output.serialize.grids_json`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from d4cli.odds.distribution import Distribution
from d4cli.odds.pool_chain import pool_values
from d4cli.odds.roll_odds import p_check_success
from d4cli.rules.dice import ExtraDice
from d4cli.rules.errors import InputError
from d4cli.rules.pool import pool_size as rules_pool_size

P_SUCCESS = "p_success"
EXPECTED_DAMAGE = "expected_damage"
# At most this many cells in one grid (d4cli odds).
MAX_CELLS = 10_000
Key = tuple[str, int | str]


@dataclass(frozen=True)
class GridRow:
    """One row of a grid.

    Attributes:
        keys: the numbers that define the row (``("aspect", 3), ("pool_size", 3)``).
        values: one value per column of the grid.
        dice: a pool row's dice (``3d4+1d8``, `pool_notation`); None for a check row.
    """

    keys: tuple[Key, ...]
    values: tuple[float, ...]
    dice: str | None = None


@dataclass(frozen=True)
class Grid:
    """A table of odds: rows of rolls by columns of DCs or Evasions.

    Attributes:
        kind: ``pool``, ``check``, ``damage`` or ``compare``.
        quantity: `P_SUCCESS` or `EXPECTED_DAMAGE`: what the cells hold.
        column_key: ``dc`` or ``evasion``.
        columns: the DCs or Evasions.
        rows: the rows, in the order asked for.
        settings: the fixed inputs (Load, Net Advantage, extra dice, modifiers ...).
        by_aspect: the pool rows are by Aspect (sized with Load and Net Advantage, R5), not by pool size.
    """

    kind: str
    quantity: str
    column_key: str
    columns: tuple[int, ...]
    rows: tuple[GridRow, ...]
    settings: tuple[tuple[str, object], ...] = ()
    by_aspect: bool = False


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


def pool_notation(pool_size: int, extra: Sequence[ExtraDice] = ()) -> str:
    """``5d4``, ``5d4+1d8+2``: the dice of a pool roll (R5, R6); ``2d6+1`` without a pool (``roll dice``)."""
    pool = [f"{pool_size}d4"] if pool_size else []
    return "+".join([*pool, *(item.notation for item in extra)])


def _pool_rows(
    aspects: Sequence[int] | None,
    pool_sizes: Sequence[int] | None,
    load: int,
    net_advantage: int,
    extra: Sequence[ExtraDice],
) -> list[tuple[str, tuple[Key, ...], int]]:
    if pool_sizes is not None:
        return [(pool_notation(size, extra), (("pool_size", size),), size) for size in pool_sizes]
    rows: list[tuple[str, tuple[Key, ...], int]] = []
    for aspect in aspects or ():
        size = rules_pool_size(aspect, load, net_advantage).size
        rows.append((pool_notation(size, extra), (("aspect", aspect), ("pool_size", size)), size))
    return rows


def _pool_grid_rows(
    columns: Sequence[int],
    aspects: Sequence[int] | None,
    pool_sizes: Sequence[int] | None,
    load: int,
    net_advantage: int,
    extra: tuple[ExtraDice, ...],
    *,
    damage: bool,
    keys_prefix: tuple[Key, ...] = (),
) -> list[GridRow]:
    """The pool rows of a grid, one value per column, computed together (`pool_values`).

    *damage*: expected damage against Evasions, else P(success) against DCs.
    *keys_prefix* goes before every row's keys.

    Raises:
        InputError: a roll over 10,000 dice (L2) or 100,000 totals (L4).
    """
    pool_rows = _pool_rows(aspects, pool_sizes, load, net_advantage, extra)
    values = pool_values([size for _, _, size in pool_rows], extra, columns, damage=damage)
    return [GridRow((*keys_prefix, *keys), values[size], dice) for dice, keys, size in pool_rows]


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
    rows = _pool_grid_rows(
        columns, aspects, pool_sizes, load, net_advantage, extra, damage=quantity == EXPECTED_DAMAGE
    )
    return Grid(
        kind,
        quantity,
        column,
        tuple(columns),
        tuple(rows),
        _pool_settings(pool_sizes is None, load, net_advantage, extra),
        by_aspect=pool_sizes is None,
    )


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
            (("advantage_level", level), ("disadvantage", dis)),
            tuple(p_check_success(dc, modifiers, level, dis) for dc in dcs),
        )
        for level in advantage_levels
        for dis in disadvantages
    )
    return Grid(
        "check",
        P_SUCCESS,
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
    rows = _pool_grid_rows(
        dcs,
        aspects,
        pool_sizes,
        load,
        net_advantage,
        extra,
        damage=False,
        keys_prefix=(("system", "pool"),),
    )
    rows += [
        GridRow(
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
        P_SUCCESS,
        "dc",
        tuple(dcs),
        tuple(rows),
        _pool_settings(pool_sizes is None, load, net_advantage, extra),
        by_aspect=pool_sizes is None,
    )
