"""Exact odds for a script (L4): the calls of `d4cli.odds`, behind the library's door.

Each is `d4cli.odds`'s own function with its arguments checked first (`checked`: a wrong
type is an `InputError` naming the parameter). A DC is a whole number or a tier (C2), and
extra dice are `ExtraDice` or notation such as ``"1d8+2"`` (R6), as for the rolls.
"""

from __future__ import annotations

from collections.abc import Iterable

from d4cli.api.arguments import DC, checked, dc_value
from d4cli.odds import check_odds as check_module
from d4cli.odds import grids, roll_odds
from d4cli.odds.check_odds import CheckOdds
from d4cli.odds.dice_sums import check_odds_size, dice_sum
from d4cli.odds.grids import Grid, grid_cells
from d4cli.odds.roll_odds import PoolOdds
from d4cli.rules.dice import ExtraDice, parse_extra
from d4cli.rules.limits import DC as DC_RANGE
from d4cli.rules.limits import EVASION, MAX_DICE, check_range

pool_odds = checked(roll_odds.pool_odds)
check_odds = checked(check_module.check_odds)
dice_odds = checked(roll_odds.dice_odds)
pool_grid = checked(grids.pool_grid)
damage_grid = checked(grids.damage_grid)
check_grid = checked(grids.check_grid)
compare_grid = checked(grids.compare_grid)


# The limits of exact odds (L2, L4), for a front end that says them before it computes:
# a roll's possible totals, a roll or a grid too large.
__all__ = [
    "PoolOdds",
    "CheckOdds",
    "pool_odds",
    "check_odds",
    "dice_odds",
    "pool_grid",
    "damage_grid",
    "check_grid",
    "compare_grid",
    "p_pool_success",
    "expected_pool_damage",
    "p_check_success",
    "Grid",
    "dice_sum",
    "check_odds_size",
    "grid_cells",
]


# A pool is 1d4 or more (R5), and no roll throws more than 10,000 dice (L2).
POOL_SIZE = (1, MAX_DICE)


def _extra(extra: Iterable[ExtraDice | str]) -> tuple[ExtraDice, ...]:
    return tuple(parse_extra(item, "extra") if isinstance(item, str) else item for item in extra)


@checked
def p_pool_success(pool_size: int, dc: DC, extra: Iterable[ExtraDice | str] = ()) -> float:
    """``P(total >= dc)``, 0 to 1, for *pool_size* d4s plus *extra* (R7); *dc* a whole number
    or a tier (``"hard"``, C2).

    Raises:
        InputError: a pool below 1d4 (R5), too many dice or totals (L2, L4), an unknown
            tier, a value of the wrong type; each naming its parameter.
    """
    check_range(pool_size, "pool_size", POOL_SIZE)
    return roll_odds.p_pool_success(
        pool_size, check_range(dc_value(dc), "dc", DC_RANGE), _extra(extra)
    )


@checked
def expected_pool_damage(
    pool_size: int, evasion: int, extra: Iterable[ExtraDice | str] = ()
) -> float:
    """``E[max(0, total - evasion)]`` in hp for *pool_size* d4s plus *extra* (R7): a miss
    counts 0.

    Raises:
        InputError: as `p_pool_success`.
    """
    check_range(pool_size, "pool_size", POOL_SIZE)
    check_range(evasion, "evasion", EVASION)
    return roll_odds.expected_pool_damage(pool_size, evasion, _extra(extra))


@checked
def p_check_success(
    dc: DC, modifiers: int = 0, advantage_level: int = 0, disadvantage: int = 0
) -> float:
    """The chance, 0 to 1, that a d20 check with *modifiers* (C1), Advantage Level
    *advantage_level* (0..5, C3) and *disadvantage* Disadvantages (C4) meets *dc* (a whole
    number or a tier, C2); 0 when the check is impossible (C4).

    Raises:
        InputError: an Advantage Level outside 0..5, an unknown tier, a value of the wrong
            type; each naming its parameter.
    """
    return check_module.p_check_success(dc_value(dc), modifiers, advantage_level, disadvantage)
