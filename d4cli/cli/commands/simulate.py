"""``d4cli simulate``: play an encounter many times in memory and compare the reset modes (R12, R18)."""

# No `from __future__ import annotations`: Typer reads the annotations on every run
# (see d4cli/cli/commands/roll.py).
import os
from typing import Annotated, Any

import typer

from d4cli.api import check_target
from d4cli.cli.options import EngineOption, FileArgument, FileOption, JsonOption
from d4cli.cli.sim_input import one_file, played_encounter
from d4cli.output.render.simtext import csv_report, markdown_report
from d4cli.output.render.simulate import Progress, print_report, print_sweep
from d4cli.output.render.svg import simulate_svg
from d4cli.output.stdout import emit_json
from d4cli.rules.errors import InputError
from d4cli.rules.limits import parse_whole
from d4cli.sim.engines import check_engine, choose
from d4cli.sim.pieces import run_all
from d4cli.sim.report import simulation_json
from d4cli.sim.setup import MAX_RUNS, MODES, prepare
from d4cli.sim.sweep_one import split_key, with_setting

SWEEP_KEYS = ("reserve", "buffer")
FORMATS = ("table", "markdown", "csv", "svg")
MAX_SETTINGS = 51  # settings of one --sweep


def simulate_command(
    file: FileArgument = None,
    from_: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="EXAMPLE|PATH",
            help="Play a bundled example (skirmish, duel, ambush) or another file instead.",
        ),
    ] = None,
    runs: Annotated[
        str, typer.Option("--runs", metavar="N", help="Fights per mode (1..10,000,000).")
    ] = "1000",
    modes: Annotated[
        str,
        typer.Option(
            "--modes", metavar="LIST", help="Comma-separated: turn, round, round-zero (R12)."
        ),
    ] = "turn,round,round-zero",
    seed: Annotated[
        str | None,
        typer.Option(
            "--seed", metavar="N", help="Seed of the dice: the same seed gives the same report."
        ),
    ] = None,
    max_rounds: Annotated[
        str,
        typer.Option(
            "--max-rounds", metavar="N", help="A fight still running after N rounds is a draw."
        ),
    ] = "100",
    jobs: Annotated[
        str | None,
        typer.Option(
            "--jobs",
            metavar="N",
            help="Processes to use; default the number of cores (with --scheduler: pieces at once, default the cluster's worker threads).",
        ),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            help="Play on an existing Dask cluster (tcp://host:8786); needs the cluster extra of d4cli.",
        ),
    ] = None,
    target_rule: Annotated[
        str | None,
        typer.Option(
            "--target-rule",
            metavar="lowest-hp|random",
            help="Every creature's target rule (overrides the file's policy).",
        ),
    ] = None,
    reserve: Annotated[
        str | None,
        typer.Option(
            "--reserve",
            metavar="N",
            help="Every creature's reserved headroom (overrides the file's policy).",
        ),
    ] = None,
    sweep: Annotated[
        str | None,
        typer.Option(
            "--sweep",
            metavar="KEY=A..B",
            help="A grid: reserve=0..3 or buffer=0..2 (everyone), reserve:NAME=0..3 or buffer:NAME=0..2 (one creature), one row per setting.",
        ),
    ] = None,
    format_: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="table|markdown|csv|svg",
            help="Output for people, a handbook, a spreadsheet, or the rounds-to-finish chart of each mode as SVG on stdout (not with --sweep).",
        ),
    ] = "table",
    engine: EngineOption = None,
    json_: JsonOption = False,
    file_option: FileOption = None,
) -> None:
    """Play the encounter to the end many times, in memory, and compare the reset modes (R12, R18).

    The policy of every creature is stated by 'd4cli help simulate'. Nothing is written.
    --format svg prints the rounds-to-finish chart as one SVG document (not with --sweep).

    Example: d4cli simulate --from skirmish --runs 10000 --format svg > rounds.svg
    """

    count = parse_whole(runs, "--runs", (1, MAX_RUNS))
    chosen = [mode.strip() for mode in modes.split(",")]
    for mode in chosen:
        if mode not in MODES:
            raise InputError("--modes", mode, "unknown mode; one of " + ", ".join(MODES))
    if len(set(chosen)) != len(chosen):
        raise InputError("--modes", modes, "names a mode twice")
    rounds_limit = parse_whole(max_rounds, "--max-rounds", (1, 100_000))
    workers = _jobs(jobs, scheduler is not None)
    if scheduler is not None:
        from d4cli.sim.cluster import check_address

        check_address(scheduler)
    if format_ not in FORMATS:
        raise InputError("--format", format_, "must be table, markdown, csv or svg")
    if json_ and format_ != "table":
        raise InputError("--json", None, f"--json and --format {format_} ask for two formats")
    if format_ == "svg" and sweep is not None:
        raise InputError(
            "--format", format_, "charts one report's rounds to finish; give it without --sweep"
        )

    asked = check_engine(engine)
    target = None if target_rule is None else check_target(target_rule)
    reserve_all = None if reserve is None else parse_whole(reserve, "--reserve", (0, 1000))
    key, values = _sweep(sweep) if sweep is not None else (None, [None])

    base, one = split_key(key) if key is not None else (None, None)
    if base == "reserve" and reserve_all is not None:
        raise InputError(
            "--reserve",
            None,
            f"give --reserve or --sweep {sweep}, not both: the sweep sets every reserve",
        )
    number = (
        int.from_bytes(os.urandom(4), "big")
        if seed is None
        else parse_whole(seed, "--seed", (0, 2**63 - 1))
    )
    encounter = played_encounter(one_file(file, file_option), from_)
    grid: list[tuple[Any, str, str]] = []
    setups = []
    for value in values:
        for mode in chosen:
            options: dict[str, Any] = {
                "max_rounds": rounds_limit,
                "target": target,
                "reserve": reserve_all,
            }
            played = encounter
            if base is not None and one is not None and value is not None:
                played = with_setting(encounter, base, one, value)
            elif base is not None:
                options[base] = value
            label = f"{value}/{mode}"
            setups.append((label, mode, prepare(played, mode, **options)))
            grid.append((value, mode, label))

    choice = choose([setup for _, _, setup in setups], asked)
    progress = Progress(count * len(setups))
    try:
        if scheduler is None:
            jobs_here = workers or os.cpu_count() or 1
            tallies = run_all(setups, count, number, jobs_here, progress, engine=choice)
        else:
            from d4cli.sim.cluster import connect

            with connect(scheduler) as cluster:
                pieces = workers or max(1, cluster.threads)
                tallies = run_all(setups, count, number, pieces, progress, cluster.executor, choice)
    finally:
        progress.close()

    head = (encounter.name, setups[0][2].sides, count, number, rounds_limit)
    first = setups[0][2]
    creatures = tuple((c.name, side) for c, side in zip(first.encounter.creatures, first.side_of))
    if json_:
        emit_json(simulation_json(*head, key, values, grid, tallies, creatures, choice))
        return
    _print(simulation_json(*head, key, values, grid, tallies, creatures, choice), format_=format_)


def _sweep(text: str) -> tuple[str, list[int]]:
    """``reserve=0..3`` -> ("reserve", [0, 1, 2, 3]).

    Raises:
        InputError: an unknown key, or not ``KEY=A..B`` with 0 <= A <= B <= 1000
            and at most `MAX_SETTINGS` settings.
    """

    key, sign, span = text.rpartition("=") if "=" in text else (text, "", "")
    base, name = split_key(key)
    if base not in SWEEP_KEYS or name == "":
        raise InputError(
            "--sweep",
            text,
            "unknown key; one of "
            + ", ".join(SWEEP_KEYS)
            + ", or KEY:NAME for one creature (such as reserve=0..3 or buffer:Aria=0..2)",
        )
    low, dots, high = span.partition("..")
    if not sign or not dots:
        raise InputError("--sweep", text, "must be KEY=A..B, such as reserve=0..3")
    first = parse_whole(low, "--sweep", (0, 1000))
    last = parse_whole(high, "--sweep", (0, 1000))
    if last < first:
        raise InputError("--sweep", text, f"a range goes low..high, such as {key}={last}..{first}")
    if last - first >= MAX_SETTINGS:
        raise InputError(
            "--sweep",
            text,
            f"at most {MAX_SETTINGS} settings, such as {key}={first}..{first + MAX_SETTINGS - 1}",
        )
    return key, list(range(first, last + 1))


def _print(report: dict[str, Any], *, format_: str) -> None:
    if format_ == "table":
        (print_sweep if "sweep" in report else print_report)(report)
        return
    if format_ == "svg":
        print(simulate_svg(report))
        return

    print(markdown_report(report) if format_ == "markdown" else csv_report(report))


# With --scheduler, --jobs counts pieces of work at once on the cluster, which may be larger.
MAX_CLUSTER_JOBS = 1024


def _jobs(jobs: str | None, cluster: bool) -> int | None:
    """``--jobs``: at most the cores this process may use (processes beyond them only queue and
    cost memory), or `MAX_CLUSTER_JOBS` with ``--scheduler``; None when not given.

    Raises:
        InputError: naming ``--jobs``: not a whole number, or out of range (the cores said).
    """
    if jobs is None:
        return None
    if cluster:
        return parse_whole(jobs, "--jobs", (1, MAX_CLUSTER_JOBS))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cores = cores or 1
    try:
        return parse_whole(jobs, "--jobs", (1, cores))
    except InputError as error:
        if not error.problem.startswith("must be within"):
            raise
        raise InputError(
            "--jobs", jobs, f"{error.problem}: this machine lets d4cli use {cores} cores"
        ) from None
