"""Forecast benchmark: ``d4cli forecast --seed 1 --json`` at the default 2,000 runs against
``d4cli status --json`` of the same file, mid-fight, start-up included.

The bundled skirmish is set up mid-round (round 1 begun, one attack made) in a
temporary folder; then the two commands are run in turn, ``REPEATS`` times each, as a
user runs them (a fresh process each time), so a busy machine slows both alike. The
report gives each one's median and best wall time and median CPU time of the child
(user + system, its worker processes included), the ratio of the wall medians (goal:
a forecast costs at most ``GOAL`` times a status) and the machine's load average.
Run ``python benchmarks/forecast.py [REPEATS]`` (``--smoke``: once each, a forecast of 50
runs: a check that it runs, whose figures mean nothing).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPEATS = 7
GOAL = 2.0


def d4cli() -> list[str]:
    script = Path(sys.executable).parent / "d4cli"
    return [str(script)] if script.exists() else [sys.executable, "-m", "d4cli"]


def measure(repeats: int, runs: int | None = None) -> None:
    """Print the figures of *repeats* rounds; *runs* fights per forecast (default: the command's)."""
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, D4CLI_FILE=str(Path(folder) / "encounter.toml"), NO_COLOR="1")
        env.pop("D4CLI_SEED", None)
        for args in (
            ["init", "--from", "skirmish"],
            ["turn", "start"],
            ["act", "Aria", "dagger", "--target", "Goblin Archer", "--seed", "3"],
        ):
            subprocess.run(d4cli() + args, env=env, check=True, capture_output=True)
        timings: dict[str, tuple[list[float], list[float]]] = {
            "forecast": ([], []),
            "status": ([], []),
        }
        commands = {
            "forecast": ["forecast", "--seed", "1", "--json"]
            + ([] if runs is None else ["--runs", str(runs)]),
            "status": ["status", "--json"],
        }
        out = ""
        for _ in range(repeats):
            for name, args in commands.items():
                wall, cpu, text = _timed(args, env)
                timings[name][0].append(wall)
                timings[name][1].append(cpu)
                out = text if name == "forecast" else out
        runs = out.split('"runs": ')[1].split(",")[0]
        engine = out.split('"engine": ')[1].split("}")[0] + "}"
    load = os.getloadavg()
    print(
        f"forecast ({runs} runs, engine {engine}) vs status, skirmish mid-round, {os.cpu_count()} cores:"
    )
    for name, (walls, cpus) in timings.items():
        print(
            f"  {name:<9} wall median {statistics.median(walls):.3f} s, best {min(walls):.3f} s; "
            f"CPU median {statistics.median(cpus):.3f} s"
        )
    ratio = statistics.median(timings["forecast"][0]) / statistics.median(timings["status"][0])
    print(
        f"  ratio forecast / status (wall medians) {ratio:.2f}x (goal: at most {GOAL:.0f}x); "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )


def _timed(args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and child CPU seconds of one ``d4cli ARGS``, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(d4cli() + args, env=env, check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "repeats", type=int, nargs="?", default=REPEATS, help="runs of each command"
    )
    parser.add_argument("--smoke", action="store_true", help="once each, 50 fights a forecast")
    args = parser.parse_args(argv)
    measure(1, 50) if args.smoke else measure(args.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
