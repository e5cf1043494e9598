"""The store's costs follow the change, not the file nor the history.

First change of a hand-written file:

A hand-written file of 1,000 creatures (d4cli's tables, keys in another order, a comment each) gets its first change; d4cli writes it back in its own layout, so the line
patch from the old text to the new covers nearly every line. The same change on the
same encounter already in d4cli's layout is the yardstick (goal: ratio <= 3x). Each
run starts from a fresh copy of the file, in process (`Tracker.change`),
alternating the two so a busy machine slows both alike.

Undo and redo at depth: the CPU time of one ``undo`` (and one ``redo``) with 10 and with
1,000 changes already undone (goal: the same; the redo file is appended to and cut, never
rewritten).

Adds in one ``play`` session: the time of one ``add`` at 100 and at 1,000 creatures, through
the session's own line runner (`d4cli.cli.play_session.Session`, in process; goal: within
5x), and the whole 1,000 adds.

Grids of pools: ``odds pool --pool 1..10000`` against DC 5 and DC 15,000, each a fresh process
(the chain carries only the totals the columns read).

``log`` streams: the peak memory (max RSS) of ``d4cli log --json`` and ``d4cli log``, each in
a fresh process, on journals of about 1,000 and 10,000 entries (goal: flat in the length).

    python benchmarks/store_costs.py [--runs 5] [--creatures 1000] [--depth 1000] [--smoke]

``--smoke`` runs every part once at a tiny size (20 creatures, depth 10, adds at 5 and 10
creatures, journals of 20 and 100 entries, grids of 100 pools): a check that it runs, whose
figures mean nothing.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from d4cli.api.tracker import Tracker
from d4cli.fight.turns import set_exhaustion
from d4cli.fileformat.encounter_toml import dump_encounter, parse_encounter
from d4cli.store import transaction
from d4cli.store import undo as undo_redo


def _change(path, transition, timeout=None):  # type: ignore[no-untyped-def]
    """Apply and journal *transition* (even when it changes nothing), as every command does."""
    done = Tracker(path, lock_timeout=timeout).change(transition, always_logged=True)
    return done.encounter, done.record


def hand_written(creatures: int) -> str:
    """An encounter as a person might write it: d4cli's tables, its keys in another order,
    a comment per creature. Most lines (``exhaustion = 0``) recur in every creature: the
    case that made the line patch quadratic."""
    rows = [
        f'[[creature]]\n# number {n}\nname = "Creature {n:04d}"\nhad_turn = false\nevasion = {n % 3}\n'
        f"exhaustion = 0\nload = -1\nload_buffer = 1\n\n[creature.aspects]\nMight = {n % 4}\nFinesse = 2\n"
        for n in range(creatures)
    ]
    return 'schema_version = 2\nname = "Hand-written"\nmode = "turn"\nround = 0\n\n' + "\n".join(
        rows
    )


def first_change(folder: Path, name: str, text: str) -> float:
    """Seconds of one `change` (an Exhaustion level set) on a fresh file holding *text*."""
    case = folder / name
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir()
    path = case / "encounter.toml"
    path.write_text(text, encoding="utf-8")
    started = time.perf_counter()
    _change(path, lambda e: set_exhaustion(e, "Creature 0001", 1))
    return time.perf_counter() - started


def first_change_figures(runs: int = 5, creatures: int = 1000) -> list[str]:
    text = hand_written(creatures)
    ours = dump_encounter(parse_encounter(text, "hand-written"))
    hand: list[float] = []
    same: list[float] = []
    with tempfile.TemporaryDirectory(prefix="d4cli-store-") as tmp:
        folder = Path(tmp)
        for _ in range(runs):
            hand.append(first_change(folder, "hand", text))
            same.append(first_change(folder, "ours", ours))
    h, s = statistics.median(hand), statistics.median(same)
    return [
        f"First change of a hand-written file of {creatures:,} creatures (median of {runs})",
        f"  hand-written layout {h * 1000:.1f} ms, d4cli's layout {s * 1000:.1f} ms: ratio {h / s:.2f}x (goal <= 3x)",
    ]


def _timed(action: Callable[[], object]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one call."""
    cpu, wall = time.process_time(), time.perf_counter()
    action()
    return time.process_time() - cpu, time.perf_counter() - wall


def undo_redo_figures(depth: int = 1000, shallow: int = 10, samples: int = 7) -> list[str]:
    """One undo and one redo with *shallow* and with *depth* changes already undone (in process)."""
    from d4cli.fight.encounter_state import Encounter, new_creature
    from d4cli.fight.turns import add_creature, end_turn, start_turn

    changes = depth + samples + 1
    with tempfile.TemporaryDirectory(prefix="d4cli-store-") as tmp:
        path = Path(tmp) / "encounter.toml"
        transaction.create(path, dump_encounter(Encounter(name="Deep")), {"name": "Deep"})
        for name in ("Aria", "Borin", "Goblin"):
            creature = new_creature(name, (("Might", 3),), hp=9)
            _change(path, lambda e, c=creature: add_creature(e, c))
        for n in range(changes):
            step = start_turn if n % 2 == 0 else end_turn
            _change(path, lambda e, s=step: s(e))
        undo: dict[int, list[tuple[float, float]]] = {shallow: [], depth: []}
        for stacked in range(changes):  # `stacked` changes already undone
            figure = _timed(lambda: undo_redo.undo(path))
            for wanted in undo:
                if wanted <= stacked < wanted + samples:
                    undo[wanted].append(figure)
        redo: dict[int, list[tuple[float, float]]] = {shallow: [], depth: []}
        for stacked in range(changes, 0, -1):
            figure = _timed(lambda: undo_redo.redo(path))
            for wanted in redo:
                if wanted < stacked <= wanted + samples:
                    redo[wanted].append(figure)

    def cell(figures: list[tuple[float, float]]) -> tuple[float, str]:
        cpu = statistics.median(f[0] for f in figures)
        wall = statistics.median(f[1] for f in figures)
        return cpu, f"{cpu * 1000:.2f} ms CPU ({wall * 1000:.2f} ms wall)"

    lines = [
        f"Undo and redo with {shallow:,} and {depth:,} changes already undone (median of {samples})"
    ]
    for name, table in (("undo", undo), ("redo", redo)):
        small, small_text = cell(table[shallow])
        large, large_text = cell(table[depth])
        lines.append(
            f"  {name} at depth {shallow:,}: {small_text}; at depth {depth:,}: {large_text}:"
            f" ratio {large / small:.2f}x (goal about 1x)"
        )
    return lines


def play_add_figures(small: int = 100, large: int = 1000, samples: int = 20) -> list[str]:
    """Wall and CPU time of one ``add`` line of a ``play`` session at *small* and *large* creatures."""
    import contextlib
    import io
    import os

    from d4cli.cli.play_session import Session

    with tempfile.TemporaryDirectory(prefix="d4cli-play-") as tmp:
        path = Path(tmp) / "encounter.toml"
        saved = os.environ.get("D4CLI_FILE")
        os.environ["D4CLI_FILE"] = str(path)
        session = Session(str(path))
        per_add: dict[int, tuple[float, float]] = {}
        try:
            with contextlib.redirect_stdout(io.StringIO()) as out:
                assert session.run_line("init") == 0
                started = time.perf_counter()
                for n in range(large + samples):
                    if n in (small, large):
                        cpu, wall = time.process_time(), time.perf_counter()
                    line = (
                        f"add 'Creature {n:04d}' --aspect Might={n % 5} --aspect Finesse=2 --hp 10"
                    )
                    assert session.run_line(line) == 0, line
                    if n in (small + samples - 1, large + samples - 1):
                        size = n + 1 - samples
                        per_add[size] = (
                            (time.process_time() - cpu) / samples,
                            (time.perf_counter() - wall) / samples,
                        )
                    if n == large - 1:
                        total = time.perf_counter() - started
                    if out.tell() > 1 << 20:
                        out.seek(0)
                        out.truncate()
        finally:
            if saved is None:
                os.environ.pop("D4CLI_FILE", None)
            else:
                os.environ["D4CLI_FILE"] = saved
    (small_cpu, small_wall), (large_cpu, large_wall) = per_add[small], per_add[large]
    return [
        f"Adds in one play session (in process, mean of {samples} adds at each size)",
        f"  one add at {small:,} creatures {small_wall * 1000:.1f} ms ({small_cpu * 1000:.1f} ms CPU), at {large:,}"
        f" {large_wall * 1000:.1f} ms ({large_cpu * 1000:.1f} ms CPU): ratio {large_wall / small_wall:.2f}x wall,"
        f" {large_cpu / small_cpu:.2f}x CPU (goal <= 5x)",
        f"  {large:,} adds from an empty encounter: {total:.1f} s",
    ]


def odds_grid_figures(runs: int = 3, pools: int = 10_000) -> list[str]:
    """Wall time of the largest grids of pools (*pools* rows), as JSON to a pipe, each in a fresh
    process (median)."""
    lines = [f"Grids of pools (fresh process, median of {runs})"]
    for dc in ("5", "15000"):
        argv = [
            sys.executable,
            "-m",
            "d4cli",
            "odds",
            "pool",
            "--pool",
            f"1..{pools}",
            "--dc",
            dc,
            "--json",
        ]
        walls = []
        for _ in range(runs):
            started = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
            walls.append(time.perf_counter() - started)
        lines.append(f"  odds pool --pool 1..{pools} --dc {dc}: {statistics.median(walls):.2f} s")
    return lines


def _peak_rss(argv: list[str]) -> tuple[int, float]:
    """(max RSS in KiB, wall seconds) of one fresh process running *argv*, stdout thrown away."""
    probe = (
        "import resource, subprocess, sys, time; t = time.perf_counter();"
        " subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True);"
        " print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.perf_counter() - t)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, *argv], capture_output=True, text=True, check=True
    )
    rss, wall = out.stdout.split()
    return int(rss), float(wall)


def log_memory_figures(sizes: tuple[int, int] = (1_000, 10_000), runs: int = 3) -> list[str]:
    """Peak memory of ``log --json`` and ``log`` on journals of *sizes* entries (median of *runs*)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from encounter import add_history, fresh_encounter

    lines = [f"log streams: max RSS of one process, median of {runs} (journal entries as built)"]
    with tempfile.TemporaryDirectory(prefix="d4cli-log-") as tmp:
        peaks: dict[str, list[int]] = {"--json": [], "text": []}
        for size in sizes:
            path = Path(tmp) / f"e{size}.toml"
            fresh_encounter(path)
            # about 1.23 journal entries an action (the turn starts they need)
            add_history(path, round(size / 1.229))
            entries = len(path.with_name(path.name + ".journal").read_bytes().splitlines())
            megabytes = path.with_name(path.name + ".journal").stat().st_size / 1e6
            for form, extra in (("--json", ["--json"]), ("text", [])):
                argv = [sys.executable, "-m", "d4cli", "log", *extra, "--file", str(path)]
                figures = [_peak_rss(argv) for _ in range(runs)]
                rss = statistics.median(f[0] for f in figures)
                wall = statistics.median(f[1] for f in figures)
                peaks[form].append(int(rss))
                lines.append(
                    f"  log {form} of {entries:,} entries ({megabytes:.1f} MB): {rss / 1024:.1f} MiB, {wall * 1000:.0f} ms"
                )
        for form, (small, large) in peaks.items():
            lines.append(
                f"  log {form}: {large / small:.2f}x the memory for {sizes[1] // sizes[0]}x the entries (goal about 1x)"
            )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--creatures", type=int, default=1000)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--smoke", action="store_true", help="every part once, at a tiny size")
    args = parser.parse_args(argv)
    import os

    parts: list[Callable[[], list[str]]] = (
        [
            lambda: first_change_figures(1, 20),
            lambda: undo_redo_figures(depth=10, shallow=2, samples=2),
            lambda: play_add_figures(small=5, large=10, samples=2),
            lambda: log_memory_figures(sizes=(20, 100), runs=1),
            lambda: odds_grid_figures(runs=1, pools=100),
        ]
        if args.smoke
        else [
            lambda: first_change_figures(args.runs, args.creatures),
            lambda: undo_redo_figures(args.depth),
            play_add_figures,
            log_memory_figures,
            odds_grid_figures,
        ]
    )
    for part in parts:
        for line in part():
            print(line, flush=True)
    print("load average {:.2f} {:.2f} {:.2f} at the end".format(*os.getloadavg()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
