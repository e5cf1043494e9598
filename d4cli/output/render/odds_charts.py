"""Human output for odds: summary lines, a bar chart of the totals, the designers' grids.

Bars for totals that succeed (at or above the DC, R7/C2) or deal damage (above
the Evasion, R7) are drawn with a different character (``#`` against ``-``)
as well as a different style, so the chart reads the same with ``NO_COLOR`` and
through a pipe. Markdown and CSV are plain text (no Rich) for pasting.
"""

from __future__ import annotations

import csv
import io
import math
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from d4cli.odds.distribution import Distribution, fraction_text
from d4cli.odds.grid_exact import grid_fractions
from d4cli.odds.grids import EXPECTED_DAMAGE, Grid, pool_notation
from d4cli.odds.roll_odds import CheckOdds, PoolOdds
from d4cli.output.gridtext import grid_title, row_header, row_label
from d4cli.output.markdown import Align, markdown_table, md_text
from d4cli.output.render import PIPE_WIDTH, escape

# Bar characters: at/above the line (success, damage) and below it.
HIT_BAR = "#"
MISS_BAR = "-"
HIT_STYLE = "bold green"
MISS_STYLE = "dim"
BAR_WIDTH = 40
# The chart shows at most this many rows; wider distributions are grouped.
MAX_ROWS = 40
# Totals in the tails beyond this much probability on each side are left out.
TAIL = 0.00005
# Exact fractions are shown beside a percentage up to this denominator.
MAX_SHOWN_DENOMINATOR = 1_000_000


def percent(p: float | Fraction, digits: int = 2, *, column: bool = False) -> str:
    """``65.14%``: *p* (a float or an exact Fraction) rounded half up to *digits* decimals.

    ``0%`` and ``100%`` only when *p* is exactly 0 or 1 (odds floats are never
    0.0 or 1.0 otherwise, `d4cli.odds.distribution.edge_safe`); with *column* (a cell of
    a table's column, where every cell has one precision) ``0.0%`` and ``100.0%``. A
    probability that would round to the edge shows ``<0.01%`` or ``>99.99%`` (as many
    decimals as *digits*). Rounding is of the exact value, decimal half up: 1/16 is
    ``6.25%``, or ``6.3%`` to one decimal, never ``6.2%``.
    """
    if p <= 0:
        return f"{_decimal(0, digits)}%" if column else "0%"
    if p >= 1:
        return f"{_decimal(100 * 10**digits, digits)}%" if column else "100%"
    scale = 10**digits
    units = math.floor(Fraction(p) * 100 * scale + Fraction(1, 2))
    if units <= 0:
        return f"<{_decimal(1, digits)}%"
    if units >= 100 * scale:
        return f">{_decimal(100 * scale - 1, digits)}%"
    return f"{_decimal(units, digits)}%"


def _decimal(units: int, digits: int) -> str:
    """*units* of ``10**-digits`` as a decimal: ``_decimal(625, 2) == "6.25"``."""
    if digits == 0:
        return str(units)
    whole, part = divmod(units, 10**digits)
    return f"{whole}.{part:0{digits}d}"


def _with_fraction(p: float, exact: Fraction | None) -> str:
    text = percent(p if exact is None else exact)
    if exact is not None and 1 < exact.denominator <= MAX_SHOWN_DENOMINATOR:
        text += f" = {exact.numerator}/{exact.denominator}"
    return text


def _method(distribution: Distribution) -> str:
    if distribution.exact:
        return "exact"
    return "fixed-point, error below 1e-15"


def _number(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


def pool_summary(odds: PoolOdds) -> list[str]:
    """The lines beside a pool roll: mean, chance of success or expected damage (R7)."""
    dist = odds.distribution
    dice = pool_notation(odds.pool_size, odds.extra)
    lines = [
        f"Odds of {dice} ({_method(dist)}): totals {dist.low}..{dist.high}, mean {_number(dist.mean)}"
    ]
    if odds.dc is not None and odds.p_success is not None:
        lines.append(
            f"Chance of success (total >= DC {odds.dc}): "
            + _with_fraction(odds.p_success, odds.success_exact)
            + " (R7)"
        )
    if odds.evasion is not None and odds.expected_damage is not None:
        any_damage = odds.p_any_damage or 0.0
        lines.append(
            f"Expected damage against Evasion {odds.evasion}: {_number(odds.expected_damage)}; "
            f"chance of any damage (total >= {odds.evasion + 1}): {percent(odds.any_damage_exact or any_damage)} (R7)"
        )
    return lines


def check_summary(odds: CheckOdds) -> list[str]:
    """The lines beside an Action Roll: chance of success, crits, Rule of Three (C2, C5-C7)."""
    dist = odds.distribution
    lines = [f"Odds ({_method(dist)}): Results {dist.low}..{dist.high}, mean {_number(dist.mean)}"]
    if odds.p_success is not None:
        lines.append(
            f"Chance of success (Result >= DC {odds.dc}, a natural 1 fails): "
            + _with_fraction(odds.p_success, odds.success)
            + " (C2, C6)"
        )
    lines.append(
        f"Natural 20 (critical success, +1d6): {percent(odds.p_critical_success)}; "
        f"natural 1 (critical failure): {percent(odds.p_critical_failure)} (C5, C6)"
    )
    if odds.p_success_and is not None and odds.p_failure_but is not None:
        lines.append(
            f"Succeeds, and... (beats the DC by 4+): {_with_fraction(odds.p_success_and, odds.success_and)}; "
            f"fails, but... (misses by 1-2): {_with_fraction(odds.p_failure_but, odds.failure_but)} (C7)"
        )
    return lines


def _visible(dist: Distribution) -> tuple[int, int]:
    """The totals worth drawing: all of them, or all but tails of `TAIL` each."""
    if len(dist) <= MAX_ROWS:
        return dist.low, dist.high
    probabilities = dist.probabilities
    first, mass = 0, 0.0
    while first < len(probabilities) - 1 and mass + probabilities[first] <= TAIL:
        mass += probabilities[first]
        first += 1
    last, mass = len(probabilities) - 1, 0.0
    while last > first and mass + probabilities[last] <= TAIL:
        mass += probabilities[last]
        last -= 1
    return dist.low + first, dist.low + last


def _bins(low: int, high: int, line: int | None) -> list[tuple[int, int]]:
    """Split low..high into at most about `MAX_ROWS` bins, one of them starting at *line*."""
    width = math.ceil((high - low + 1) / MAX_ROWS)
    if width <= 1:
        return [(t, t) for t in range(low, high + 1)]
    anchor = line if line is not None and low < line <= high else low
    start = anchor - width * math.ceil((anchor - low) / width)
    bins = []
    while start <= high:
        bins.append((max(start, low), min(start + width - 1, high)))
        start += width
    return bins


def distribution_chart(
    dist: Distribution,
    line: int | None = None,
    line_label: str = "",
    title: str = "Chance of each total",
    header: str = "Total",
) -> Group:
    """A bar chart of *dist*: one line per total (or per group of totals), no padding.

    Args:
        dist: the distribution.
        line: totals at or above it are drawn with `HIT_BAR` (success, damage).
        line_label: what reaching the line means, for the legend (``total >= DC 12``).
        title: the chart's title.
        header: the name of the first column (``Total``, ``Result``).

    Returns:
        A Rich `Group` of `Text` lines: title, header, bars, legend.
    """
    low, high = _visible(dist)
    bins = _bins(low, high, line)
    masses = [math.fsum(dist.probabilities[a - dist.low : b - dist.low + 1]) for a, b in bins]
    peak = max(masses) or 1.0
    labels = [str(a) if a == b else f"{a}-{b}" for a, b in bins]
    chances = [percent(mass) for mass in masses]
    label_width = max(len(header), *(len(label) for label in labels))
    chance_width = max(len("Chance"), *(len(chance) for chance in chances))
    lines = [
        Text(title, style="bold"),
        Text(f"{header:>{label_width}}  {'Chance':>{chance_width}}", style="bold"),
    ]
    for (a, _), label, chance, mass in zip(bins, labels, chances, masses):
        hit = line is not None and a >= line
        length = round(BAR_WIDTH * mass / peak)
        if length == 0 and mass > 0:
            length = 1
        text = Text(f"{label:>{label_width}}  {chance:>{chance_width}}  ")
        text.append((HIT_BAR if hit else MISS_BAR) * length, style=HIT_STYLE if hit else MISS_STYLE)
        lines.append(text)
    notes = []
    if line is not None:
        notes.append(f"{HIT_BAR} {line_label}; {MISS_BAR} below")
    if low > dist.low or high < dist.high:
        hidden = dist.p_at_least(high + 1) + (1 - dist.p_at_least(low))
        notes.append(
            f"possible {dist.low}..{dist.high}; outside {low}..{high}: {percent(max(0.0, hidden))}"
        )
    if notes:
        lines.append(Text("; ".join(notes), style="italic"))
    return Group(*lines)


def render_pool_odds(odds: PoolOdds, plan: Any = None) -> Group:
    """Summary lines and the chart for a pool roll's ``--odds`` (R5-R7).

    Args:
        odds: from `d4cli.odds.roll_odds.pool_odds`.
        plan: the roll's plan (unused; the odds carry the DC and Evasion).
    """
    if odds.dc is not None:
        line, label = odds.dc, f"total >= DC {odds.dc} (success)"
    elif odds.evasion is not None:
        line, label = odds.evasion + 1, f"total > Evasion {odds.evasion} (damage)"
    else:
        line, label = None, ""
    return Group(
        *(Text(text) for text in pool_summary(odds)),
        distribution_chart(odds.distribution, line, label),
    )


def render_check_odds(odds: CheckOdds, request: Any = None) -> Group:
    """Summary lines and the chart for an Action Roll's ``--odds`` (C1-C7).

    Args:
        odds: from `d4cli.odds.check_odds.check_odds`.
        request: the check (unused; the odds carry it).
    """
    dc = odds.dc
    label = f"Result >= DC {dc} (success unless a natural 1)" if dc is not None else ""
    return Group(
        *(Text(text) for text in check_summary(odds)),
        distribution_chart(odds.distribution, dc, label, "Chance of each Result", "Result"),
    )


# ---------------------------------------------------------------------------
# Grids


def cell_text(grid: Grid, value: float) -> str:
    """A grid value for people: a percentage to 1 decimal (``0.0%`` and ``100.0%`` at the edges:
    one precision per column), or an expected damage to 2 decimals."""
    if grid.quantity == EXPECTED_DAMAGE:
        # Half up on the value's exact decimal expansion: 0.125 is 0.13, never 0.12.

        return str(Decimal(value).quantize(Decimal("0.01"), ROUND_HALF_UP))
    return percent(value, 1, column=True)


def column_header(grid: Grid, column: int) -> str:
    return f"{'Evasion' if grid.column_key == 'evasion' else 'DC'} {column}"


def settings_line(grid: Grid) -> str:
    """The fixed inputs of *grid* in words: ``Load 0, Net Advantage 0, extra dice 1d8``."""
    names = {
        "load": "Load",
        "net_advantage": "Net Advantage",
        "extra": "extra dice",
        "modifiers": "modifiers",
    }
    parts = []
    for key, value in grid.settings:
        if isinstance(value, tuple):
            if not value:
                continue
            value = " ".join(str(item) for item in value)
        parts.append(f"{names.get(key, key)} {value}")
    return ", ".join(parts)


def grid_table(grid: Grid, columns: range | None = None, pages: int = 1) -> Table:
    """A grid as a Rich table, the settings in the caption; *columns*: only those (a page of
    `grid_pages`, one of *pages*), the title saying which."""
    shown = range(len(grid.columns)) if columns is None else columns
    title = escape(grid_title(grid))
    if pages > 1:
        first, last = grid.columns[shown[0]], grid.columns[shown[-1]]
        title += f" ({column_header(grid, first)} .. {column_header(grid, last)}; {len(shown)} of {len(grid.columns)} columns)"
    table = Table(title=title, title_justify="left")
    table.add_column(escape(row_header(grid)), style="bold", no_wrap=True)
    for index in shown:
        table.add_column(column_header(grid, grid.columns[index]), justify="right", no_wrap=True)
    for row in grid.rows:
        table.add_row(
            escape(row_label(grid, row)), *(cell_text(grid, row.values[index]) for index in shown)
        )
    settings = settings_line(grid)
    if settings:
        table.caption = escape(settings)
        table.caption_justify = "left"
    return table


def grid_pages(grid: Grid, width: int) -> list[Table]:
    """The grid as tables of as many columns as fit *width* (a terminal's), each row label
    repeated: a wide grid reads as pages of columns, never as one line per cell."""
    if width >= PIPE_WIDTH or not grid.columns:
        return [grid_table(grid)]
    label = max([len(row_header(grid))] + [len(row_label(grid, row)) for row in grid.rows]) + 3
    cell = max(len(column_header(grid, column)) for column in grid.columns)
    cell = (
        max([cell] + [len(cell_text(grid, value)) for row in grid.rows for value in row.values]) + 3
    )
    per_page = max(1, (width - label - 1) // cell)
    starts = range(0, len(grid.columns), per_page)
    return [
        grid_table(grid, range(start, min(start + per_page, len(grid.columns))), len(starts))
        for start in starts
    ]


def grid_markdown(grid: Grid, *, titled: bool = True) -> str:
    """A grid as a GitHub pipe table (`d4cli.output.markdown.markdown_table`): the labels
    left-aligned, the values right-aligned; one row per row, a newline at the end. *titled*:
    the grid's title in bold and its settings (Load, Net Advantage, extra dice, modifiers)
    come first, so the table says what it holds wherever it is pasted."""
    head = f"**{md_text(grid_title(grid))}**\n\n"
    settings = settings_line(grid)
    if settings:
        head += f"Settings: {md_text(settings)}.\n\n"
    header = [row_header(grid), *(column_header(grid, column) for column in grid.columns)]
    rows = [
        [row_label(grid, row), *(cell_text(grid, value) for value in row.values)]
        for row in grid.rows
    ]
    align: list[Align] = ["left"]
    align += ("right" for _ in grid.columns)
    return (head if titled else "") + markdown_table(header, rows, align) + "\n"


def grid_csv(grid: Grid) -> str:
    """A grid as CSV: ``label``, the row keys, one column per DC or Evasion (full floats),
    then the same columns exact (``dc=12 exact``: a fraction such as ``667/1024``; empty
    where the grid is not exact, `d4cli.odds.grid_exact`), then the grid's ``title`` and its
    settings (`settings_columns`), the same on every row, so a spreadsheet keeps them."""
    fixed = settings_columns(grid)
    keys: list[str] = []
    for row in grid.rows:
        keys += [key for key, _ in row.keys if key not in keys]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    columns = [f"{grid.column_key}={column}" for column in grid.columns]
    writer.writerow(
        ["label", *keys, *columns, *(f"{column} exact" for column in columns), "title", *fixed]
    )
    for row, exact in zip(grid.rows, grid_fractions(grid)):
        known = dict(row.keys)
        writer.writerow(
            [
                row_label(grid, row),
                *(known.get(key, "") for key in keys),
                *(repr(value) for value in row.values),
                *(fraction_text(value) or "" for value in exact),
                grid_title(grid),
                *fixed.values(),
            ]
        )
    return out.getvalue()


def settings_columns(grid: Grid) -> dict[str, str]:
    """The grid's fixed inputs as CSV columns: ``load``, ``net_advantage``, ``extra``
    (dice joined by spaces), ``modifiers``, ... as the grid holds them."""
    return {
        key: " ".join(str(item) for item in value) if isinstance(value, tuple) else str(value)
        for key, value in grid.settings
    }


def format_grid(grid: Grid, fmt: str) -> str | Table:
    """The grid in *fmt*: a Rich table for ``table``, text for ``markdown`` and ``csv``."""
    if fmt == "markdown":
        return grid_markdown(grid)
    if fmt == "csv":
        return grid_csv(grid)
    return grid_table(grid)
