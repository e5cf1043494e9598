"""Does ``d4cli act`` slow down as the history grows? (goal: ratio <= 1.3)

Builds two encounters side by side: a fresh one, and one whose journal holds
10,000 past actions (written directly, entry by entry as the store would, in a
second or two: no 10,000 subprocesses). Then runs ``d4cli act`` on each,
alternating fresh/long so a busy machine slows both alike, and prints the
medians and their ratio; also the in-process cost of `Tracker.change` alone,
without interpreter start-up.

    python benchmarks/encounter.py [--runs 21] [--history 10000] [--smoke]

``--smoke`` is ``--runs 1 --history 20``: a check that it runs, whose figures mean nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from d4cli import store
from d4cli.api.tracker import Tracker
from d4cli.fight.actions import ActRequest, act
from d4cli.fight.encounter_state import Encounter, new_creature
from d4cli.fight.turns import add_creature, start_turn
from d4cli.fileformat.encounter_toml import dump_encounter
from d4cli.journal.entry import journal_json
from d4cli.rules.dice import ScriptedDice
from d4cli.store import transaction
from d4cli.store.files import digest, journal_path
from d4cli.store.history import read_log
from d4cli.store.journal import encode_entry, going_back

ACT = ["act", "Bench", "Might", "--seed", "1", "--json"]


def _change(path, transition, timeout=None):  # type: ignore[no-untyped-def]
    """Apply and journal *transition* (even when it changes nothing), as every command does."""
    done = Tracker(path, lock_timeout=timeout).change(transition, always_logged=True)
    return done.encounter, done.record


def fresh_encounter(path: Path) -> None:
    """An encounter of three creatures, made through the store: init (anew) and adds."""
    transaction.create(
        path, dump_encounter(Encounter(name="Bench")), {"name": "Bench", "mode": "turn"}, force=True
    )
    for name, aspects in (
        ("Bench", (("Might", 1000),)),
        ("Aria", (("Finesse", 4), ("Might", 2))),
        ("Goblin Archer", (("Finesse", 3),)),
    ):
        creature = new_creature(name, aspects, evasion=10, hp=100_000)
        _change(path, lambda encounter, c=creature: add_creature(encounter, c))


def add_history(path: Path, actions: int, seed: int = 0) -> int:
    """Append *actions* past actions (and the turn starts they need) to the journal, then the file.

    The entries are exactly what `Tracker.change` writes: the record's facts,
    the hashes before and after, and the way back (a line patch).

    Returns:
        The journal's size in bytes.
    """
    rng = random.Random(seed)
    encounter = store.read_encounter(path)
    text = path.read_text()
    journal = journal_path(path)
    seq = len(journal.read_bytes().splitlines())
    lines: list[bytes] = []

    def record(new_encounter: Encounter, log: dict) -> tuple[Encounter, str]:
        nonlocal seq
        new_text = dump_encounter(new_encounter)
        seq += 1
        entry = {
            "seq": seq,
            "time": "2024-01-01T20:00:00+00:00",
            **log,
            "before": digest(text.encode()),
            "after": digest(new_text.encode()),
            **going_back(text, new_text, anchor=False),
        }
        lines.append(encode_entry(entry))
        return new_encounter, new_text

    done = 0
    while done < actions:
        actor = rng.choice(["Aria", "Goblin Archer"])
        request = ActRequest(actor, "Finesse", target="Bench" if actor != "Bench" else None)
        new, result = act(encounter, request, rng)
        if not result.allowed:
            new, event = start_turn(encounter, actor)
            encounter, text = record(new, journal_json(event))
            continue
        encounter, text = record(new, journal_json(result))
        done += 1
    with open(journal, "ab") as handle:
        handle.write(b"".join(lines))
    path.write_text(text)
    return journal.stat().st_size


def journal_bytes_per_act(
    sizes: tuple[int, ...] = (3, 100, 1000), acts: int = 20
) -> dict[int, float]:
    """Mean journal bytes one ``act`` adds, on encounters of *sizes* creatures (through `Tracker.change`).

    Each encounter is created through the store; then, *acts* times, its
    first creature's turn starts and it acts (Might 4, on the second
    creature); the journal's growth over the acts alone is averaged.
    """
    figures: dict[int, float] = {}
    with tempfile.TemporaryDirectory(prefix="d4cli-journal-") as tmp:
        for size in sizes:
            path = Path(tmp) / f"e{size}.toml"
            creatures = tuple(
                new_creature(
                    f"Creature {n}", (("Might", 4), ("Finesse", 3)), evasion=10, hp=100_000
                )
                for n in range(size)
            )
            transaction.create(
                path,
                dump_encounter(Encounter(name="Bench", creatures=creatures)),
                {"name": "Bench"},
            )
            rng = random.Random(size)
            request = ActRequest("Creature 0", "Might", target="Creature 1")
            total = 0
            for _ in range(acts):
                _change(path, lambda encounter: start_turn(encounter, "Creature 0"))  # Load resets
                start = journal_path(path).stat().st_size
                _, record = _change(
                    path,
                    lambda encounter, q=request, r=rng: act(encounter, q, r),
                )
                assert record.allowed
                total += journal_path(path).stat().st_size - start
            figures[size] = total / acts
    return figures


def _command() -> list[str]:
    return [sys.executable, "-m", "d4cli"]


def _run_once(path: Path) -> float:
    env = {**os.environ, "D4CLI_FILE": str(path), "NO_COLOR": "1"}
    started = time.perf_counter()
    done = subprocess.run(_command() + ACT, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"d4cli act failed ({done.returncode}): {done.stderr.strip()}")
    json.loads(done.stdout)
    return elapsed


def _change_once(path: Path) -> float:
    request = ActRequest("Bench", "Might")
    started = time.perf_counter()
    _change(
        path,
        lambda encounter: act(encounter, request, ScriptedDice([1] * 1001)),
    )
    return time.perf_counter() - started


def measure_act(runs: int = 21, history: int = 10_000) -> dict[str, float]:
    """Median wall time of ``d4cli act`` on a fresh encounter and on one with *history* past actions.

    Returns:
        ``fresh``, ``long`` (seconds), ``ratio`` (long / fresh), the same for the
        in-process `Tracker.change` (``change_fresh``, ``change_long``,
        ``change_ratio``), and ``journal_bytes`` of the long history.
    """
    with tempfile.TemporaryDirectory() as folder:
        fresh = Path(folder) / "fresh.toml"
        long = Path(folder) / "long.toml"
        fresh_encounter(fresh)
        fresh_encounter(long)
        built = time.perf_counter()
        journal_bytes = add_history(long, history)
        build_seconds = time.perf_counter() - built
        _run_once(fresh), _run_once(long)  # warm the byte-code cache and the page cache
        times: dict[str, list[float]] = {
            "fresh": [],
            "long": [],
            "change_fresh": [],
            "change_long": [],
        }
        for _ in range(runs):
            times["fresh"].append(_run_once(fresh))
            times["long"].append(_run_once(long))
        for _ in range(runs):
            times["change_fresh"].append(_change_once(fresh))
            times["change_long"].append(_change_once(long))
        medians = {name: statistics.median(values) for name, values in times.items()}
        long_entries = len(read_log(long, None))
    return {
        **medians,
        "ratio": medians["long"] / medians["fresh"],
        "change_ratio": medians["change_long"] / medians["change_fresh"],
        "journal_bytes": journal_bytes,
        "history_entries": long_entries,
        "build_seconds": build_seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="runs per side (default 21)")
    parser.add_argument("--history", type=int, default=10_000, help="past actions (default 10,000)")
    parser.add_argument("--smoke", action="store_true", help="--runs 1 --history 20")
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.history = 1, 20
    figures = measure_act(args.runs, args.history)
    print(
        f"history: {args.history:,} past actions, {figures['history_entries']:,} journal entries, "
        f"{figures['journal_bytes'] / 1e6:.1f} MB (built in {figures['build_seconds']:.1f} s)"
    )
    print(
        f"d4cli act (subprocess, median of {args.runs}): fresh {1000 * figures['fresh']:.1f} ms, "
        f"long {1000 * figures['long']:.1f} ms, ratio {figures['ratio']:.3f} (goal <= 1.3)"
    )
    print(
        f"transaction.change (in-process, median of {args.runs}): fresh {1000 * figures['change_fresh']:.2f} ms, "
        f"long {1000 * figures['change_long']:.2f} ms, ratio {figures['change_ratio']:.3f}"
    )


if __name__ == "__main__":
    main()
