"""Grids of exact odds for designers (``d4cli odds``): P(success) and expected damage
by pool or Advantage Level against DCs or Evasions, and the two systems side by side.

Pure: builds `Grid` records from the distributions of `d4cli.odds.roll_odds`; rendering
is in `d4cli.output.render.odds`, the JSON in `d4cli.output.serialize.grids`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from d4cli.odds.distribution import Distribution
from d4cli.odds.pool_chain import pool_values
from d4cli.odds.roll_odds import p_check_success
from d4cli.rules.action_roll import apply_disadvantage
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
        rows.append(
            (
                f"{aspect} ({pool_notation(size, extra)})",
                (("aspect", aspect), ("pool_size", size)),
                size,
            )
        )
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
    label_prefix: str = "",
    keys_prefix: tuple[Key, ...] = (),
) -> list[GridRow]:
    """The pool rows of a grid, one value per column, computed together (`pool_values`).

    *damage*: expected damage against Evasions, else P(success) against DCs.
    *label_prefix* and *keys_prefix* go before every row's label and keys.

    Raises:
        InputError: a roll over 10,000 dice (L2) or 100,000 totals (L4).
    """
    pool_rows = _pool_rows(aspects, pool_sizes, load, net_advantage, extra)
    values = pool_values([size for _, _, size in pool_rows], extra, columns, damage=damage)
    return [
        GridRow(label_prefix + label, (*keys_prefix, *keys), values[size])
        for label, keys, size in pool_rows
    ]


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
    rows = _pool_grid_rows(
        columns, aspects, pool_sizes, load, net_advantage, extra, damage=quantity == EXPECTED_DAMAGE
    )
    return Grid(
        kind,
        title,
        quantity,
        "Pool" if pool_sizes is not None else "Aspect (pool)",
        column,
        tuple(columns),
        tuple(rows),
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
    rows = _pool_grid_rows(
        dcs,
        aspects,
        pool_sizes,
        load,
        net_advantage,
        extra,
        damage=False,
        label_prefix="Aspect " if pool_sizes is None else "Pool ",
        keys_prefix=(("system", "pool"),),
    )
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

