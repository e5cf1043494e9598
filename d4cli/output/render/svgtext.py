"""The layout shared by the SVG charts: the room a text takes, lines broken to a width, the
title, the legend and the value axis, so no two texts of a chart overlap and none leaves it.

A text's width is estimated from its font size (`EM` a letter, `BOLD_EM` in bold: a generous
average for a sans-serif face), since an SVG written here cannot measure the face a viewer
will use; every chart lays its texts out by that estimate and widens itself, or breaks a
line, where a text would not fit. Every number is formatted here (whole pixels as integers),
so the same chart gives the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from xml.sax.saxutils import escape

EM, BOLD_EM = 0.62, 0.68
LINE = 1.25  # a line's height, as a share of its font size
PALETTE = ("#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2", "#edc948", "#9c755f")
SWATCH = 12


def attr(text: str) -> str:
    """*text* escaped for an attribute's double quotes."""
    return escape(text, {'"': "&quot;"})


def num(value: float) -> str:
    """A coordinate: whole pixels as integers, else one decimal (the same bytes every time)."""
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else f"{rounded:.1f}"


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """The width *text* takes at font *size* (px), by `EM` (`BOLD_EM` for bold) a letter."""
    return len(text) * size * (BOLD_EM if bold else EM)


def text_lines(text: str, width: float, size: float, *, bold: bool = False) -> list[str]:
    """*text* broken at spaces into lines no wider than *width* at font *size* (a word wider
    than the line is cut into pieces that fit)."""
    most = max(1, int(width // (size * (BOLD_EM if bold else EM))))
    lines: list[str] = []
    line = ""
    for word in text.split():
        while len(word) > most:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:most])
            word = word[most:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= most:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line or not lines:
        lines.append(line)
    return lines


def svg_open(title: str, width: float, height: float) -> list[str]:
    """The XML declaration, the ``<svg>`` element of *width* x *height* px, its ``<title>``
    and a white background: the first lines of every chart."""
    w, h = num(width), num(height)
    return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        'role="img" font-family="sans-serif" font-size="12">',
        f"<title>{escape(title)}</title>",
        f'<rect class="background" x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>',
    ]


def nice_step(peak: float, ticks: int = 5) -> float:
    """A tick step of 1, 2 or 5 times a power of ten that splits 0..*peak* into at most *ticks* steps."""
    if peak <= 0:
        return 1.0
    raw = peak / ticks
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return factor * power
    return 10 * power  # pragma: no cover - the loop always returns


def lines_block(
    text: str,
    x: float,
    top: float,
    width: float,
    size: float,
    css: str,
    *,
    bold: bool = False,
    extra: str = "",
) -> tuple[list[str], float]:
    """*text* broken to *width* as ``<text class="css">`` lines from *top* down; returns the
    lines and the bottom of the block."""
    out = []
    y = top
    weight = ' font-weight="bold"' if bold else ""
    for line in text_lines(text, width, size, bold=bold):
        y += size * LINE
        out.append(
            f'<text class="{css}" x="{num(x)}" y="{num(y - size * 0.25)}" font-size="{num(size)}"'
            f"{weight}{extra}>{escape(line)}</text>"
        )
    return out, y


def legend_width(name: str) -> float:
    """The room one legend entry takes: the swatch, its name, a space after it."""
    return SWATCH + 4 + text_width(name, 12) + 20


def legend_block(
    names: Sequence[str], left: float, right: float, top: float
) -> tuple[list[str], float]:
    """A swatch and the name of each series, left to right, a new row where the next entry
    would pass *right*; returns the entries and the bottom of the block."""
    out = []
    x, y = left, top + 4
    for number, name in enumerate(names):
        step = legend_width(name)
        if x > left and x + step - 20 > right:
            x, y = left, y + 18
        colour = PALETTE[number % len(PALETTE)]
        out.append(
            f'<g class="legend"><rect x="{num(x)}" y="{num(y)}" width="{SWATCH}" height="{SWATCH}" '
            f'fill="{colour}"/><text x="{num(x + SWATCH + 4)}" y="{num(y + 10)}">{escape(name)}</text></g>'
        )
        x += step
    return out, (y + 18 if names else top)


def value_axis(
    top_value: float,
    step: float,
    tick: Callable[[float], str],
) -> tuple[list[tuple[float, str]], float]:
    """The ticks ``(value, text)`` of an axis 0..*top_value* by *step*, and the widest text."""
    count = round(top_value / step)
    ticks = [(n * step, tick(round(n * step, 9))) for n in range(count + 1)]
    return ticks, max(text_width(text, 12) for _, text in ticks)


def y_axis_block(
    ticks: Sequence[tuple[float, str]],
    label: str,
    left: float,
    plot: tuple[float, float, float, float],
    y_of: Callable[[float], float],
) -> list[str]:
    """The gridlines and values of the value axis, and its label turned upright (broken to
    the plot's height, each line in its own column left of the values)."""
    x0, top, x1, bottom = plot
    out = []
    for value, text in ticks:
        at = num(y_of(value))
        out.append(
            f'<line class="grid" x1="{num(x0)}" y1="{at}" x2="{num(x1)}" y2="{at}" stroke="#dddddd"/>'
        )
        out.append(
            f'<text class="tick" x="{num(x0 - 6)}" y="{at}" text-anchor="end" '
            f'dominant-baseline="middle">{escape(text)}</text>'
        )
    middle = num((top + bottom) / 2)
    for number, line in enumerate(text_lines(label, bottom - top, 12)):
        x = num(left + 12 + 15 * number)
        out.append(
            f'<text class="axis-label" x="{x}" y="{middle}" text-anchor="middle" '
            f'transform="rotate(-90 {x} {middle})">{escape(line)}</text>'
        )
    return out


def y_label_room(label: str, height: float) -> float:
    """The width the value axis's upright label takes, its lines side by side."""
    return 15 * len(text_lines(label, height, 12)) + 4
