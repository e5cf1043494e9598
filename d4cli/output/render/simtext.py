"""``d4cli simulate --format markdown|csv``: the whole report for a handbook or a spreadsheet.

Markdown carries every figure with its 95% interval, the rounds-to-finish
distribution (draws apart) and the run's encounter, runs, seed and
``--max-rounds``. CSV is one tidy row per number (`CSV_COLUMNS`, docs/cli.md):
each cell is a number, never a display string, except the encounter, sweep key,
mode, figure and side names.
"""

from __future__ import annotations

from typing import Any

from d4cli.output.csv_text import csv_table
from d4cli.output.figuretext import (
    estimates,
    few_runs,
    figure_rows,
    heading,
    plural,
    rounds_shares,
    share_places,
    shown,
    sweep_columns,
)
from d4cli.output.maptext import (
    capped_notes,
    chance_text,
    column_heads,
    corner,
    map_title,
    sweep_maps,
)
from d4cli.output.markdown import markdown_table, md_text

CSV_COLUMNS = (
    "encounter",
    "runs",
    "seed",
    "max_rounds",
    "sweep",
    "setting",
    "mode",
    "figure",
    "side",
    "bin",
    "value",
    "low",
    "high",
    "target_rule",
    "reserve",
)

NOTE = (
    "Rounds to finish count finished fights only; draws (fights stopped at --max-rounds) are "
    "counted apart. Per-turn and per-round figures count every round played, draws included."
)


def markdown_report(report: dict[str, Any], side: str | None = None) -> str:
    """The report as Markdown: a heading line, the figures table, the rounds-to-finish table;
    with two sweeps, each mode's map of *side*'s chance to win (default the first side)."""
    sides = tuple(report["sides"])
    lines = [f"**{md_text(heading(report))}**; 95% intervals in parentheses.", "", NOTE]
    if few_runs(report["runs"]):
        lines += ["", str(few_runs(report["runs"])) + "."]
    if len(report.get("sweeps", ())) > 1:
        lines += ["", map_markdown(report, side)]
        return "\n".join(lines)
    if "sweep" in report:
        lines += ["", sweep_markdown(report)]
        return "\n".join(lines)
    modes = report["modes"]
    lines += [
        "",
        markdown_table(["figure"] + [m["mode"] for m in modes], figure_rows(modes, sides)),
    ]
    lines += [
        "",
        "Rounds to finish, as a share of all runs:",
        "",
        _rounds_markdown(modes, report["max_rounds"]),
    ]
    return "\n".join(lines)


def sweep_markdown(report: dict[str, Any]) -> str:
    """One table per mode, a row per figure (with its interval) and a column per sweep setting:
    as many columns as settings, plus one, so a handbook page holds it."""
    grid = [(row["value"], row["modes"]) for row in report["rows"]]
    columns = sweep_columns(grid, tuple(report["sides"]))
    key = report["sweep"]["key"]
    header = ["figure"] + [f"{key}={value}" for value, _ in grid]
    parts = []
    for mode in dict.fromkeys(name for name, _, _ in columns):
        rows = [[figure, *cells] for name, figure, cells in columns if name == mode]
        parts.append(f"{md_text(mode)} mode:\n\n" + markdown_table(header, rows))
    return "\n\n".join(parts)


def map_markdown(report: dict[str, Any], side: str | None = None) -> str:
    """Each mode's balance map: a row per setting of the first sweep, a column per setting of
    the second, each cell the chance to win with its 95% interval."""
    parts = [md_text(note) for note in capped_notes(report)]
    for grid in sweep_maps(report, side):
        header = [corner(grid), *column_heads(grid)]
        rows = [
            [str(value), *(chance_text(chance, grid.places) for chance in row)]
            for value, row in zip(grid.row_values, grid.cells)
        ]
        parts.append(f"{md_text(map_title(grid))}:\n\n" + markdown_table(header, rows))
    return "\n\n".join(parts)


def _rounds_markdown(modes: list[dict[str, Any]], max_rounds: int) -> str:
    shares = [dict(rounds_shares(m)) for m in modes]
    keys = sorted({k for s in shares for k in s if k != "draw"}, key=int)
    rows = []
    for key in keys + ["draw"]:
        label = key if key != "draw" else f"draw (stopped after {plural(max_rounds, 'round')})"
        row = [label]
        for m, s in zip(modes, shares):
            row.append(
                f"{s[key] * 100:.{share_places(m['runs'])}f}%"
                if key in s
                else ("0%" if key == "draw" else "-")
            )
        rows.append(row)
    return markdown_table(["rounds"] + [m["mode"] for m in modes], rows)


def csv_rows(report: dict[str, Any]) -> list[list[Any]]:
    """Every number of the report as rows of `CSV_COLUMNS`: estimates first, then counts and histograms.

    ``value``/``low``/``high`` are fractions for rates and shares, with the digits the
    interval supports; ``low``/``high`` are empty where a figure has no interval;
    ``target_rule``/``reserve`` are every creature's when the run set them, else empty.
    """
    head = [report["encounter"], report["runs"], report["seed"], report["max_rounds"]]
    sides = tuple(report["sides"])
    if "cells" in report:
        keys = [sweep["key"] for sweep in report["sweeps"]]
        blocks = [
            (";".join(keys), ";".join(str(cell["settings"][key]) for key in keys), cell)
            for cell in report["cells"]
        ]
        if len(keys) == 1:  # one sweep: the setting as the number it is
            blocks = [(key, cell["settings"][keys[0]], cell) for key, _, cell in blocks]
    else:
        blocks = [("", "", m) for m in report["modes"]]
    policy = report.get("policy") or {}
    tail = [_blank(policy.get("target")), _blank(policy.get("reserve"))]
    rows: list[list[Any]] = []
    for key, setting, m in blocks:
        start = head + [key, setting, m["mode"]]
        rows += [start + figure + tail for figure in _mode_rows(m, sides)]
    return rows


def _mode_rows(m: dict[str, Any], sides: tuple[str, ...]) -> list[list[Any]]:
    """``[figure, side, bin, value, low, high]`` rows of one mode."""
    rows: list[list[Any]] = []
    for _, name, side, figure, key, _ in estimates(m, sides):
        value, low, high = figure[key], figure["low"], figure["high"]
        if value is None:
            rows.append([name, side, "", "", "", ""])
            continue
        bounds = ["", ""] if low is None else [shown(low, low, high), shown(high, low, high)]
        rows.append([name, side, "", shown(value, low, high)] + bounds)
    rounds = m["rounds"]
    rows.append(["rounds_median", "", "", _blank(rounds["median"]), "", ""])
    rows.append(["rounds_p90", "", "", _blank(rounds["p90"]), "", ""])
    rows += [["wins", side, "", m["wins"][side]["wins"], "", ""] for side in sides]
    rows.append(["draws", "", "", m["draws"]["draws"], "", ""])
    rows.append(["finished", "", "", rounds["finished"], "", ""])
    rows += [
        ["finished_in_rounds", "", k, count, "", ""] for k, count in rounds["histogram"].items()
    ]
    rows.append(["turns", "", "", m["turns"], "", ""])
    rows += [
        ["turns_at_load", "", load, round(share * m["turns"]), "", ""]
        for load, share in m["load_at_turn_start"].items()
    ]
    return rows


def _blank(value: Any) -> Any:
    return "" if value is None else value


def csv_report(report: dict[str, Any]) -> str:
    """The report as CSV text (RFC 4180 quoting): the `CSV_COLUMNS` header, then `csv_rows`."""
    return csv_table(CSV_COLUMNS, csv_rows(report))
