"""Start-up, Tab-completion, encounter and throughput figures for d4cli.

Run ``python benchmarks/run.py`` (``--quick`` for fewer runs, ``--smoke`` for one run of
each section at a tiny size: a check that it runs, whose figures mean nothing). Every figure is
measured in the same run, side by side with its baseline: commands are run
round-robin (baseline, candidate, baseline, ...) so a busy machine slows both
alike, and the report gives medians and their ratios. Two clocks are kept for
each command: wall time (what a user waits) and the CPU time of the child
(user + system, less sensitive to other load on the machine).

Public tools only: subprocess, time.perf_counter, statistics, resource; when
``hyperfine`` is installed its medians for the start-up pairs are printed too.
``--only instructions`` counts the instructions of the same commands with
valgrind (load-independent; a cross-check on a shared machine).

Byte code: the runs use a private ``PYTHONPYCACHEPREFIX`` (and ignore
``PYTHONDONTWRITEBYTECODE``), so every module, d4cli's and the baselines', is
loaded from cached byte code as in an installed copy.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = Path(__file__).resolve().parent
PYTHON = sys.executable

# Budgets (ratios of wall-time medians, each to its baseline in the same run).
BUDGET_POOL_JSON = 1.10  # roll pool 4 --json / import typer
BUDGET_POOL_TABLE = 1.25  # roll pool 4 (Rich table) / import typer, rich.table, rich.console
BUDGET_ACT_JSON = 1.25  # act ... --json on a 3-creature encounter / import typer
BUDGET_ACT_TABLE = 1.15  # act ... (Rich table) / import typer, rich.table, rich.console
BUDGET_TAB = 1.15  # one Tab press / import typer
# Goals against each path's floor: the libraries the path needs, imported and nothing more.
FLOOR_POOL_JSON = 1.35  # roll pool 4 --json / import typer, json, random
FLOOR_ACT_JSON = 1.50  # act ... --json / import typer, tomllib, json, hashlib, random, tomli_w
FLOOR_TAB = 1.40  # a Tab on a creature's name / import typer, tomllib
FLOOR_STATUS_JSON = 1.50  # status --json / import typer, tomllib, json, hashlib
FLOOR_HELP = 1.50  # --help / import typer, typer.rich_utils (Typer's own help)


@dataclass
class Timing:
    """Medians of one command: wall seconds and child CPU seconds."""

    name: str
    wall: float
    cpu: float
    runs: int


def d4cli_command() -> list[str]:
    """The installed console script next to this interpreter, else ``python -m d4cli``."""
    script = Path(PYTHON).parent / "d4cli"
    if script.exists():
        return [str(script)]
    found = shutil.which("d4cli")
    return [found] if found else [PYTHON, "-m", "d4cli"]


def bench_env(cache: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("PYTHONDONTWRITEBYTECODE", "D4CLI_SEED", "FORCE_COLOR", "NO_COLOR", "COLUMNS"):
        env.pop(name, None)
    env["PYTHONPYCACHEPREFIX"] = cache
    env.update(extra)
    return env


def _run_once(argv: Sequence[str], env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 3):
        raise SystemExit(
            f"benchmark command failed ({proc.returncode}): {argv}\n{proc.stderr.decode()}"
        )
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def side_by_side(
    commands: dict[str, tuple[list[str], dict[str, str]]], runs: int, warmup: int = 3
) -> dict[str, Timing]:
    """Run *commands* round-robin *runs* times each (after *warmup* rounds); medians per command."""
    for _ in range(warmup):
        for argv, env in commands.values():
            _run_once(argv, env)
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (argv, env) in commands.items():
            wall, cpu = _run_once(argv, env)
            walls[name].append(wall)
            cpus[name].append(cpu)
    return {
        name: Timing(name, statistics.median(walls[name]), statistics.median(cpus[name]), runs)
        for name in commands
    }


def hyperfine_medians(
    commands: dict[str, str], runs: int, env: dict[str, str]
) -> dict[str, float] | None:
    """Medians (seconds) from hyperfine for shell-free *commands*, or None when it is missing."""
    exe = shutil.which("hyperfine")
    if exe is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "hf.json"
        argv = [exe, "-N", "--warmup", "3", "--runs", str(runs), "--export-json", str(out)]
        for name, command in commands.items():
            argv += ["-n", name, command]
        proc = subprocess.run(
            argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False
        )
        if proc.returncode != 0:
            return None
        data = json.loads(out.read_text())
    return {row["command"]: row["median"] for row in data["results"]}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds >= 0.001 else f"{seconds * 1000:.2f} ms"


def ratio_line(
    label: str, timings: dict[str, Timing], cand: str, base: str, budget: float | None
) -> str:
    wall = timings[cand].wall / timings[base].wall
    cpu = timings[cand].cpu / timings[base].cpu
    verdict = ""
    if budget is not None:
        verdict = "  within budget" if wall <= budget else f"  OVER budget {budget:.2f}x"
        verdict = f"  (budget {budget:.2f}x){verdict}"
    return f"  {label:<44} wall {wall:5.2f}x   cpu {cpu:5.2f}x{verdict}"


def write_encounter(folder: Path) -> Path:
    """An encounter file with "Goblin Archer" among others, for the Tab figure."""
    path = folder / "encounter.toml"
    bench_module("encounter").fresh_encounter(path)
    return path


def bench_module(name: str):  # type: ignore[no-untyped-def]
    """Import the sibling benchmark ``benchmarks/<name>.py``."""
    if f"d4cli_bench_{name}" in sys.modules:
        return sys.modules[f"d4cli_bench_{name}"]
    spec = importlib.util.spec_from_file_location(f"d4cli_bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def startup(runs: int, cache: str, folder: Path) -> list[str]:
    """Start-up of ``roll pool`` and ``act`` (JSON and table) beside ``import typer`` (and Rich), in one run."""
    env = bench_env(cache)
    d4 = d4cli_command()
    # act: Cost 0 keeps the Load (and so the gate) the same on every run.
    small = folder / "startup-act.toml"
    bench_module("encounter").fresh_encounter(small)
    act = d4 + ["act", "Bench", "Might", "--cost", "0", "--seed", "1", "-f", str(small)]
    commands = {
        "python -c pass": ([PYTHON, "-c", "pass"], env),
        "import typer": ([PYTHON, "-c", "import typer"], env),
        "import typer, rich.table, rich.console": (
            [PYTHON, "-c", "import typer, rich.table, rich.console"],
            env,
        ),
        "d4cli roll pool 4 --json": (d4 + ["roll", "pool", "4", "--json"], env),
        "python -m d4cli roll pool 4 --json": (
            [PYTHON, "-m", "d4cli", "roll", "pool", "4", "--json"],
            env,
        ),
        "d4cli roll pool 4": (d4 + ["roll", "pool", "4"], env),
        "d4cli act Bench Might --cost 0 --json": (act + ["--json"], env),
        "d4cli act Bench Might --cost 0": (act, env),
        "d4cli --version": (d4 + ["--version"], env),
    }
    timings = side_by_side(commands, runs)
    lines = ["Start-up (medians; stdout to /dev/null)"]
    for timing in timings.values():
        lines.append(f"  {timing.name:<44} wall {ms(timing.wall):>9}   cpu {ms(timing.cpu):>9}")
    lines.append("Ratios")
    lines.append(
        ratio_line(
            "roll pool 4 --json / import typer",
            timings,
            "d4cli roll pool 4 --json",
            "import typer",
            BUDGET_POOL_JSON,
        )
    )
    lines.append(
        ratio_line(
            "roll pool 4 (Rich table) / typer+rich",
            timings,
            "d4cli roll pool 4",
            "import typer, rich.table, rich.console",
            BUDGET_POOL_TABLE,
        )
    )
    lines.append(
        ratio_line(
            "act --json / import typer",
            timings,
            "d4cli act Bench Might --cost 0 --json",
            "import typer",
            BUDGET_ACT_JSON,
        )
    )
    lines.append(
        ratio_line(
            "act (Rich table) / typer+rich",
            timings,
            "d4cli act Bench Might --cost 0",
            "import typer, rich.table, rich.console",
            BUDGET_ACT_TABLE,
        )
    )
    lines.append(
        ratio_line(
            "python -m d4cli ... --json / import typer",
            timings,
            "python -m d4cli roll pool 4 --json",
            "import typer",
            None,
        )
    )
    lines.append(
        ratio_line(
            "console script / python -m d4cli",
            timings,
            "d4cli roll pool 4 --json",
            "python -m d4cli roll pool 4 --json",
            None,
        )
    )
    lines.append(
        ratio_line(
            "roll pool 4 --json / python -c pass",
            timings,
            "d4cli roll pool 4 --json",
            "python -c pass",
            None,
        )
    )
    lines.append(
        ratio_line("import typer / python -c pass", timings, "import typer", "python -c pass", None)
    )
    hf = hyperfine_medians(
        {
            "import typer": f"{PYTHON} -c 'import typer'",
            "json": " ".join(d4 + ["roll", "pool", "4", "--json"]),
            "typer+rich": f"{PYTHON} -c 'import typer, rich.table, rich.console'",
            "table": " ".join(d4 + ["roll", "pool", "4"]),
        },
        runs,
        env,
    )
    if hf is not None:
        lines.append(
            f"  hyperfine (not interleaved) medians: json/import typer {hf['json'] / hf['import typer']:.2f}x, "
            f"table/typer+rich {hf['table'] / hf['typer+rich']:.2f}x "
            f"({ms(hf['json'])} vs {ms(hf['import typer'])}; {ms(hf['table'])} vs {ms(hf['typer+rich'])})"
        )
    return lines


def tab_request(cache: str, line: str, encounter: Path, **extra: str) -> dict[str, str]:
    """The environment of one Tab press at the end of *line*, as the generated bash script sends it."""
    return bench_env(
        cache,
        _D4CLI_COMPLETE="complete_bash",
        COMP_LINE=line,
        COMP_POINT=str(len(line.encode())),
        _D4CLI_COMP_CUR=line.split(" ")[-1],
        COMP_WORDBREAKS=" \t\n\"'><=;|&(:",
        D4CLI_FILE=str(encounter),
        **extra,
    )


TAB_LINES = ("d4cli roll check --dc h", "d4cli help ga", "d4cli act Gob", "d4cli a")


def tab_completion(runs: int, cache: str, folder: Path) -> list[str]:
    """A Tab press: the request the generated bash script sends, vs import typer."""
    d4 = d4cli_command()
    base_env = bench_env(cache)
    encounter = write_encounter(folder)
    commands: dict[str, tuple[list[str], dict[str, str]]] = {
        "import typer": ([PYTHON, "-c", "import typer"], base_env),
    }
    for line in TAB_LINES:
        commands[f"Tab: {line}"] = (d4, tab_request(cache, line, encounter))
    timings = side_by_side(commands, runs)
    lines = ["Tab completion (one completion request, as the bash script makes it)"]
    for timing in timings.values():
        lines.append(f"  {timing.name:<44} wall {ms(timing.wall):>9}   cpu {ms(timing.cpu):>9}")
    lines.append("Ratios")
    for name in timings:
        if name.startswith("Tab"):
            lines.append(
                ratio_line(f"{name} / import typer", timings, name, "import typer", BUDGET_TAB)
            )
    return lines


def instruction_figures(cache: str, folder: Path) -> list[str]:
    """Instructions each budgeted command executes, beside its baseline (valgrind's callgrind).

    One run each, after a run that caches the byte code; the hash seed is fixed. A count
    does not move with the load on the machine (a wall time on a shared 2-core machine
    does, by a fifth or more), but it leaves out waiting (``fsync``) and memory stalls:
    a cross-check of the wall-time ratios, not a replacement. Needs ``valgrind``;
    slow (a few seconds a command), so it runs only with ``--only instructions``.
    """
    exe = shutil.which("valgrind")
    if exe is None:
        return ["Instructions: valgrind is not installed; skipped"]
    d4 = d4cli_command()
    env = bench_env(cache, PYTHONHASHSEED="0")
    small = folder / "instructions-act.toml"
    bench_module("encounter").fresh_encounter(small)
    encounter = write_encounter(folder)
    act = d4 + ["act", "Bench", "Might", "--cost", "0", "--seed", "1", "-f", str(small)]
    typer_rich = [PYTHON, "-c", "import typer, rich.table, rich.console"]
    # Each path's floor: the libraries it cannot do without, imported and nothing else.
    floors = {
        "floor: typer, json, random": "import typer, json, random",
        "floor: typer, tomllib, json, hashlib, random, tomli_w": (
            "import typer, tomllib, json, hashlib, random, tomli_w"
        ),
        "floor: typer, tomllib": "import typer, tomllib",
        "floor: typer, tomllib, json, hashlib": "import typer, tomllib, json, hashlib",
        "floor: typer, typer.rich_utils": "import typer, typer.rich_utils",
    }
    pool_floor, act_floor, tab_floor, status_floor, help_floor = floors
    # name -> (argv, environment, baseline name, budget)
    cases: dict[str, tuple[list[str], dict[str, str], str | None, float | None]] = {
        "import typer": ([PYTHON, "-c", "import typer"], env, None, None),
        "import typer, rich.table, rich.console": (typer_rich, env, None, None),
        **{name: ([PYTHON, "-c", code], env, None, None) for name, code in floors.items()},
        "d4cli roll pool 4 --json": (
            d4 + ["roll", "pool", "4", "--json"],
            env,
            pool_floor,
            FLOOR_POOL_JSON,
        ),
        "d4cli roll pool 4": (
            d4 + ["roll", "pool", "4"],
            env,
            "import typer, rich.table, rich.console",
            BUDGET_POOL_TABLE,
        ),
        "d4cli act ... --json": (act + ["--json"], env, act_floor, FLOOR_ACT_JSON),
        "d4cli act ...": (act, env, "import typer, rich.table, rich.console", BUDGET_ACT_TABLE),
        "d4cli status --json": (
            d4 + ["status", "-f", str(encounter), "--json"],
            env,
            status_floor,
            FLOOR_STATUS_JSON,
        ),
        "d4cli --help": (d4 + ["--help"], env, help_floor, FLOOR_HELP),
    }
    for line in TAB_LINES:
        request = tab_request(cache, line, encounter, PYTHONHASHSEED="0")
        # A Tab on a name the file holds reads it; on a command's name it lists `COMMANDS`.
        base = tab_floor if line.endswith("Gob") else "import typer"
        cases[f"Tab: {line}"] = (d4, request, base, FLOOR_TAB if base == tab_floor else BUDGET_TAB)
    counts: dict[str, int] = {}
    for name, (argv, case_env, _, _) in cases.items():
        subprocess.run(
            argv, env=case_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
        )
        proc = subprocess.run(
            [exe, "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
            env=case_env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
        found = [line.split()[-1] for line in proc.stderr.splitlines() if "Collected :" in line]
        counts[name] = int(found[-1].replace(",", "")) if found else 0
    lines = ["Instructions (valgrind callgrind, one run each; ratios of counts)"]
    for name, (_, _, base, budget) in cases.items():
        line = f"  {name:<44} {counts[name] / 1e6:8.1f} M"
        if base is not None and counts[base]:
            ratio = counts[name] / counts[base]
            verdict = "within" if budget is None or ratio <= budget else "over"
            line += f"   {ratio:5.2f}x {base}" + (
                "" if budget is None else f" (budget {budget:.2f}x: {verdict})"
            )
        lines.append(line)
    return lines


def encounter_figures(quick: bool, smoke: bool = False) -> list[str]:
    """``act`` on a fresh encounter vs one with 10,000 past actions (benchmarks/encounter.py)."""
    measure = bench_module("encounter").measure_act
    runs = 1 if smoke else 7 if quick else 21
    history = 20 if smoke else 10_000
    figures = measure(runs, history)
    return [
        (
            f"Encounter: d4cli act, fresh vs {figures['history_entries']:,} journal entries "
            f"(benchmarks/encounter.py, median of {runs})"
        ),
        f"  fresh {ms(figures['fresh'])}, long {ms(figures['long'])}, ratio {figures['ratio']:.2f}x",
        (
            f"  store.change in-process: fresh {ms(figures['change_fresh'])}, "
            f"long {ms(figures['change_long'])}, ratio {figures['change_ratio']:.2f}x"
        ),
    ]


def journal_figures(sizes: tuple[int, ...] = (3, 100, 1000)) -> list[str]:
    """Journal bytes per ``act`` on encounters of *sizes* creatures (benchmarks/encounter.py)."""
    figures = bench_module("encounter").journal_bytes_per_act(sizes)
    small, large = sizes[0], sizes[-1]
    cells = ", ".join(
        f"{size:,} creatures {size_bytes:,.0f} B" for size, size_bytes in figures.items()
    )
    return [
        f"Journal bytes per act (goal: {large:,} creatures within 2x of {small:,})",
        f"  {cells}; {large:,} / {small:,} = {figures[large] / figures[small]:.2f}x",
    ]


def store_figures(quick: bool, smoke: bool = False) -> list[str]:
    """The store's costs against the change (benchmarks/store_costs.py): the first change of a
    hand-written 1,000-creature file, undo and redo at depth, adds in one play session, log's memory."""
    costs = bench_module("store_costs")
    if smoke:
        return (
            costs.first_change_figures(1, 20)
            + costs.undo_redo_figures(depth=10, shallow=2, samples=2)
            + costs.play_add_figures(small=5, large=10, samples=2)
            + costs.log_memory_figures(sizes=(20, 100), runs=1)
        )
    return (
        costs.first_change_figures(3 if quick else 5, 1000)
        + costs.undo_redo_figures()
        + costs.play_add_figures()
        + costs.log_memory_figures(runs=1 if quick else 3)
    )


def odds_figures(quick: bool, smoke: bool = False) -> list[str]:
    """The odds figures, from ``benchmarks/odds.py`` (run in its own process)."""
    path = BENCH / "odds.py"
    argv = [PYTHON, str(path)] + (["--smoke"] if smoke else ["--quick"] if quick else [])
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=False)
    if proc.returncode != 0 and quick and not smoke:
        proc = subprocess.run(
            [PYTHON, str(path)], capture_output=True, text=True, cwd=ROOT, check=False
        )
    body = proc.stdout.rstrip().splitlines() or [
        f"(no output; exit {proc.returncode}) {proc.stderr.strip()[-300:]}"
    ]
    return ["Odds (benchmarks/odds.py)"] + [f"  {line}" for line in body]


def throughput(cache: str, quick: bool, smoke: bool = False) -> list[str]:
    """Rolls per second of ``--times N`` (JSON Lines to /dev/null, and the summary table)."""
    count = 1_000 if smoke else 20_000 if quick else 100_000
    d4 = d4cli_command()
    env = bench_env(cache)
    lines = [f"Throughput (--times {count:,}; best of 3)"]
    for label, extra in (
        ("JSON Lines", ["--json"]),
        ("summary table", []),
        ("--quiet", ["--quiet"]),
    ):
        argv = d4 + ["roll", "pool", "4", "--adv", "torch", "--times", str(count)] + extra
        best = min(_run_once(argv, env)[0] for _ in range(3))
        lines.append(
            f"  roll pool 4 --adv torch, {label:<14} {count / best:>12,.0f} rolls/s  ({best:.2f} s)"
        )
    return lines


def grid_figures(cache: str, pools: int = 10_000) -> list[str]:
    """Wall time of the largest grids of pools inside the bound of work (``d4cli.odds.pool_chain.MAX_GRID_WORK``).

    Run once each (a grid takes seconds), as JSON to a pipe; also the time to refuse
    a grid just past the bound, which must be at once. *pools*: the rows of the grids
    (10,000, the largest accepted; fewer for a smoke run).
    """
    d4 = d4cli_command()
    env = bench_env(cache)
    lines = ["Grids of pools (one run each; the largest inside the bound of work)"]
    tail = pools - pools // 10
    cases = (
        (
            f"odds pool --pool 1..{pools} --dc 5 ({pools:,} rows; largest accepted)",
            ["odds", "pool", "--pool", f"1..{pools}", "--dc", "5"],
        ),
        (
            f"odds pool --pool 1..{pools} --dc {pools * 3 // 2} (the same, every cell computed)",
            ["odds", "pool", "--pool", f"1..{pools}", "--dc", str(pools * 3 // 2)],
        ),
        (
            f"odds pool --pool {tail}..{pools} --dc {pools * 2}..{pools * 2 + 8} ({(pools - tail + 1) * 9:,} cells)",
            ["odds", "pool", "--pool", f"{tail}..{pools}", "--dc", f"{pools * 2}..{pools * 2 + 8}"],
        ),
        (
            f"odds damage --pool 1..{pools} --evasion 5",
            ["odds", "damage", "--pool", f"1..{pools}", "--evasion", "5"],
        ),
        (
            "odds pool --pool 1..9990 --extra 10d1000 --dc 5 (refused)",
            ["odds", "pool", "--pool", "1..9990", "--extra", "10d1000", "--dc", "5"],
        ),
    )
    for label, argv in cases:
        start = time.perf_counter()
        proc = subprocess.run(
            d4 + argv + ["--json"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            check=False,
        )
        wall = time.perf_counter() - start
        expected = 2 if "refused" in label else 0
        note = (
            ""
            if proc.returncode == expected
            else f"  (exit {proc.returncode}, expected {expected})"
        )
        lines.append(f"  {label:<72} {wall:>7.2f} s{note}")
    return lines


def scaling_figures(
    runs: int, cache: str, folder: Path, quick: bool, smoke: bool = False
) -> list[str]:
    """Encounter start-up, log and status at scale, JSON Lines, odds JSON size (benchmarks/scaling.py)."""
    return bench_module("scaling").figures(
        folder,
        d4cli_command(),
        bench_env(cache),
        runs,
        quick,
        side_by_side,
        ratio_line,
        bench_module("encounter"),
        smoke=smoke,
    )


# Timed inside one `d4cli play` session (one child process); the same argv also run as
# separate processes, round-robin. `act --cost 0` never changes Load, so every run acts.
PLAY_CASES: tuple[tuple[str, str], ...] = (
    ("roll pool 4 --json", "roll pool 4 --json"),
    ("status", "status"),
    ("act", "act Aria Finesse --cost 0 --target 'Goblin Archer' --json"),
)

_IN_SESSION = r"""
import io, json, statistics, sys, time
from d4cli.cli.play_session import Session
session = Session(sys.argv[1])
runs = int(sys.argv[2])
lines = json.loads(sys.argv[3])
out = {}
real = sys.stdout
for line in lines:
    session.run_line(line)  # warm: the command is built once per session
    times = []
    for _ in range(runs):
        sys.stdout = io.StringIO()
        start = time.perf_counter()
        code = session.run_line(line)
        times.append(time.perf_counter() - start)
        sys.stdout = real
        assert code == 0, (line, code)
    out[line] = statistics.median(times)
print(json.dumps(out))
"""


def play_figures(runs: int, cache: str, folder: Path) -> list[str]:
    """Median latency of commands inside one `d4cli play` session beside separate processes."""
    import shlex

    path = write_encounter(folder)
    env = bench_env(cache, NO_COLOR="1", COLUMNS="120", D4CLI_FILE=str(path))
    d4 = d4cli_command()
    subprocess.run(d4 + ["turn", "start"], env=env, stdout=subprocess.DEVNULL, check=True)
    lines = [line for _, line in PLAY_CASES]
    proc = subprocess.run(
        [PYTHON, "-c", _IN_SESSION, str(path), str(runs), json.dumps(lines)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    inside = json.loads(proc.stdout.strip().splitlines()[-1])
    separate = side_by_side(
        {label: (d4 + shlex.split(line), env) for label, line in PLAY_CASES}, runs
    )
    out = ["d4cli play: median latency inside one session vs. a separate process per command"]
    for label, line in PLAY_CASES:
        alone = separate[label].wall
        ratio = alone / inside[line] if inside[line] else float("inf")
        out.append(
            f"  {label:<20} in session {ms(inside[line]):>10}   process {ms(alone):>10}   {ratio:>6.0f}x faster"
        )
    return out


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for row in Path("/proc/cpuinfo").read_text().splitlines():
            if row.startswith("model name"):
                cpu = row.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{time.strftime('%Y-%m-%d')}; {platform.system()} {platform.release()}; {cpu}; "
        f"{os.cpu_count()} cores; Python {platform.python_version()}"
    )


def simulate_figures(quick: bool, smoke: bool = False) -> list[str]:
    """Simulated actions per second beside a minimal loop (benchmarks/simulate.py)."""
    if smoke:
        return bench_module("simulate").report(20, 1, 20)
    return bench_module("simulate").report(500 if quick else 2000)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Fewer runs (noisier).")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="One run of each section at a tiny size: a check that it runs, not a figure.",
    )
    parser.add_argument(
        "--runs", type=int, default=None, help="Runs per command (default 40, quick 10, smoke 1)."
    )
    parser.add_argument(
        "--only",
        choices=(
            "startup",
            "tab",
            "encounter",
            "journal",
            "store",
            "odds",
            "throughput",
            "grids",
            "scaling",
            "play",
            "simulate",
            "instructions",
        ),
        action="append",
        help="Run only these sections (repeatable).",
    )
    args = parser.parse_args(argv)
    runs = args.runs or (1 if args.smoke else 10 if args.quick else 40)
    smoke = args.smoke
    sections: dict[str, Callable[[], list[str]]]
    with tempfile.TemporaryDirectory(prefix="d4cli-bench-") as tmp:
        folder = Path(tmp)
        cache = str(folder / "pyc")
        # The other benchmark modules start d4cli with os.environ: same byte-code rule.
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["PYTHONPYCACHEPREFIX"] = cache
        sections = {
            "startup": lambda: startup(runs, cache, folder),
            "tab": lambda: tab_completion(runs, cache, folder),
            "encounter": lambda: encounter_figures(args.quick, smoke),
            "journal": lambda: journal_figures((3, 10, 30) if smoke else (3, 100, 1000)),
            "store": lambda: store_figures(args.quick, smoke),
            "odds": lambda: odds_figures(args.quick, smoke),
            "throughput": lambda: throughput(cache, args.quick, smoke),
            "grids": lambda: grid_figures(cache, 100 if smoke else 10_000),
            "scaling": lambda: scaling_figures(runs, cache, folder, args.quick, smoke),
            "play": lambda: play_figures(runs, cache, folder),
            "simulate": lambda: simulate_figures(args.quick, smoke),
            "instructions": lambda: instruction_figures(cache, folder),
        }
        print(f"d4cli benchmark: {machine()}; {runs} runs per command")
        for name, section in sections.items():
            if (args.only and name not in args.only) or (name == "instructions" and not args.only):
                continue  # instructions: only when asked for (slow)
            print()
            for line in section():
                print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
