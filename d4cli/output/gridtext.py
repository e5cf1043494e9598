"""The words of the designers' odds grids (``d4cli odds``): titles, the label column's header
and each row's label (R5-R7, C1-C6).

Reads the codes and numbers of a `d4cli.odds.grids.Grid` (its ``kind``, a row's keys and
dice); the table, Markdown, CSV and JSON of a grid all take their words from here. Plain
text, no Rich: callers escape.
"""

from __future__ import annotations

from d4cli.odds.grids import Grid, GridRow
from d4cli.rules.action_roll import apply_disadvantage

# A grid's kind -> its title: one line, with the rule ids.
TITLES: dict[str, str] = {
    "pool": "Chance of success of a D4 pool: total >= DC (R5-R7)",
    "damage": "Expected damage of a D4 pool: max(0, total - Evasion) (R5-R7)",
    "check": "Chance of success of a d20 Action Roll: natural 1 fails, crit d6 on 20 (C1-C6)",
    "compare": "Chance of success: D4 pool (R5-R7) against d20 Action Roll (C1-C6)",
}


def grid_title(grid: Grid) -> str:
    """*grid*'s title (`TITLES`).

    Raises:
        KeyError: a kind not in `TITLES`.
    """
    return TITLES[grid.kind]


def row_header(grid: Grid) -> str:
    """The header of *grid*'s label column: ``Aspect (pool)``, ``Pool``, ``Advantage``, ``Roll``."""
    if grid.kind == "check":
        return "Advantage"
    if grid.kind == "compare":
        return "Roll"
    return "Aspect (pool)" if grid.by_aspect else "Pool"


def row_label(grid: Grid, row: GridRow) -> str:
    """What *row* of *grid* shows: ``5d4``, ``3 (3d4)`` by Aspect, ``Aspect 3 (3d4)`` and
    ``d20+3, Adv 2`` side by side (``compare``), ``Adv 2, Dis 1 (= Adv 1)`` (`check_label`)."""
    keys = dict(row.keys)
    if row.dice is not None:
        label = row.dice if "aspect" not in keys else f"{keys['aspect']} ({row.dice})"
        if grid.kind == "compare":
            return ("Aspect " if grid.by_aspect else "Pool ") + label
        return label
    modifiers = keys.get("modifiers")
    return check_label(
        int(keys["advantage_level"]),
        int(keys["disadvantage"]),
        None if modifiers is None else int(modifiers),
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
