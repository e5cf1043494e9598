"""The exact value of every cell of a `d4cli.odds.grids.Grid`, for the CSV of ``d4cli odds``.

Pure. A pool row is exact when its distribution is on the exact path
(`d4cli.odds.dice_sums.EXACT_BITS`: counted in whole numbers); a check row always is
(C1-C6). Elsewhere the cell has no exact value (None) and only the grid's float
stands. Computed only when asked for: the grids themselves stay on the fast path.
"""

from __future__ import annotations

from fractions import Fraction

from d4cli.odds.check_odds import fraction_check_success
from d4cli.odds.dice_sums import EXACT_BITS, dice_sum
from d4cli.odds.grids import EXPECTED_DAMAGE, Grid, GridRow
from d4cli.odds.roll_odds import pool_distribution
from d4cli.rules.dice import parse_extra


def grid_fractions(grid: Grid) -> list[tuple[Fraction | None, ...]]:
    """One tuple per row of *grid*, one exact value (or None) per column (R5-R7, C1-C6)."""
    settings = dict(grid.settings)
    return [_row_fractions(grid, row, settings) for row in grid.rows]


def _row_fractions(
    grid: Grid, row: GridRow, settings: dict[str, object]
) -> tuple[Fraction | None, ...]:
    keys = dict(row.keys)
    if "pool_size" in keys:
        notations = settings.get("extra", ())
        extra = (
            tuple(parse_extra(text) for text in notations) if isinstance(notations, tuple) else ()
        )
        size = int(keys["pool_size"])
        spec = dice_sum(size, extra)
        if spec.totals * spec.outcome_bits > EXACT_BITS:
            return tuple(None for _ in grid.columns)
        distribution = pool_distribution(size, extra, field="extra")
        if grid.quantity == EXPECTED_DAMAGE:
            return tuple(distribution.fraction_expected_excess(column) for column in grid.columns)
        return tuple(distribution.fraction_at_least(column) for column in grid.columns)
    fixed = settings.get("modifiers", 0)  # a check grid's modifiers; a compare grid's are per row
    modifiers = int(keys.get("modifiers", fixed if isinstance(fixed, int) else 0))
    level = int(keys.get("advantage_level", 0))
    disadvantage = int(keys.get("disadvantage", 0))
    return tuple(fraction_check_success(dc, modifiers, level, disadvantage) for dc in grid.columns)
