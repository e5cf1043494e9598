"""Forecast benchmark: wall and CPU seconds of ``d4cli forecast --seed 1`` at the default runs, mid-fight.

The bundled skirmish is set up mid-round (round 1 begun, one attack made) in a
temporary folder, then the command is run ``REPEATS`` times as a user runs it
(a fresh process each time, start-up included). The report gives the median
and best wall time, the median CPU time of the child (user + system, its
worker processes included) and the machine's load average, since the machine
may be shared. The issue's budget is 2 s on two cores.
Run ``python benchmarks/forecast.py [REPEATS]``.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPEATS = 7
BUDGET = 2.0


def d4cli() -> list[str]:
    script = Path(sys.executable).parent / "d4cli"
    return [str(script)] if script.exists() else [sys.executable, "-m", "d4cli"]


def main(repeats: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, D4CLI_FILE=str(Path(folder) / "encounter.toml"), NO_COLOR="1")
        env.pop("D4CLI_SEED", None)
        for args in (
            ["init", "--from", "skirmish"],
            ["turn", "start"],
            ["act", "Aria", "dagger", "--target", "Goblin Archer", "--seed", "3"],
        ):
            subprocess.run(d4cli() + args, env=env, check=True, capture_output=True)
        walls, cpus = [], []
        for _ in range(repeats):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            out = subprocess.run(
                d4cli() + ["forecast", "--seed", "1", "--json"],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            walls.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        runs = out.split('"runs": ')[1].split(",")[0]
    load = os.getloadavg()
    print(
        f"forecast --seed 1 ({runs} runs, skirmish mid-round, {os.cpu_count()} cores): "
        f"wall median {statistics.median(walls):.2f} s, best {min(walls):.2f} s; "
        f"CPU median {statistics.median(cpus):.2f} s; budget {BUDGET:.0f} s; "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else REPEATS)
