"""``d4cli simulate``: play an encounter many times in memory and compare the reset modes (R12, R18)."""

# No `from __future__ import annotations`: Typer reads the annotations on every run
# (see d4cli/cli/commands/roll.py).
from typing import Annotated

import typer

from d4cli.api import InputError
from d4cli.api.inputs import SEED, parse_whole
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
from d4cli.cli.sim_input import one_file, played_path
from d4cli.output.render.simtext import csv_report, markdown_report
from d4cli.output.render.simulate_text import Progress, print_report, print_sweep
from d4cli.output.render.svg import simulate_svg
from d4cli.output.stdout import emit_json

FORMATS = ("table", "markdown", "csv", "svg")

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
    str | None,
    typer.Option(
        "--sweep",
        metavar="KEY=A..B",
        help="A grid: reserve=0..3 or buffer=0..2 (everyone), reserve:NAME=0..3 or buffer:NAME=0..2 (one creature), one row per setting.",
    ),
]
Format = Annotated[
    str,
    typer.Option(
        "--format",
        metavar="table|markdown|csv|svg",
        help="Output for people, a handbook, a spreadsheet, or the rounds-to-finish chart of each mode as SVG on stdout (not with --sweep).",
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
    format_: Format = "table",
    engine: EngineOption = None,
    json_: JsonOption = False,
    file_option: FileOption = None,
) -> None:
    """Play the encounter to the end many times; compare reset modes.

    In memory, nothing written; the reset modes are compared (R12, R18).

    The policy of every creature is stated by 'd4cli help simulate'. Nothing is written.
    --format svg prints the rounds-to-finish chart as one SVG document (not with --sweep).

    Example: d4cli simulate --from skirmish --runs 10000 --format svg > rounds.svg
    """
    count = parse_whole(runs, "--runs", RUNS)
    rounds_limit = parse_whole(max_rounds, "--max-rounds", MAX_ROUNDS)
    workers = None if jobs is None else check_jobs(jobs, cluster=scheduler is not None)
    _check_format(format_, json_, sweep)
    bar = Progress()
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
            sweep=None if sweep is None else Sweep.parse(sweep),
            seed=None if seed is None else parse_whole(seed, "--seed", SEED),
            encounter=played_path(one_file(file, file_option), from_),
            progress=bar,
        )
    finally:
        bar.close()
    _print(found, format_=format_, json_=json_)


def _check_format(format_: str, json_: bool, sweep: str | None) -> None:
    """``--format`` is one of `FORMATS`, alone (not with ``--json``), and svg not with ``--sweep``.

    Raises:
        InputError: naming ``--format`` or ``--json``.
    """
    if format_ not in FORMATS:
        raise InputError("--format", format_, "must be table, markdown, csv or svg")
    if json_ and format_ != "table":
        raise InputError("--json", None, f"--json and --format {format_} ask for two formats")
    if format_ == "svg" and sweep is not None:
        raise InputError(
            "--format", format_, "charts one report's rounds to finish; give it without --sweep"
        )


def _print(found: Simulation, *, format_: str, json_: bool) -> None:
    if json_:
        emit_json(found.report())
        return
    report = found.report()
    if format_ == "table":
        (print_sweep if "sweep" in report else print_report)(report)
    elif format_ == "svg":
        print(simulate_svg(report))
    else:
        print(markdown_report(report) if format_ == "markdown" else csv_report(report))
