"""A chance at whole-number settings on a numeric axis, as one standalone SVG document
(``balance --format svg``): a point per value played at its place on the axis (hp 5, 9, 11
spaced by value), its 95% interval as a whisker, the target as a dashed line, the value
found marked. Laid out by `d4cli.output.render.svgtext`, so no text overlaps another.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from d4cli.output.render.svgtext import (
    PALETTE,
    attr,
    lines_block,
    nice_step,
    num,
    svg_open,
    text_width,
    value_axis,
    y_axis_block,
    y_label_room,
)

PLOT_HEIGHT = 240
PLOT_WIDTH = 480
MARGIN = 12
TARGET_INK = "#e15759"


@dataclass(frozen=True)
class ChancePoint:
    """A chance at one value: ``rate`` and its interval ``low``..``high`` (0..1), as shown."""

    value: int
    rate: float
    low: float
    high: float
    shown: str


def chance_chart(
    title: str,
    subtitle: str,
    x_label: str,
    y_label: str,
    points: Sequence[ChancePoint],
    target: float,
    found: int | None = None,
) -> str:
    """The chance at each value on a numeric axis, 0..100%, with the *target* line (0..1) and
    the value *found* marked; *subtitle* under the title (the value found, how it was played)."""
    ticks, tick_w = value_axis(1.0, 0.2, lambda share: f"{100 * share:g}%")
    target_text = f"target {100 * target:g}%"
    left = MARGIN + y_label_room(y_label, PLOT_HEIGHT) + math.ceil(tick_w) + 8
    right = math.ceil(text_width(target_text, 11)) + 14  # the target's label, right of the plot
    width = left + PLOT_WIDTH + right
    out, y = lines_block(title, MARGIN, 6, width - 2 * MARGIN, 16, "title", bold=True)
    lines, y = lines_block(
        subtitle, MARGIN, y, width - 2 * MARGIN, 12, "subtitle", extra=' fill="#555"'
    )
    out += lines
    top = y + 14
    base = top + PLOT_HEIGHT
    x_ticks, (low, high) = _x_ticks([point.value for point in points])

    def x_of(value: float) -> float:
        return left + PLOT_WIDTH * (value - low) / (high - low)

    def y_of(share: float) -> float:
        return base - PLOT_HEIGHT * share

    out += y_axis_block(ticks, y_label, MARGIN, (left, top, left + PLOT_WIDTH, base), y_of)
    out.append(
        f'<line class="axis" x1="{left}" y1="{num(base)}" x2="{left + PLOT_WIDTH}" y2="{num(base)}" '
        'stroke="#333333"/>'
    )
    for value in x_ticks:
        at = num(x_of(value))
        out.append(
            f'<line class="x-tick" x1="{at}" y1="{num(base)}" x2="{at}" y2="{num(base + 4)}" stroke="#333333"/>'
        )
        out.append(
            f'<text class="x-tick-label" x="{at}" y="{num(base + 17)}" text-anchor="middle">{value}</text>'
        )
    at = num(y_of(target))
    out.append(
        f'<line class="target" x1="{left}" y1="{at}" x2="{left + PLOT_WIDTH}" y2="{at}" '
        f'stroke="{TARGET_INK}" stroke-dasharray="6 4"/>'
    )
    out.append(
        f'<text class="target-label" x="{left + PLOT_WIDTH + 6}" y="{at}" font-size="11" '
        f'dominant-baseline="middle" fill="{TARGET_INK}">{escape(target_text)}</text>'
    )
    out += _points(points, found, x_of, y_of)
    lines, bottom = lines_block(
        x_label,
        left + PLOT_WIDTH / 2,
        base + 22,
        PLOT_WIDTH,
        12,
        "axis-label",
        extra=' text-anchor="middle"',
    )
    out += lines
    height = math.ceil(bottom + MARGIN)
    return "\n".join([*svg_open(title, width, height), *out, "</svg>"])


def _points(
    points: Sequence[ChancePoint],
    found: int | None,
    x_of: Callable[[float], float],
    y_of: Callable[[float], float],
) -> list[str]:
    """Each point with its whisker (the interval) and a tooltip; the value found ringed."""
    out = []
    colour = PALETTE[0]
    for point in points:
        x = num(x_of(point.value))
        out.append(
            f'<line class="interval" x1="{x}" y1="{num(y_of(point.low))}" x2="{x}" '
            f'y2="{num(y_of(point.high))}" stroke="{colour}" stroke-width="2"/>'
        )
        css = "point found" if point.value == found else "point"
        ring = ' stroke="#000000" stroke-width="2"' if point.value == found else ""
        out.append(
            f'<circle class="{css}" cx="{x}" cy="{num(y_of(point.rate))}" r="4" fill="{colour}"'
            f'{ring} data-value="{point.value}"><title>{attr(f"{point.value}: {point.shown}")}</title></circle>'
        )
    return out


def _x_ticks(values: Sequence[int]) -> tuple[list[int], tuple[float, float]]:
    """Whole-number ticks over the values played, at most about eight, and the axis's ends
    (a little past the first and last value, so no point sits on the frame)."""
    first, last = min(values), max(values)
    span = max(1, last - first)
    step = max(1, int(nice_step(span, 8)))
    widest = max(text_width(str(value), 12) for value in (first, last)) + 8
    while PLOT_WIDTH * step / span < widest:  # labels a step apart never meet
        step *= 2
    pad = max(0.5, span * 0.04)
    start = math.ceil((first - pad) / step) * step
    ticks = list(range(start, math.floor(last + pad) + 1, step))
    return ticks, (first - pad, last + pad)
