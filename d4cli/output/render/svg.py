"""Charts as standalone SVG documents: grouped bars with a title, axis labels, a legend and values on bars.

Written with the standard library (no Rich renderable): `--format svg` of ``recap`` and ``simulate`` imports it, nothing else does.
The same chart gives the same bytes: the geometry is whole pixels and every number is formatted here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from d4cli.output.figuretext import heading, plural, rounds_shares, share_places
from d4cli.output.render import recap_tables as recap

# Colours of the series in order (then again from the first).
PALETTE = ("#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2", "#edc948", "#9c755f")
BAR = 26  # width of one bar
GAP = 18  # between two groups of bars
PLOT_HEIGHT = 220
LEFT, RIGHT, TOP = 64, 24, 64  # margins around the plot; TOP holds the title and the legend
BOTTOM = 56  # the category labels and the x axis label
MIN_PLOT_WIDTH = 320


@dataclass(frozen=True)
class Series:
    """One series of bars: its name (the legend), a value per category (None: no bar) and the text on each bar."""

    name: str
    values: Sequence[float | None]
    shown: Sequence[str]


def _attr(text: str) -> str:
    return escape(text, {'"': "&quot;"})


def _num(value: float) -> str:
    """A coordinate: whole pixels as integers, else one decimal (the same bytes every time)."""
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else f"{rounded:.1f}"


def _legend_step(name: str) -> int:
    """The room one legend entry takes: the swatch, its name (about 8 px a letter), a space."""
    return 16 + 8 * len(name) + 20


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


def bar_chart(
    title: str,
    x_label: str,
    y_label: str,
    categories: Sequence[str],
    series: Sequence[Series],
    tick: Callable[[float], str] = lambda value: f"{value:g}",
) -> str:
    """A grouped bar chart: per category one bar per series, scaled to the largest value, as one SVG document."""
    groups = max(1, len(categories))
    group_width = BAR * max(1, len(series)) + GAP
    legend_width = sum(_legend_step(s.name) for s in series)
    # Wide enough for the bars, the title (about 9 px a letter at 16 px) and the legend in one line.
    plot_width = max(MIN_PLOT_WIDTH, groups * group_width, 9 * len(title) - LEFT, legend_width)
    slot = plot_width / groups  # each category's share of the axis, its bars centred in it
    width, height = LEFT + plot_width + RIGHT, TOP + PLOT_HEIGHT + BOTTOM
    peak = max((value for s in series for value in s.values if value is not None), default=0.0)
    step = nice_step(peak)
    top = step * max(1, math.ceil(peak / step - 1e-9))
    base = TOP + PLOT_HEIGHT

    def y(value: float) -> float:
        return base - PLOT_HEIGHT * value / top

    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        'role="img" font-family="sans-serif" font-size="12">',
        f"<title>{escape(title)}</title>",
        f'<rect class="background" x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text class="title" x="{LEFT}" y="24" font-size="16" font-weight="bold">{escape(title)}</text>',
    ]
    # The legend: a swatch and the name of each series, left to right.
    x = LEFT
    for number, s in enumerate(series):
        colour = PALETTE[number % len(PALETTE)]
        out.append(
            f'<g class="legend"><rect x="{x}" y="36" width="12" height="12" fill="{colour}"/>'
            f'<text x="{x + 16}" y="46">{escape(s.name)}</text></g>'
        )
        x += _legend_step(s.name)
    # The y axis: gridlines and their values, then its label turned upright.
    count = round(top / step)
    for n in range(count + 1):
        value = n * step
        at = _num(y(value))
        out.append(
            f'<line class="grid" x1="{LEFT}" y1="{at}" x2="{LEFT + plot_width}" y2="{at}" stroke="#dddddd"/>'
        )
        out.append(
            f'<text class="tick" x="{LEFT - 6}" y="{at}" text-anchor="end" dominant-baseline="middle">'
            f"{escape(tick(round(value, 9)))}</text>"
        )
    middle = _num(TOP + PLOT_HEIGHT / 2)
    out.append(
        f'<text class="axis-label" x="18" y="{middle}" text-anchor="middle" '
        f'transform="rotate(-90 18 {middle})">{escape(y_label)}</text>'
    )
    # The bars, a group per category, each with its value above it and a tooltip.
    for index, category in enumerate(categories):
        left = LEFT + index * slot + (slot - BAR * len(series)) / 2
        for number, s in enumerate(series):
            amount = s.values[index]
            if amount is None:
                continue
            colour = PALETTE[number % len(PALETTE)]
            x0 = left + number * BAR
            y0 = y(amount)
            out.append(
                f'<rect class="bar" x="{_num(x0 + 1)}" y="{_num(y0)}" width="{BAR - 2}" height="{_num(base - y0)}" '
                f'fill="{colour}" data-series="{_attr(s.name)}" data-category="{_attr(category)}">'
                f"<title>{escape(f'{s.name}, {x_label} {category}: {s.shown[index]}')}</title></rect>"
            )
            out.append(
                f'<text class="value" x="{_num(x0 + BAR / 2)}" y="{_num(y0 - 4)}" text-anchor="middle" '
                f'font-size="10">{escape(s.shown[index])}</text>'
            )
        centre = _num(LEFT + index * slot + slot / 2)
        out.append(
            f'<text class="category" x="{centre}" y="{base + 16}" text-anchor="middle">{escape(category)}</text>'
        )
    # The x axis and its label.
    out.append(
        f'<line class="axis" x1="{LEFT}" y1="{base}" x2="{LEFT + plot_width}" y2="{base}" stroke="#333333"/>'
    )
    out.append(
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{base}" stroke="#333333"/>'
    )
    out.append(
        f'<text class="axis-label" x="{_num(LEFT + plot_width / 2)}" y="{height - 12}" '
        f'text-anchor="middle">{escape(x_label)}</text>'
    )
    out.append("</svg>")
    return "\n".join(out)


def recap_svg(report: dict[str, Any]) -> str:
    """``recap --format svg``: the damage each side dealt per round (hp taken off, R16), a group of bars per round."""
    rounds = report["damage_per_round"]
    series = []
    for side in report["sides"]:
        values = [r["sides"].get(side, 0) for r in rounds]
        series.append(Series(side, values, [str(value) for value in values]))
    return bar_chart(
        f"{recap.heading(report)}: damage per round",
        "round",
        "hp taken off (R16)",
        [str(r["round"]) for r in rounds],
        series,
        tick=lambda value: f"{value:g}",
    )


def simulate_svg(report: dict[str, Any]) -> str:
    """``simulate --format svg``: rounds to finish, a bar per mode for each number of rounds, then the draws.

    Shares are of all runs, to the digits the runs support (as the terminal chart shows them).
    """
    modes = report["modes"]
    shares = [dict(rounds_shares(mode)) for mode in modes]
    keys = sorted({key for s in shares for key in s if key != "draw"}, key=int)
    if any("draw" in s for s in shares):
        keys.append("draw")
    labels = [
        key if key != "draw" else f"draw (after {plural(report['max_rounds'], 'round')})"
        for key in keys
    ]
    series = []
    for mode, share in zip(modes, shares):
        places = share_places(mode["runs"])
        values = [100 * share[key] if key in share else None for key in keys]
        series.append(
            Series(
                mode["mode"],
                values,
                ["" if value is None else f"{value:.{places}f}%" for value in values],
            )
        )
    return bar_chart(
        f"{heading(report)}: rounds to finish",
        "rounds",
        "share of runs (%)",
        labels,
        series,
        tick=lambda value: f"{value:g}%",
    )
