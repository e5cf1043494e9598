"""Charts as standalone SVG documents: grouped bars with a title, axis labels, a legend and values on bars.

Written with the standard library (no Rich renderable): `--format svg` of ``recap`` and ``simulate`` imports it, nothing else does.
The layout (`d4cli.output.render.svgtext`) breaks the title, the axis labels and the category
labels to the chart's width and widens the bars to their values, so no text overlaps another
at any length. The same chart gives the same bytes: every number is formatted there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from d4cli.output.figuretext import heading, plural, rounds_shares, share_places
from d4cli.output.render import recap_tables as recap
from d4cli.output.render.svgtext import (
    PALETTE,
    attr,
    legend_block,
    legend_width,
    lines_block,
    nice_step,
    num,
    svg_open,
    text_width,
    value_axis,
    y_axis_block,
    y_label_room,
)

__all__ = ["Series", "bar_chart", "nice_step", "recap_svg", "simulate_svg"]

BAR = 26  # the narrowest bar
GAP = 18  # between two groups of bars
PLOT_HEIGHT = 220
MARGIN = 12  # around everything
RIGHT = 24
MIN_PLOT_WIDTH = 320
VALUE_FONT = 10


@dataclass(frozen=True)
class Series:
    """One series of bars: its name (the legend), a value per category (None: no bar) and the text on each bar."""

    name: str
    values: Sequence[float | None]
    shown: Sequence[str]


def bar_chart(
    title: str,
    x_label: str,
    y_label: str,
    categories: Sequence[str],
    series: Sequence[Series],
    tick: Callable[[float], str] = lambda value: f"{value:g}",
) -> str:
    """A grouped bar chart: per category one bar per series, scaled to the largest value, as one SVG document.

    Every bar is as wide as the widest value shown on a bar, so two values never meet; the
    title, the legend, the category labels and the axis labels break into lines that fit.
    """
    peak = max((value for s in series for value in s.values if value is not None), default=0.0)
    step = nice_step(peak)
    top_value = step * max(1, math.ceil(peak / step - 1e-9))
    ticks, tick_w = value_axis(top_value, step, tick)
    shown = [text for s in series for text in s.shown]
    bar = max(BAR, math.ceil(max((text_width(t, VALUE_FONT) for t in shown), default=0)) + 4)
    groups = max(1, len(categories))
    group_width = bar * max(1, len(series)) + GAP
    widest_entry = max((legend_width(s.name) for s in series), default=0.0)
    plot_width = max(MIN_PLOT_WIDTH, groups * group_width, math.ceil(widest_entry))
    slot = plot_width / groups  # each category's share of the axis, its bars centred in it
    left = MARGIN + y_label_room(y_label, PLOT_HEIGHT) + math.ceil(tick_w) + 8
    width = math.ceil(left + plot_width + RIGHT)
    out, y = lines_block(title, MARGIN, 6, width - 2 * MARGIN, 16, "title", bold=True)
    legend, y = legend_block([s.name for s in series], left, width - RIGHT, y + 6)
    out += legend
    top = y + 8 + VALUE_FONT  # room for a value above the tallest bar
    base = top + PLOT_HEIGHT

    def y_of(value: float) -> float:
        return base - PLOT_HEIGHT * value / top_value

    out += y_axis_block(ticks, y_label, MARGIN, (left, top, left + plot_width, base), y_of)
    bottom = base + 4
    for index, category in enumerate(categories):
        start = left + index * slot + (slot - bar * len(series)) / 2
        for number, s in enumerate(series):
            amount = s.values[index]
            if amount is None:
                continue
            colour = PALETTE[number % len(PALETTE)]
            x0 = start + number * bar
            y0 = y_of(amount)
            out.append(
                f'<rect class="bar" x="{num(x0 + 1)}" y="{num(y0)}" width="{bar - 2}" height="{num(base - y0)}" '
                f'fill="{colour}" data-series="{attr(s.name)}" data-category="{attr(category)}">'
                f"<title>{escape(f'{s.name}, {x_label} {category}: {s.shown[index]}')}</title></rect>"
            )
            out.append(
                f'<text class="value" x="{num(x0 + bar / 2)}" y="{num(y0 - 4)}" text-anchor="middle" '
                f'font-size="{VALUE_FONT}">{escape(s.shown[index])}</text>'
            )
        centre = left + index * slot + slot / 2
        lines, end = lines_block(
            category, centre, base + 2, slot - 6, 12, "category", extra=' text-anchor="middle"'
        )
        out += lines
        bottom = max(bottom, end)
    out.append(
        f'<line class="axis" x1="{num(left)}" y1="{num(base)}" x2="{num(left + plot_width)}" '
        f'y2="{num(base)}" stroke="#333333"/>'
    )
    out.append(
        f'<line class="axis" x1="{num(left)}" y1="{num(top)}" x2="{num(left)}" y2="{num(base)}" '
        'stroke="#333333"/>'
    )
    lines, bottom = lines_block(
        x_label,
        left + plot_width / 2,
        bottom + 4,
        plot_width,
        12,
        "axis-label",
        extra=' text-anchor="middle"',
    )
    out += lines
    height = math.ceil(bottom + MARGIN)
    return "\n".join([*svg_open(title, width, height), *out, "</svg>"])


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
