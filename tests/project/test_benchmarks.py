"""Every benchmark in benchmarks/ runs at a tiny size (``--smoke``) and reports what it should.

A smoke run checks that the benchmark still starts d4cli, drives it and prints each of its
figures in the shape docs/performance.md quotes; never its speed (the figures of a tiny run
mean nothing, and the suite must pass on a busy machine). The figures themselves are
measured with the full runs, never here. A benchmark added to benchmarks/ without a smoke
run here fails `test_every_benchmark_has_a_smoke_run`.
"""

from __future__ import annotations

import importlib.util
import itertools
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
NUMBER = r"[\d,]+(?:\.\d+)?"


def smoke(script: str, *args: str) -> str:
    """What ``python benchmarks/SCRIPT.py ARGS`` prints; it must exit 0."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / f"{script}.py"), *args],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, f"{script} {args} exited {done.returncode}:\n{done.stderr}"
    return done.stdout


def lines_matching(pattern: str, text: str) -> list[re.Match[str]]:
    return [found for line in text.splitlines() if (found := re.search(pattern, line))]


def count(text: str) -> float:
    return float(text.replace(",", ""))


def p_pool_at_least(d4s: int, dc: int) -> float:
    """P(the sum of *d4s* d4 >= *dc*), by counting every roll (the test's own yardstick)."""
    rolls = list(itertools.product(range(1, 5), repeat=d4s))
    return sum(1 for roll in rolls if sum(roll) >= dc) / len(rolls)


def check_odds(out: str) -> None:
    rows = {
        name: line for line in out.splitlines() for name in SMOKE_CASES if line.startswith(name)
    }
    assert list(rows) == list(SMOKE_CASES), out
    if importlib.util.find_spec("icepool") is None:
        assert all("icepool not installed" in line for line in rows.values()), out
        return
    # Both libraries answered each case, and agree; the first answer is counted here too.
    assert all(line.endswith("answers agree") for line in rows.values()), out
    assert f"P = {p_pool_at_least(5, 12):.12g}; answers agree" in rows["5d4 vs DC 12"]
    assert "P = 0.5;" in rows["30d4+1d8 vs DC 80"]  # 30d4+1d8 is symmetric about 79.5


SMOKE_CASES = (
    "5d4 vs DC 12",
    "30d4+1d8 vs DC 80",
    "check d20+3, Adv 2 vs DC 12",
    "check d20+3, Adv 5 vs DC 18",
)


def check_simulate(out: str) -> None:
    players = lines_matching(
        rf"^  (reference engine|minimal random\.choices|batch engine) +({NUMBER}) actions/s"
        rf"  \(20 fights, ({NUMBER}) actions\)$",
        out,
    )
    assert [found[1] for found in players] == [
        "reference engine",
        "minimal random.choices",
        "batch engine",
    ], out
    assert all(count(found[2]) > 0 and count(found[3]) >= 20 for found in players), out
    assert lines_matching(rf"^  ratio batch / minimal +{NUMBER}x \(goal: at least 10x\)$", out)


def check_forecast(out: str) -> None:
    assert out.startswith('forecast (50 runs, engine {"name": "batch"'), out
    for name in ("forecast", "status"):
        assert lines_matching(
            rf"^  {name} +wall median {NUMBER} s, best {NUMBER} s; CPU median {NUMBER} s$", out
        ), out
    assert lines_matching(rf"ratio forecast / status \(wall medians\) {NUMBER}x", out), out


def check_balance(out: str) -> None:
    assert lines_matching(
        rf"^d4cli balance \(ambush, Goblin Chief:hp=5\.\.40, 20 runs per value\): median {NUMBER} s wall$",
        out,
    ), out
    for name in ("ambush", "duel"):
        assert lines_matching(
            rf"^live odds of the {name} \(20 fights, one thread\): median {NUMBER} ms$", out
        ), out


def check_players_view(out: str) -> None:
    rows = lines_matching(rf"^ +(\d+) +({NUMBER}) +({NUMBER})$", out)
    assert len(rows) == 1, out
    assert int(rows[0][1]) >= 20  # the journal holds the fight asked for


def check_encounter(out: str) -> None:
    history = lines_matching(r"^history: 20 past actions, ([\d,]+) journal entries", out)
    assert history and count(history[0][1]) > 20, out  # the actions and the turns around them
    assert lines_matching(
        rf"^d4cli act \(subprocess, median of 1\): fresh {NUMBER} ms, long {NUMBER} ms, ratio", out
    ), out


def check_store_costs(out: str) -> None:
    for pattern in (
        rf"^  hand-written layout {NUMBER} ms, d4cli's layout {NUMBER} ms: ratio",
        rf"^  undo at depth 2: {NUMBER} ms CPU .*; at depth 10: {NUMBER} ms CPU",
        rf"^  redo at depth 2: {NUMBER} ms CPU .*; at depth 10: {NUMBER} ms CPU",
        rf"^  one add at 5 creatures {NUMBER} ms .*, at 10 {NUMBER} ms",
        rf"^  log --json of [\d,]+ entries .*: {NUMBER} MiB",
        rf"^  log text of [\d,]+ entries .*: {NUMBER} MiB",
        rf"^  odds pool --pool 1\.\.100 --dc 15000: {NUMBER} s$",
    ):
        assert lines_matching(pattern, out), (pattern, out)


def check_serve_streams(out: str) -> None:
    assert out.startswith("serve: 5 open streams, 2 changes"), out
    assert lines_matching(rf"a change to every stream: median {NUMBER} ms, slowest", out), out
    assert lines_matching(rf"server RSS: idle {NUMBER} MiB, 5 streams {NUMBER} MiB", out), out


def check_seat_load(out: str) -> None:
    for when in ("no client", "streams and writes", "once they are gone"):
        assert lines_matching(rf"GM's damage, {when}: +median {NUMBER} ms", out), out
    acts = lines_matching(r"seats' acts carried out: (\d+) in", out)
    assert acts and int(acts[0][1]) >= 1, out
    assert out.rstrip().endswith("serves again once they go: yes"), out


# benchmarks/NAME.py -> (its smoke run takes over a second, the check of its output).
SMOKE_RUNS: dict[str, tuple[bool, Callable[[str], None]]] = {
    "odds": (False, check_odds),
    "simulate": (False, check_simulate),
    "forecast": (True, check_forecast),
    "balance": (True, check_balance),
    "players_view": (True, check_players_view),
    "encounter": (True, check_encounter),
    "store_costs": (True, check_store_costs),
    "serve_streams": (True, check_serve_streams),
    "seat_load": (True, check_seat_load),
}

# benchmarks/run.py's sections: each with --smoke, and a line its report must hold.
RUN_SECTIONS = {
    "startup": rf"^  roll pool 4 --json / import typer +wall +{NUMBER}x",
    "tab": rf"^  Tab: d4cli act Gob / import typer +wall +{NUMBER}x",
    "encounter": rf"^  fresh {NUMBER} ms, long {NUMBER} ms, ratio {NUMBER}x$",
    "journal": rf"^  3 creatures {NUMBER} B, 10 creatures {NUMBER} B, 30 creatures {NUMBER} B",
    "store": rf"^  one add at 5 creatures {NUMBER} ms",
    "odds": r"^  5d4 vs DC 12 .* (answers agree|icepool not installed)",
    "throughput": rf"^  roll pool 4 --adv torch, --quiet +{NUMBER} rolls/s",
    "grids": rf"^  odds pool --pool 1\.\.9990 --extra 10d1000 --dc 5 \(refused\) +{NUMBER} s$",
    "scaling": r"^  [\d,]+ bytes \(exit 0\)$",
    "play": r"^  act +in session .* faster$",
    "simulate": rf"^  batch engine +{NUMBER} actions/s  \(20 fights",
}


# Modules of benchmarks/ that only run.py runs, each by the section that smoke-tests it.
RUN_ONLY = {"scaling": "scaling"}


def test_every_benchmark_has_a_smoke_run():
    scripts = {path.stem for path in BENCHMARKS.glob("*.py")}
    assert scripts == set(SMOKE_RUNS) | set(RUN_ONLY) | {"run"}
    assert set(RUN_ONLY.values()) <= set(RUN_SECTIONS)
    # Every section of run.py is smoke-run (the instruction counts by their own test).
    usage = smoke("run", "--help")
    sections = re.search(r"--only \{([a-z,]+)\}", usage)
    assert sections, usage
    assert set(sections[1].split(",")) == set(RUN_SECTIONS) | {"instructions"}


@pytest.mark.parametrize(
    "script",
    [
        pytest.param(name, marks=[pytest.mark.slow] if slow else [])
        for name, (slow, _) in SMOKE_RUNS.items()
    ],
)
def test_a_benchmark_runs_at_a_tiny_size(script):
    SMOKE_RUNS[script][1](smoke(script, "--smoke"))


@pytest.mark.slow
@pytest.mark.parametrize("section", list(RUN_SECTIONS))
def test_each_section_of_run_py_runs_at_a_tiny_size(section):
    out = smoke("run", "--smoke", "--only", section)
    assert out.startswith("d4cli benchmark: "), out
    assert lines_matching(RUN_SECTIONS[section], out), out
    assert "expected" not in out  # every command exited as the section expects (grids)
    assert "(no output; exit" not in out  # odds.py ran (run.py starts it in its own process)


@pytest.mark.slow
@pytest.mark.skipif(
    shutil.which("valgrind") is None,
    reason="valgrind is not installed: run.py --only instructions counts with its callgrind",
)
def test_run_py_counts_instructions():
    out = smoke("run", "--only", "instructions")
    counts = {
        found[1]: count(found[2])
        for found in lines_matching(rf"^  (.+?) +({NUMBER}) M(?:   |$)", out)
    }
    assert "import typer" in counts and "d4cli roll pool 4 --json" in counts, out
    # Each is a count callgrind collected, and a command does more than the import it builds on.
    assert all(value > 0 for value in counts.values()), out
    assert counts["d4cli roll pool 4 --json"] > counts["import typer"]
