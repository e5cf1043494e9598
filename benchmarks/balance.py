"""Balance and live-odds benchmark: the wall seconds of ``d4cli balance`` on the ambush at the
default runs, and of one state's live odds (what the board's worker plays after a change).

``balance`` is run ``REPEATS`` times as a user runs it (a fresh process, start-up included),
``--wins party=60 --vary "Goblin Chief:hp=5..40" --seed 1``; the live odds are timed in this
process, `d4cli.api.live_odds.live_odds` of the ambush and of the duel. The report gives
medians and the machine's load average, since the machine may be shared.
Run ``python benchmarks/balance.py [REPEATS]``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from d4cli.api.live_odds import LIVE_RUNS, live_odds
from d4cli.fileformat.encounter_toml import bundled_examples, parse_encounter

REPEATS = 3


def d4cli() -> list[str]:
    script = Path(sys.executable).parent / "d4cli"
    return [str(script)] if script.exists() else [sys.executable, "-m", "d4cli"]


def balance_seconds(repeats: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, D4CLI_FILE=str(Path(folder) / "encounter.toml"), NO_COLOR="1")
        subprocess.run(
            [*d4cli(), "init", "--from", "ambush"], env=env, check=True, capture_output=True
        )
        args = ["balance", "--wins", "party=60", "--vary", "Goblin Chief:hp=5..40", "--seed", "1"]
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            subprocess.run([*d4cli(), *args], env=env, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
        return times


def odds_seconds(name: str, repeats: int) -> list[float]:
    path = bundled_examples()[name]
    encounter = parse_encounter(path.read_text(encoding="utf-8"), path)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        live_odds(encounter)
        times.append(time.perf_counter() - start)
    return times


def main(repeats: int) -> None:
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    runs = balance_seconds(repeats)
    print(
        f"d4cli balance (ambush, Goblin Chief:hp=5..40, 2,000 runs per value): median {statistics.median(runs):.2f} s wall"
    )
    for name in ("ambush", "duel"):
        odds = odds_seconds(name, repeats * 3)
        print(
            f"live odds of the {name} ({LIVE_RUNS} fights, one thread): median {statistics.median(odds):.2f} s"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else REPEATS)
