"""An odds grid as a heat map: one standalone SVG document (``odds ... --format svg``).

Each cell is coloured by its value (a chance 0..100%, or an expected damage from 0 to the
grid's largest) from white to deep blue, and holds the value as the table shows it; rows
and columns are labelled as in the table, the settings under the title. Written with the
standard library; the same grid gives the same bytes.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from d4cli.odds.grids import EXPECTED_DAMAGE, Grid
from d4cli.output.gridtext import grid_title, row_header, row_label
from d4cli.output.render.odds_charts import cell_text, column_header, settings_line

CELL_W, CELL_H = 72, 26  # one cell
LABEL_W = 150  # the row labels' column
TOP = 70  # the title, the settings and the column headers
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
    """The heat map of *grid* as one SVG document (text, with its XML declaration)."""
    width = LABEL_W + CELL_W * len(grid.columns) + 2 * PAD
    height = TOP + CELL_H * len(grid.rows) + 2 * PAD
    scale = _scale(grid)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" font-family="sans-serif" font-size="12">',
        f"<title>{escape(grid_title(grid))}</title>",
        f'<text x="{PAD}" y="{PAD + 14}" font-size="15" font-weight="bold">{escape(grid_title(grid))}</text>',
        f'<text x="{PAD}" y="{PAD + 32}" fill="#555">{escape(settings_line(grid))}</text>',
        f'<text x="{PAD}" y="{TOP - 6}" font-weight="bold">{escape(row_header(grid))}</text>',
    ]
    for index, column in enumerate(grid.columns):
        x = PAD + LABEL_W + CELL_W * index + CELL_W // 2
        out.append(
            f'<text x="{x}" y="{TOP - 6}" text-anchor="middle" font-weight="bold">'
            f"{escape(column_header(grid, column))}</text>"
        )
    for number, row in enumerate(grid.rows):
        y = TOP + CELL_H * number
        out.append(
            f'<text x="{PAD}" y="{y + CELL_H // 2 + 4}">{escape(row_label(grid, row))}</text>'
        )
        for index, value in enumerate(row.values):
            out += _cell(grid, PAD + LABEL_W + CELL_W * index, y, value, value / scale)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _cell(grid: Grid, x: int, y: int, value: float, share: float) -> list[str]:
    ink = "#fff" if share > 0.55 else "#000"  # dark cells take white figures
    text = cell_text(grid, value)
    return [
        f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="{shade(share)}" '
        f'stroke="#ddd"><title>{_attr(text)}</title></rect>',
        f'<text x="{x + CELL_W // 2}" y="{y + CELL_H // 2 + 4}" text-anchor="middle" '
        f'fill="{ink}">{escape(text)}</text>',
    ]
