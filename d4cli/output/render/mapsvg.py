"""``simulate --sweep ... --format svg``: the balance map as one standalone SVG document.

A heat map per mode, one under the other: a row per setting of the first sweep, a column
per setting of the second (one column with one sweep), each cell shaded by one
side's chance to win (white 0%, deep blue 100%) and holding it with its 95% interval. The
title (wrapped to the width) and the settings line say what was played. Written with the
standard library through `d4cli.output.render.svg`'s text layout; the same report gives the
same bytes.
"""

from __future__ import annotations

import math
from typing import Any
from xml.sax.saxutils import escape

from d4cli.output.maptext import (
    SweepMap,
    capped_notes,
    chance_text,
    column_heads,
    corner,
    map_heading,
    map_title,
    sweep_maps,
)
from d4cli.output.render.heatmap import shade
from d4cli.output.render.svgtext import svg_open, text_lines, text_width

CELL_H = 26
PAD = 12
MIN_CELL_W = 72
FONT = 12


def map_svg(report: dict[str, Any], side: str | None = None) -> str:
    """Every mode's map of *report* (``sweeps`` and ``cells``) as one SVG document: the chance
    of *side* (default the report's first side) in each cell."""
    maps = sweep_maps(report, side)
    label_w, cell_w = _column_widths(maps)
    columns = max(len(grid.column_values) for grid in maps)
    width = int(PAD + label_w + cell_w * columns + PAD)
    body: list[str] = []
    y = PAD
    for line in text_lines(map_heading(report), width - 2 * PAD, 15, bold=True):
        y += 19
        body.append(
            f'<text class="title" x="{PAD}" y="{y}" font-size="15" font-weight="bold">{escape(line)}</text>'
        )
    for note in capped_notes(report):
        for line in text_lines(note, width - 2 * PAD, FONT):
            y += 16
            body.append(f'<text class="note" x="{PAD}" y="{y}" fill="#555">{escape(line)}</text>')
    for grid in maps:
        y = _grid_body(grid, body, y, width, label_w, cell_w)
    height = y + PAD
    return "\n".join([*svg_open(map_heading(report), width, height), *body, "</svg>"]) + "\n"


def _column_widths(maps: list[SweepMap]) -> tuple[int, int]:
    """The width of the row labels' column and of each cell: the widest text each holds."""
    label_w = math.ceil(
        max(
            [text_width(corner(grid), FONT, bold=True) for grid in maps]
            + [text_width(str(value), FONT) for grid in maps for value in grid.row_values]
        )
        + 2 * PAD
    )
    cell_w = math.ceil(
        max(
            [MIN_CELL_W]
            + [text_width(h, FONT, bold=True) + PAD for grid in maps for h in column_heads(grid)]
            + [
                text_width(chance_text(chance, grid.places), FONT) + PAD
                for grid in maps
                for row in grid.cells
                for chance in row
            ]
        )
    )
    return label_w, cell_w


def _grid_body(
    grid: SweepMap, body: list[str], y: int, width: int, label_w: int, cell_w: int
) -> int:
    """Append one mode's map (its title, column heads and cells) to *body* from height *y*;
    return the height below it."""
    y += 12
    for line in text_lines(map_title(grid), width - 2 * PAD, 13, bold=True):
        y += 17
        body.append(
            f'<text class="map-title" x="{PAD}" y="{y}" font-size="13" font-weight="bold">{escape(line)}</text>'
        )
    y += 20
    body.append(
        f'<text class="corner" x="{PAD}" y="{y}" font-weight="bold">{escape(corner(grid))}</text>'
    )
    for index, head in enumerate(column_heads(grid)):
        x = int(PAD + label_w + cell_w * index + cell_w // 2)
        body.append(
            f'<text class="column" x="{x}" y="{y}" text-anchor="middle" font-weight="bold">{escape(head)}</text>'
        )
    y += 6
    for value, row in zip(grid.row_values, grid.cells):
        body.append(f'<text class="row" x="{PAD}" y="{y + CELL_H // 2 + 4}">{value}</text>')
        for index, chance in enumerate(row):
            x = int(PAD + label_w + cell_w * index)
            ink = "#fff" if chance.rate > 0.55 else "#000"  # dark cells take white figures
            text = escape(chance_text(chance, grid.places))
            body.append(
                f'<rect class="cell" x="{x}" y="{y}" width="{cell_w}" height="{CELL_H}" '
                f'fill="{shade(chance.rate)}" stroke="#ddd"><title>{text}</title></rect>'
            )
            body.append(
                f'<text class="value" x="{x + cell_w // 2}" y="{y + CELL_H // 2 + 4}" '
                f'text-anchor="middle" fill="{ink}">{text}</text>'
            )
        y += CELL_H
    return y
