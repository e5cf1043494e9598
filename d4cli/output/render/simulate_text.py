"""Human output of ``d4cli simulate``: the modes side by side, a bar chart of rounds, a progress bar."""

from __future__ import annotations

import time
from typing import Any

from rich.progress import Progress as RichProgress
from rich.table import Table

from d4cli.output.figuretext import (
    SHORT_NOTE,
    few_runs,
    figure_rows,
    heading,
    label,
    plural,
    rounds_shares,
    share_places,
    sweep_columns,
)
from d4cli.output.render import PIPE_WIDTH, console, escape
from d4cli.output.render.simtext import NOTE

BAR = 40


def print_report(report: dict[str, Any]) -> None:
    """The figures of each mode side by side, then a bar chart of rounds-to-finish per mode (draws apart)."""
    out = console()
    sides = tuple(report["sides"])
    modes = report["modes"]
    rows = figure_rows(modes, sides)
    short = out.width < natural_width(rows, [mode["mode"] for mode in modes])
    table = Table(title=escape(heading(report)), title_justify="left")
    table.add_column("figure (95% interval)")
    for mode in modes:
        table.add_column(mode["mode"], justify="right")
    for row in figure_rows(modes, sides, short=True) if short else rows:
        table.add_row(*(escape(cell) for cell in row))
    out.print(table)
    out.print(NOTE, markup=False)
    if short:
        out.print(SHORT_NOTE, markup=False)
    if few_runs(report["runs"]):
        out.print(f"{few_runs(report['runs'])}.", markup=False)
    for mode in modes:
        finished = mode["rounds"]["finished"]
        out.print(
            f"\nrounds to finish, {mode['mode']} ({finished:,} of {mode['runs']:,} finished):",
            markup=False,
        )
        for line in rounds_chart(mode, report["max_rounds"]):
            out.print(line, markup=False)


def print_sweep(report: dict[str, Any]) -> None:
    """A sweep, one table per mode: a row per figure (the label and its own values on one row,
    however the cells wrap), a column per setting; on a terminal the settings are paged into
    tables of as many columns as fit its width."""
    out = console()
    grid = [(row["value"], row["modes"]) for row in report["rows"]]
    key = report["sweep"]["key"]
    settings = [f"{key}={value}" for value, _ in grid]
    sides = tuple(report["sides"])
    shares = label("rounds_shares")  # Markdown and CSV carry it, not the table
    whole = [
        [figure, *cells] for _, figure, cells in sweep_columns(grid, sides) if figure != shares
    ]
    short = out.width < min(PIPE_WIDTH, natural_width(whole, settings))
    shares = label("rounds_shares", short=short)
    columns = [column for column in sweep_columns(grid, sides, short=short) if column[1] != shares]
    page = (
        len(settings)
        if out.width >= PIPE_WIDTH
        else max(1, (out.width - LABEL_WIDTH) // SETTING_WIDTH)
    )
    out.print(f"[bold]{escape(heading(report))}[/]")
    for mode in dict.fromkeys(mode for mode, _, _ in columns):
        rows = [(figure, cells) for name, figure, cells in columns if name == mode]
        for start in range(0, len(settings), page):
            shown = settings[start : start + page]
            title = f"{escape(mode)} mode"
            if len(shown) < len(settings):
                which = shown[0] if len(shown) == 1 else f"{shown[0]} .. {shown[-1]}"
                title += f", {escape(which)} of {len(settings)} settings"
            table = Table(title=title, title_justify="left", show_lines=True)
            table.add_column("figure (95% interval)", ratio=1)
            for setting in shown:
                table.add_column(escape(setting), justify="right")
            for figure, cells in rows:
                table.add_row(
                    escape(figure), *(escape(value) for value in cells[start : start + page])
                )
            out.print(table)
    out.print(
        NOTE + " --format markdown or csv adds the rounds-to-finish distributions.", markup=False
    )
    if short:
        out.print(SHORT_NOTE, markup=False)
    if few_runs(report["runs"]):
        out.print(f"{few_runs(report['runs'])}.", markup=False)


def natural_width(rows: list[list[str]], heads: list[str]) -> int:
    """The width of a table of *rows* under *heads* (after the figure column's) with no cell wrapped."""
    widths = [max(len(row[0]) for row in rows)] + [
        max([len(head)] + [len(row[number + 1]) for row in rows])
        for number, head in enumerate(heads)
    ]
    return sum(widths) + 3 * len(widths) + 1  # Rich's borders: "│ " and " │" around each cell


# A sweep table's figure column, and each setting's column, on a terminal (`print_sweep` pages by them).
LABEL_WIDTH = 34
SETTING_WIDTH = 20


def rounds_chart(mode: dict[str, Any], max_rounds: int) -> list[str]:
    """``  3 ######## 41%``: one bar per number of rounds of the finished fights, then the draws apart.

    Shares are of all runs, to the digits the runs support; the draws' line is labelled.
    """
    shares = rounds_shares(mode)
    if not shares:
        return []
    peak = max(share for _, share in shares)
    places = share_places(mode["runs"])
    draw = f"draw (stopped after {plural(max_rounds, 'round')})"
    width = max(len(key if key != "draw" else draw) for key, _ in shares)
    lines = []
    for key, share in shares:
        shown = f"{100 * share:.{places}f}"
        # A share shown as 0% draws no bar; any other draws at least one mark.
        bar = "#" * max(1, round(BAR * share / peak)) if float(shown) else ""
        label = key if key != "draw" else draw
        lines.append(f"  {label:>{width}} {bar:<{BAR}} {shown}%")
    return lines


class Progress:
    """A Rich progress bar on stderr, shown only on a terminal and only once a run passes a second.

    Called with the runs played so far and the runs in all (`d4cli.api.simulation.simulate`).
    """

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.bar: Any = None
        self.task: Any = None
        self.tty = console(stderr=True).is_terminal

    def __call__(self, done: int, total: int) -> None:
        if not self.tty:
            return
        if self.bar is None and time.monotonic() - self.started > 1.0:
            self.bar = RichProgress(console=console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("simulating", total=total)
        if self.bar is not None:
            self.bar.update(self.task, completed=done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
