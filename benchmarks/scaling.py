"""Costs that must not grow: ``log`` and ``status`` at scale, JSON Lines, odds JSON size.

Each figure is a ratio to a baseline measured in the same run (round-robin, as
``benchmarks/run.py`` does), printed by ``python benchmarks/run.py --only scaling``
(``act``'s start-up is in run.py's start-up section, beside ``roll pool``'s):

- ``log`` as text / ``log --json`` on a journal of 10,000 actions (goal <= 1.5),
  and the peak memory (max RSS) of each;
- ``status`` as a table / ``status --json`` at 1,000 creatures (goal <= 2);
- ``roll pool 5 --times 1000000 --json`` rolls per second beside a minimal
  Python loop that rolls 5d4 with ``random.choices`` and dumps a 3-key object
  per line (goal >= 0.8x);
- the size of ``roll pool 1000 --extra 9000d4 --odds --json`` (10,000 dice).
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

MINIMAL_LOOP = """
import json, random, sys
count = int(sys.argv[1])
write = sys.stdout.write
choices = random.choices
faces = (1, 2, 3, 4)
for _ in range(count):
    dice = choices(faces, k=5)
    total = sum(dice)
    write(json.dumps({"dice": dice, "total": total, "success": total >= 10}) + "\\n")
"""


# Started from a small Python of its own: Linux counts in a child's max RSS what its parent
# held when it forked, and this benchmark's process holds the journals it built.
PEAK_PROBE = (
    "import resource, subprocess, sys;"
    " subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL);"
    " print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def _peak_kib(argv: Sequence[str], env: dict[str, str]) -> int:
    """Max RSS (KiB on Linux) of one run of *argv*, stdout to /dev/null."""
    out = subprocess.run(
        [sys.executable, "-c", PEAK_PROBE, *argv], env=env, capture_output=True, text=True
    )
    return int(out.stdout)


def _big_encounter(path: Path, size: int) -> None:
    from d4cli.fight.encounter_state import Encounter, new_creature
    from d4cli.fileformat.encounter_toml import dump_encounter
    from d4cli.store import transaction

    creatures = tuple(
        new_creature(f"Creature {n}", (("Might", 4), ("Finesse", 3)), evasion=10, hp=100)
        for n in range(size)
    )
    transaction.create(
        path, dump_encounter(Encounter(name="Bench", creatures=creatures)), {"name": "Bench"}
    )


def _best_wall(argv: Sequence[str], env: dict[str, str], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(
            list(argv), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
        )
        best = min(best, time.perf_counter() - start)
    return best


def figures(
    folder: Path,
    d4: list[str],
    env: dict[str, str],
    runs: int,
    quick: bool,
    side_by_side: Callable[..., dict[str, Any]],
    ratio_line: Callable[..., str],
    bench_encounter: Any,
    smoke: bool = False,
) -> list[str]:
    """Every figure of this module, as report lines (see the module docstring); *smoke*: each
    at a tiny size (20 actions, 30 creatures, 1,000 rolls, 100 dice), once."""
    python = sys.executable
    lines: list[str] = []

    # log on 10,000 actions.
    logged = folder / "scaling-log.toml"
    bench_encounter.fresh_encounter(logged)
    actions = 20 if smoke else 2_000 if quick else 10_000
    bench_encounter.add_history(logged, actions)
    log = d4 + ["log", "-f", str(logged)]
    log_runs = 1 if smoke else 3 if quick else 7
    timings = side_by_side(
        {"log --json": (log + ["--json"], env), "log (text)": (log, env)}, log_runs, warmup=1
    )
    lines.append(f"log on a journal of {actions:,} actions (median of {log_runs})")
    lines.append(
        f"  log (text) {timings['log (text)'].wall * 1000:.0f} ms, log --json {timings['log --json'].wall * 1000:.0f} ms; "
        f"peak memory text {_peak_kib(log, env) / 1024:.1f} MiB, --json {_peak_kib(log + ['--json'], env) / 1024:.1f} MiB"
    )
    lines.append(ratio_line("log (text) / log --json", timings, "log (text)", "log --json", 1.5))

    # status at 1,000 creatures.
    crowd = folder / "scaling-status.toml"
    creatures = 30 if smoke else 1_000
    _big_encounter(crowd, creatures)
    status = d4 + ["status", "-f", str(crowd)]
    timings = side_by_side(
        {"status --json": (status + ["--json"], env), "status (table)": (status, env)},
        log_runs,
        warmup=1,
    )
    lines.append(
        f"status at {creatures:,} creatures (stdout a pipe: past its height, one line per creature)"
    )
    lines.append(
        ratio_line(
            "status (table) / status --json", timings, "status (table)", "status --json", 2.0
        )
    )

    # JSON Lines beside a minimal loop.
    count = 1_000 if smoke else 200_000 if quick else 1_000_000
    repeats = 1 if quick or smoke else 3
    ours = _best_wall(
        d4 + ["roll", "pool", "5", "--times", str(count), "--json", "--dc", "10"], env, repeats
    )
    loop = _best_wall([python, "-c", MINIMAL_LOOP, str(count)], env, repeats)
    lines.append(f"JSON Lines: roll pool 5 --times {count:,} --json --dc 10 (best of {repeats})")
    lines.append(
        f"  d4cli {count / ours:,.0f} rolls/s; minimal loop (random.choices, 3-key json.dumps) "
        f"{count / loop:,.0f} rolls/s; ratio {loop / ours:.2f}x (goal >= 0.80x)"
    )

    # The 10,000-dice odds JSON.
    pool, extra = (10, 90) if smoke else (1_000, 9_000)
    proc = subprocess.run(
        d4
        + ["roll", "pool", str(pool), "--extra", f"{extra}d4", "--odds", "--json", "--seed", "1"],
        env=env,
        capture_output=True,
        check=False,
    )
    lines.append(
        f"Odds JSON of {pool + extra:,} dice (roll pool {pool} --extra {extra}d4 --odds --json)"
    )
    lines.append(f"  {len(proc.stdout):,} bytes (exit {proc.returncode})")
    return lines
