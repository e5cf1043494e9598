"""What one players' view costs: the projection with its roll feed, and during a hidden turn.

`d4cli.api.Reader.view` is what ``board --players`` and ``serve`` compute each time the
file changes. It reads the file and the newest journal entries (the roll feed); while a
hidden creature acts it also rebuilds, from the journal, the state before that turn began
(`d4cli.api.players`). This measures the wall time of one view, in process, on the
skirmish with 21 rats and a hidden foe after fights of several lengths (journal entries:
turns and rolls), with a visible creature's turn running and with the hidden foe's.

Goal: both stay flat in the journal's length (the feed reads the newest entries, the
hidden turn's state is rebuilt backward from the file through the newest ones) and well
under the 200 ms the screens poll at.

    python benchmarks/players_view.py [--runs 20] [--lengths 100,1000] [--smoke]

``--smoke`` is ``--runs 1 --lengths 20``: a check that it runs, whose figures mean nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from d4cli.api.add_sheets import AddSpec
from d4cli.api.encounter import Tracker

SHADE = "Shade"


def _fight(path: Path, entries: int) -> Tracker:
    """The skirmish, 21 rats and Shade (hidden, after Aria), with about *entries* journal
    entries of turns and rolls; it ends with Aria's turn running, Shade next."""
    tracker = Tracker.init(path, template="skirmish", rng=random.Random(7))
    tracker.add(AddSpec("Rat", (("Might", 1),), hp=3, side="foes", copies=21))
    tracker.add(AddSpec(SHADE, (("Finesse", 3),), hp=9, side="foes", hidden=True), after="Aria")
    while len(tracker.history().entries) < entries:
        start = tracker.turn_start().record
        actor = start.actor
        if actor != SHADE:
            aspect = "Might" if actor.startswith(("Rat", "Goblin Brute", "Borin")) else "Finesse"
            tracker.act(actor, aspect, gm=True)
    while tracker.status().next_turn != SHADE:
        tracker.turn_start()
    return tracker


def _median_ms(tracker: Tracker, runs: int) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        tracker.view()
        times.append(time.perf_counter() - began)
    return 1000 * statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--lengths", default="100,1000")
    parser.add_argument("--smoke", action="store_true", help="--runs 1 --lengths 20")
    args = parser.parse_args(argv)
    if args.smoke:
        args.runs, args.lengths = 1, "20"
    print("players' view, median of", args.runs, "runs (ms)")
    print(f"{'journal entries':>16} {'visible turn':>13} {'hidden turn':>12}")
    for length in (int(text) for text in args.lengths.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            tracker = _fight(Path(folder) / "e.toml", length)
            visible = _median_ms(tracker, args.runs)
            tracker.turn_start()  # Shade's
            hidden = _median_ms(tracker, args.runs)
            count = len(tracker.history().entries)
            print(f"{count:>16} {visible:>13.1f} {hidden:>12.1f}")


if __name__ == "__main__":
    main()
