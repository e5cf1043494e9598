"""``d4cli simulate``: play an encounter many times in memory and compare the reset modes (R12, R18)."""

# No `from __future__ import annotations`: Typer reads the annotations on every run
# (see d4cli/cli/commands/roll.py).
import io
import math
import sys
import time
from contextlib import redirect_stdout
from typing import Annotated

import typer

from d4cli.api import InputError
from d4cli.api.inputs import SEED, fold_name, parse_whole
from d4cli.api.simulation import (
    MAX_ROUNDS,
    RESERVE,
    RUNS,
    Simulation,
    Sweep,
    check_jobs,
    simulate,
)
from d4cli.cli.options import EngineOption, FileArgument, FileOption, JsonOption
from d4cli.cli.out_file import checked_out, write_out
from d4cli.cli.sim_input import one_file, played_path
from d4cli.output.render.mapsvg import map_svg
from d4cli.output.render.progress import Progress
from d4cli.output.render.simtext import csv_report, markdown_report
from d4cli.output.render.simulate_text import print_report, print_sweep
from d4cli.output.render.svg import simulate_svg
from d4cli.output.render.sweepmap import print_map
from d4cli.output.stdout import emit_json

FORMATS = ("table", "markdown", "csv", "svg")
# A sweep whose first piece says it will take longer than this says so first.
LONG_SECONDS = 3.0

# The options, as docs/cli.md fixes them.
From = Annotated[
    str | None,
    typer.Option(
        "--from",
        metavar="EXAMPLE|PATH",
        help="Play a bundled example (skirmish, duel, ambush) or another file instead.",
    ),
]
Runs = Annotated[str, typer.Option("--runs", metavar="N", help="Fights per mode (1..10,000,000).")]
Modes = Annotated[
    str,
    typer.Option("--modes", metavar="LIST", help="Comma-separated: turn, round, round-zero (R12)."),
]
Seed = Annotated[
    str | None,
    typer.Option(
        "--seed", metavar="N", help="Seed of the dice: the same seed gives the same report."
    ),
]
MaxRounds = Annotated[
    str,
    typer.Option(
        "--max-rounds", metavar="N", help="A fight still running after N rounds is a draw."
    ),
]
Jobs = Annotated[
    str | None,
    typer.Option(
        "--jobs",
        metavar="N",
        help="Processes to use; default the number of cores (with --scheduler: pieces at once, default the cluster's worker threads).",
    ),
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        help="Play on an existing Dask cluster (tcp://host:8786); needs the cluster extra of d4cli.",
    ),
]
TargetRule = Annotated[
    str | None,
    typer.Option(
        "--target-rule",
        metavar="lowest-hp|random",
        help="Every creature's target rule (overrides the file's policy).",
    ),
]
Reserve = Annotated[
    str | None,
    typer.Option(
        "--reserve",
        metavar="N",
        help="Every creature's reserved headroom (overrides the file's policy).",
    ),
]
SweepOption = Annotated[
    list[str] | None,
    typer.Option(
        "--sweep",
        metavar="KEY=A..B",
        help="A grid: reserve=0..3 or buffer=0..2 (everyone), reserve:NAME=0..3 or buffer:NAME=0..2 (one creature), or a setting as balance --vary takes it ('Goblin Chief:hp=8..20', 'party:load_buffer=0..2'); twice for a map of two settings.",
    ),
]
MapSide = Annotated[
    str | None,
    typer.Option(
        "--map-side",
        metavar="SIDE",
        help="With --sweep: the side whose chance to win the map shows (default the first side).",
    ),
]
Out = Annotated[
    str | None,
    typer.Option(
        "--out",
        metavar="PATH",
        help="Write the output (a chart, a table, Markdown or CSV) here instead of printing it.",
    ),
]
Format = Annotated[
    str,
    typer.Option(
        "--format",
        metavar="table|markdown|csv|svg",
        help="Output for people, a handbook, a spreadsheet, or as SVG on stdout: the rounds-to-finish chart of each mode, or with --sweep the heat map of the win chances.",
    ),
]


def simulate_command(
    file: FileArgument = None,
    from_: From = None,
    runs: Runs = "1000",
    modes: Modes = "turn,round,round-zero",
    seed: Seed = None,
    max_rounds: MaxRounds = "100",
    jobs: Jobs = None,
    scheduler: Scheduler = None,
    target_rule: TargetRule = None,
    reserve: Reserve = None,
    sweep: SweepOption = None,
    map_side: MapSide = None,
    format_: Format = "table",
    out: Out = None,
    engine: EngineOption = None,
    json_: JsonOption = False,
    file_option: FileOption = None,
) -> None:
    """Play the encounter to the end many times; compare reset modes.

    In memory, nothing written (R12, R18). The policy of every creature is
    stated by 'd4cli help simulate'.

    --format svg prints the rounds-to-finish chart as one SVG document, or with
    --sweep the heat map of the win chances. Two --sweep give a map of both
    settings.

    Example: d4cli simulate --from skirmish --runs 10000 --format svg > rounds.svg
    """
    count = parse_whole(runs, "--runs", RUNS)
    rounds_limit = parse_whole(max_rounds, "--max-rounds", MAX_ROUNDS)
    workers = None if jobs is None else check_jobs(jobs, cluster=scheduler is not None)
    _check_format(format_, json_)
    target = checked_out(out)
    if map_side is not None and not sweep:
        raise InputError("--map-side", map_side, "chooses the side of a sweep's map; give --sweep")
    bar = Progress() if not sweep else _Estimate(Progress())
    try:
        found = simulate(
            runs=count,
            modes=modes,
            max_rounds=rounds_limit,
            jobs=workers,
            scheduler=scheduler,
            engine=engine,
            target=target_rule,
            reserve=None if reserve is None else parse_whole(reserve, "--reserve", RESERVE),
            sweep=[Sweep.parse(text) for text in sweep or ()],
            seed=None if seed is None else parse_whole(seed, "--seed", SEED),
            encounter=played_path(one_file(file, file_option), from_),
            progress=bar,
        )
    finally:
        bar.close()
    _emit(found, target, format_=format_, json_=json_, side=_map_side(found, map_side))


def _emit(
    found: Simulation, target: str | None, *, format_: str, json_: bool, side: str | None
) -> None:
    """Print the report, or write it to *target* (``--out``) instead."""
    if target is None:
        _print(found, format_=format_, json_=json_, side=side)
        return
    with redirect_stdout(io.StringIO()) as text:
        _print(found, format_=format_, json_=json_, side=side)
    write_out(target, text.getvalue())


def _check_format(format_: str, json_: bool) -> None:
    """``--format`` is one of `FORMATS`, alone (not with ``--json``).

    Raises:
        InputError: naming ``--format`` or ``--json``.
    """
    if format_ not in FORMATS:
        raise InputError("--format", format_, "must be table, markdown, csv or svg")
    if json_ and format_ != "table":
        raise InputError("--json", None, f"--json and --format {format_} ask for two formats")


def _map_side(found: Simulation, side: str | None) -> str | None:
    """``--map-side``: one of the sides played (N1 folding), as the file spells it.

    Raises:
        InputError: naming ``--map-side``: no such side, or given without ``--sweep``.
    """
    if side is None:
        return None
    for each in found.sides:
        if fold_name(each) == fold_name(side):
            return each
    raise InputError("--map-side", side, "no such side; the sides: " + ", ".join(found.sides))


def _print(found: Simulation, *, format_: str, json_: bool, side: str | None = None) -> None:
    if json_:
        emit_json(found.report())
        return
    report = found.report()
    if format_ == "table" and "cells" in report:
        if len(report["sweeps"]) > 1:
            print_map(report, side)
        else:
            print_sweep(report)
    elif format_ == "table":
        print_report(report)
    elif format_ == "svg":
        print(map_svg(report, side) if "cells" in report else simulate_svg(report))
    else:
        print(markdown_report(report, side) if format_ == "markdown" else csv_report(report))


class _Estimate:
    """A sweep's progress: the bar, and once two pieces of work are done, when the whole will
    take longer than `LONG_SECONDS`, one line on stderr saying how long (as ``balance`` does).

    The pace is taken between the first piece and the second: the first pays for the start
    (loading the engine, building its tables) that the others do not.
    """

    def __init__(self, bar: Progress) -> None:
        self.bar = bar
        self.first: tuple[float, int] | None = None
        self.said = False

    def __call__(self, done: int, total: int) -> None:
        self.bar(done, total)
        now = time.monotonic()
        if self.first is None:
            self.first = (now, done)
            return
        if self.said or done <= self.first[1]:
            return
        self.said = True
        seconds = (now - self.first[0]) * (total - self.first[1]) / (done - self.first[1])
        if seconds > LONG_SECONDS:
            sys.stderr.write(
                f"d4cli: simulate plays {total:,} fights: about {math.ceil(seconds)} s"
                " (Ctrl-C stops it)\n"
            )
            sys.stderr.flush()

    def close(self) -> None:
        self.bar.close()
