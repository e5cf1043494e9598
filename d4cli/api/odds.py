"""Exact odds through the library: a pool's or a check's chance and damage, and the designers' grids.

    >>> from d4cli.api.odds import p_pool_success
    >>> round(p_pool_success(4, 10), 3)                      # doctest: +SKIP

Pure functions of their arguments: no file, no dice. Kept apart from `d4cli.api` (the rolls),
so that a script or a command that only rolls does not load the distributions. docs/api.md
documents each name.
"""

from d4cli.odds.check_odds import check_odds, p_check_success
from d4cli.odds.dice_sums import check_odds_size, dice_sum
from d4cli.odds.grids import Grid, check_grid, compare_grid, damage_grid, grid_cells, pool_grid
from d4cli.odds.roll_odds import dice_odds, expected_pool_damage, p_pool_success, pool_odds

__all__ = [
    "pool_odds",
    "check_odds",
    "dice_odds",
    "p_pool_success",
    "expected_pool_damage",
    "p_check_success",
    "pool_grid",
    "damage_grid",
    "check_grid",
    "compare_grid",
    "Grid",
    # the limits of exact odds (L2, L4): a roll's possible totals, a roll or a grid too large
    "dice_sum",
    "check_odds_size",
    "grid_cells",
]
