"""Balance and live-odds benchmark: the wall seconds of ``d4cli balance`` on the ambush at the
default runs, and of one state's live odds (what the board's worker plays after a change).

``balance`` is run ``REPEATS`` times as a user runs it (a fresh process, start-up included),
``--wins party=60 --vary "Goblin Chief:hp=5..40" --seed 1``; the live odds are timed in this
process, `d4cli.api.live_odds.live_odds` of the ambush and of the duel. The report gives
medians and the machine's load average, since the machine may be shared.
Run ``python benchmarks/balance.py [REPEATS]`` (``--smoke``: once, 20 fights a value and a
live odds of 20 fights: a check that it runs, whose figures mean nothing).
"""

from __future__ import annotations

import argparse
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


def balance_seconds(repeats: int, runs: int | None = None) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, D4CLI_FILE=str(Path(folder) / "encounter.toml"), NO_COLOR="1")
        subprocess.run(
            [*d4cli(), "init", "--from", "ambush"], env=env, check=True, capture_output=True
        )
        args = ["balance", "--wins", "party=60", "--vary", "Goblin Chief:hp=5..40", "--seed", "1"]
        args += [] if runs is None else ["--runs", str(runs)]
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            subprocess.run([*d4cli(), *args], env=env, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
        return times


def odds_seconds(name: str, repeats: int, runs: int = LIVE_RUNS) -> list[float]:
    path = bundled_examples()[name]
    encounter = parse_encounter(path.read_text(encoding="utf-8"), path)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        assert live_odds(encounter, runs=runs) is not None, name
        times.append(time.perf_counter() - start)
    return times


def measure(repeats: int, runs: int | None = None, live_runs: int = LIVE_RUNS) -> None:
    """Print the figures: *repeats* balances of *runs* fights a value (default: the command's),
    and three times as many live odds of *live_runs* fights."""
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    times = balance_seconds(repeats, runs)
    per_value = "2,000" if runs is None else f"{runs:,}"
    print(
        f"d4cli balance (ambush, Goblin Chief:hp=5..40, {per_value} runs per value): median {statistics.median(times):.2f} s wall"
    )
    for name in ("ambush", "duel"):
        odds = odds_seconds(name, repeats * 3, live_runs)
        print(
            f"live odds of the {name} ({live_runs} fights, one thread): median {statistics.median(odds) * 1000:.1f} ms"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repeats", type=int, nargs="?", default=REPEATS, help="balance runs")
    parser.add_argument("--smoke", action="store_true", help="once, 20 fights a value")
    args = parser.parse_args(argv)
    measure(1, 20, 20) if args.smoke else measure(args.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
