"""An odds grid as a heat map: one standalone SVG document (``odds ... --format svg``).

Each cell is coloured by its value (a chance 0..100%, or an expected damage from 0 to the
grid's largest) from white to deep blue, and holds the value as the table shows it; rows
and columns are labelled as in the table, the settings under the title. Written with the
standard library; the same grid gives the same bytes.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from d4cli.odds.grids import EXPECTED_DAMAGE, Grid
from d4cli.output.gridtext import grid_title, row_header, row_label
from d4cli.output.render.odds_charts import cell_text, column_header, settings_line
from d4cli.output.render.svgtext import lines_block, text_width

CELL_W, CELL_H = 72, 26  # one cell
LABEL_W = 150  # the row labels' column
PAD = 12
LOW, HIGH = (255, 255, 255), (33, 102, 172)  # the colours of the lowest and highest value


def _attr(text: str) -> str:
    return escape(text, {'"': "&quot;"})


def shade(share: float) -> str:
    """The fill of a cell *share* (0..1) of the way from the lowest value to the highest."""
    share = min(1.0, max(0.0, share))
    red, green, blue = (round(lo + (hi - lo) * share) for lo, hi in zip(LOW, HIGH, strict=True))
    return f"#{red:02x}{green:02x}{blue:02x}"


def _scale(grid: Grid) -> float:
    """What a full-colour cell holds: 1 (100%) for chances, the largest value for damage."""
    if grid.quantity != EXPECTED_DAMAGE:
        return 1.0
    peak = max((value for row in grid.rows for value in row.values), default=0.0)
    return peak or 1.0


def grid_svg(grid: Grid) -> str:
    """The heat map of *grid* as one SVG document (text, with its XML declaration).

    A column is as wide as its widest header or figure, the row labels' column as its widest
    label; the title and the settings break into lines at the map's width, so no text meets
    another (`d4cli.output.render.svgtext`).
    """
    heads = [column_header(grid, column) for column in grid.columns]
    labels = [row_label(grid, row) for row in grid.rows]
    texts = [cell_text(grid, value) for row in grid.rows for value in row.values]
    cell_w = max(
        [CELL_W]
        + [math.ceil(text_width(head, 12, bold=True)) + PAD for head in heads]
        + [math.ceil(text_width(text, 12)) + PAD for text in texts]
    )
    label_w = max(
        [LABEL_W]
        + [math.ceil(text_width(label, 12)) + PAD for label in labels]
        + [math.ceil(text_width(row_header(grid), 12, bold=True)) + PAD]
    )
    width = label_w + cell_w * len(grid.columns) + 2 * PAD
    title, y = lines_block(grid_title(grid), PAD, PAD - 4, width - 2 * PAD, 15, "title", bold=True)
    settings, y = lines_block(
        settings_line(grid), PAD, y, width - 2 * PAD, 12, "settings", extra=' fill="#555"'
    )
    top = math.ceil(y) + 26  # the column headers
    height = top + CELL_H * len(grid.rows) + 2 * PAD
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" font-family="sans-serif" font-size="12">',
        f"<title>{escape(grid_title(grid))}</title>",
        *title,
        *settings,
        f'<text x="{PAD}" y="{top - 6}" font-weight="bold">{escape(row_header(grid))}</text>',
    ]
    scale = _scale(grid)
    for index, head in enumerate(heads):
        x = PAD + label_w + cell_w * index + cell_w // 2
        out.append(
            f'<text x="{x}" y="{top - 6}" text-anchor="middle" font-weight="bold">'
            f"{escape(head)}</text>"
        )
    for number, (row, label) in enumerate(zip(grid.rows, labels)):
        y0 = top + CELL_H * number
        out.append(f'<text x="{PAD}" y="{y0 + CELL_H // 2 + 4}">{escape(label)}</text>')
        for index, value in enumerate(row.values):
            x0 = PAD + label_w + cell_w * index
            out += _cell(grid, x0, y0, cell_w, value, value / scale)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _cell(grid: Grid, x: int, y: int, cell_w: int, value: float, share: float) -> list[str]:
    ink = "#fff" if share > 0.55 else "#000"  # dark cells take white figures
    text = cell_text(grid, value)
    return [
        f'<rect x="{x}" y="{y}" width="{cell_w}" height="{CELL_H}" fill="{shade(share)}" '
        f'stroke="#ddd"><title>{_attr(text)}</title></rect>',
        f'<text x="{x + cell_w // 2}" y="{y + CELL_H // 2 + 4}" text-anchor="middle" '
        f'fill="{ink}">{escape(text)}</text>',
    ]
