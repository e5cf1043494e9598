"""A balance map as plain data and text: the win chances of one side over the cells of
``simulate --sweep`` (one setting or two), shared by the terminal, Markdown, CSV and SVG.

Reads the report of `d4cli.sim.report.simulation_json` with ``sweeps`` and ``cells``. A map
is one per mode: its rows are the first sweep's settings, its columns the second's (one
column without a second sweep); each cell is the chance of one side to win with its
95% Wilson interval, shown to the digits the runs support.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from d4cli.output.figuretext import heading, share_places


@dataclass(frozen=True)
class Chance:
    """A side's chance to win in one cell: ``rate`` and its interval ``low``..``high``, 0..1."""

    rate: float
    low: float
    high: float


@dataclass(frozen=True)
class SweepMap:
    """One mode's map.

    Attributes:
        mode: the reset mode (R12).
        side: the side whose chance each cell holds.
        rows / columns: the sweep keys (``columns`` None with one sweep).
        row_values / column_values: the settings (``column_values`` ``(None,)`` with one sweep).
        cells: ``cells[row][column]``, a `Chance`.
        places: the decimals of a percentage the runs support.
    """

    mode: str
    side: str
    rows: str
    columns: str | None
    row_values: tuple[int, ...]
    column_values: tuple[int | None, ...]
    cells: tuple[tuple[Chance, ...], ...]
    places: int


def sweep_maps(report: dict[str, Any], side: str | None = None) -> list[SweepMap]:
    """One `SweepMap` per mode played, in the order played: the chance of *side* (one of the
    report's sides; default its first) in each cell."""
    sweeps = report["sweeps"]
    side = side or report["sides"][0]
    rows = sweeps[0]["key"]
    columns = sweeps[1]["key"] if len(sweeps) > 1 else None
    row_values = tuple(sweeps[0]["values"])
    column_values: tuple[int | None, ...] = (
        tuple(sweeps[1]["values"]) if columns is not None else (None,)
    )
    found: dict[str, dict[tuple[int, int | None], Chance]] = {}
    for cell in report["cells"]:
        at = (cell["settings"][rows], None if columns is None else cell["settings"][columns])
        won = cell["wins"][side]
        found.setdefault(cell["mode"], {})[at] = Chance(won["rate"], won["low"], won["high"])
    places = share_places(report["runs"])
    return [
        SweepMap(
            mode,
            side,
            rows,
            columns,
            row_values,
            column_values,
            tuple(tuple(chances[(r, c)] for c in column_values) for r in row_values),
            places,
        )
        for mode, chances in found.items()
    ]


def chance_text(chance: Chance, places: int) -> str:
    """``60.9% (58.7-63.0)``."""
    low, high = (f"{100 * bound:.{places}f}" for bound in (chance.low, chance.high))
    return f"{100 * chance.rate:.{places}f}% ({low}-{high})"


def map_title(grid: SweepMap) -> str:
    """``turn mode: party's chance to win by Goblin Chief:hp (rows) and party:load_buffer (columns)``."""
    by = (
        f"by {grid.rows}"
        if grid.columns is None
        else f"by {grid.rows} (rows) and {grid.columns} (columns)"
    )
    return f"{grid.mode} mode: {grid.side}'s chance to win {by}"


def corner(grid: SweepMap) -> str:
    """The top-left cell: ``Goblin Chief:hp \\ party:load_buffer``, or the one key."""
    return grid.rows if grid.columns is None else f"{grid.rows} \\ {grid.columns}"


def column_heads(grid: SweepMap) -> list[str]:
    """``0``, ``1``, ... (the second sweep's settings), or ``win chance`` with one sweep."""
    if grid.columns is None:
        return ["win chance (95% interval)"]
    return [str(value) for value in grid.column_values]


def map_heading(report: dict[str, Any]) -> str:
    """The report's heading (encounter, runs, seed, rounds, engine) and the common dice."""
    return f"{heading(report)}; every cell plays the same seeds"


def capped_notes(report: dict[str, Any]) -> list[str]:
    """``Goblin Chief:hp stops at 16, the max_hp of a hurt creature (asked up to 40, R18)``."""
    return [
        f"{sweep['key']} stops at {sweep['values'][-1]}, the max_hp of a hurt creature"
        f" (asked up to {sweep['asked']}, R18)"
        for sweep in report["sweeps"]
        if "asked" in sweep
    ]
