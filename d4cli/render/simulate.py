"""Human output of ``d4cli simulate``: the modes side by side, a bar chart of rounds, a progress bar."""

from __future__ import annotations

import time
from typing import Any

from d4cli.render import console

BAR = 40


def print_report(report: dict[str, Any]) -> None:
    """The figures of each mode side by side, then a bar chart of rounds-to-finish per mode."""
    from rich.table import Table

    from d4cli.sim_report import figure_rows

    out = console()
    sides = tuple(report["sides"])
    modes = report["modes"]
    table = Table(title=_title(report), title_justify="left")
    table.add_column("figure (95% interval)")
    for mode in modes:
        table.add_column(mode["mode"], justify="right")
    for row in figure_rows(modes, sides):
        table.add_row(*row)
    out.print(table)
    for mode in modes:
        out.print(f"\nrounds to finish, {mode['mode']} ({mode['runs']:,} runs):")
        for line in rounds_chart(mode["rounds"]["histogram"], report["max_rounds"]):
            out.print(line, markup=False)


def print_sweep(report: dict[str, Any]) -> None:
    """One row per setting and mode of a sweep."""
    from rich.table import Table

    from d4cli.sim_report import sweep_rows

    header, rows = sweep_rows(report["sweep"]["key"], [(r["value"], r["modes"]) for r in report["rows"]], tuple(report["sides"]))
    table = Table(title=_title(report), title_justify="left")
    for name in header:
        table.add_column(name, justify="left" if name in ("mode",) else "right")
    for row in rows:
        table.add_row(*row)
    console().print(table)


def _title(report: dict[str, Any]) -> str:
    return (f"{report['encounter'] or 'encounter'}: {report['runs']:,} runs per mode, seed {report['seed']}, "
            f"draw after {report['max_rounds']} rounds")


def rounds_chart(histogram: dict[str, int], max_rounds: int) -> list[str]:
    """``  3 ######## 41.2%``: one bar per number of rounds (the last is the draws' bound)."""
    total = sum(histogram.values())
    if not total:
        return []
    peak = max(histogram.values())
    width = max(len(key) for key in histogram)
    lines = []
    for key, count in histogram.items():
        bar = "#" * max(1 if count else 0, round(BAR * count / peak))
        lines.append(f"  {key:>{width}} {bar:<{BAR}} {100 * count / total:5.1f}%")
    return lines


class Progress:
    """A Rich progress bar on stderr, shown only on a terminal and only once a run passes a second."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.started = time.monotonic()
        self.bar: Any = None
        self.task: Any = None
        self.tty = console(stderr=True).is_terminal

    def __call__(self, runs: int) -> None:
        self.done += runs
        if not self.tty:
            return
        if self.bar is None and time.monotonic() - self.started > 1.0:
            from rich.progress import Progress as RichProgress

            self.bar = RichProgress(console=console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("simulating", total=self.total)
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
