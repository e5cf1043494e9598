"""Human output of ``simulate`` with two sweeps: the balance map, one table per mode.

Each table has a row per setting of the first sweep and a column per setting of the second;
a cell holds the chance of one side to win with its 95% interval, shaded from white (0%)
to deep blue (100%) as the odds heat maps are (`d4cli.output.render.heatmap.shade`).
"""

from __future__ import annotations

from typing import Any

from rich.table import Table

from d4cli.output.figuretext import few_runs
from d4cli.output.maptext import (
    capped_notes,
    chance_text,
    column_heads,
    corner,
    map_heading,
    map_title,
    sweep_maps,
)
from d4cli.output.render import console, escape
from d4cli.output.render.heatmap import shade


def print_map(report: dict[str, Any], side: str | None = None) -> None:
    """The heading, then each mode's map of *side*'s chance (default the first side) as a
    table of shaded cells."""
    out = console()
    out.print(f"[bold]{escape(map_heading(report))}[/]")
    for note in capped_notes(report):
        out.print(note, markup=False)
    for grid in sweep_maps(report, side):
        table = Table(title=escape(map_title(grid)), title_justify="left", show_lines=True)
        table.add_column(escape(corner(grid)))
        for head in column_heads(grid):
            table.add_column(escape(head), justify="right")
        for value, row in zip(grid.row_values, grid.cells):
            cells = []
            for chance in row:
                ink = "white" if chance.rate > 0.55 else "black"  # dark cells take white figures
                text = escape(chance_text(chance, grid.places))
                cells.append(f"[{ink} on {shade(chance.rate)}]{text}[/]")
            table.add_row(str(value), *cells)
        out.print(table)
    if few_runs(report["runs"]):
        out.print(f"{few_runs(report['runs'])}.", markup=False)
