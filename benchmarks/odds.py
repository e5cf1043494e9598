"""Odds benchmark: d4cli.odds.roll_odds against icepool on the same questions.

Run ``python benchmarks/odds.py`` (``--quick`` for fewer repeats, ``--timeout S``
for the longest icepool run allowed, ``--smoke`` for the small cases once each: a
check that the benchmark runs and both libraries agree, whose times mean nothing).
Importable: ``run()`` returns the rows, ``report()`` the printed lines
(``benchmarks/run.py`` calls the script).

Each case asks both libraries the same exact question (a P(success)) and
checks that the answers agree to 1e-12. d4cli is timed in this process with its
caches cleared before every repeat (cold computation, no import time). icepool
(the optional ``bench`` extra, imported only here) caches what it computed, so
each of its repeats runs cold in a fresh child process (the fork is not timed);
that also bounds its 10,000-dice case, which does not finish in reasonable
time: a case past the timeout is reported as ``> timeout`` and its ratio as a
lower bound. Figures are medians. A cold icepool run includes its first-use
set-up in a new process (a few ms), which dominates the smallest cases; run
twice in one process it answers from its cache instead, which times nothing.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from d4cli.odds import roll_odds
from d4cli.rules.action_roll import advantage_bonus
from d4cli.rules.dice import ExtraDice


class Case(NamedTuple):
    """One question: a pool of d4s (+ extra dice) against a DC, or a check."""

    name: str
    kind: str  # "pool" or "check"
    args: tuple[int, ...]  # pool: (d4s, extra count, extra faces, dc); check: (modifier, level, dc)
    slow: bool = False  # icepool is expected to need the timeout


class Row(NamedTuple):
    """One measured case: medians in seconds; icepool None when missing or timed out."""

    name: str
    d4cli_seconds: float
    icepool_seconds: float | None
    ratio: float | None  # icepool / d4cli; a lower bound when icepool timed out
    note: str


CASES = (
    Case("5d4 vs DC 12", "pool", (5, 0, 0, 12)),
    Case("30d4+1d8 vs DC 80", "pool", (30, 1, 8, 80)),
    Case("300d4 vs DC 750", "pool", (300, 0, 0, 750)),
    Case("1,000d4 vs DC 2,500", "pool", (1_000, 0, 0, 2_500), slow=True),
    Case("9,999d4+1d8 (10,000 dice, L2) vs DC 25,004", "pool", (9_999, 1, 8, 25_004), slow=True),
    Case("check d20+3, Adv 2 vs DC 12", "check", (3, 2, 12)),
    Case("check d20+3, Adv 5 vs DC 18", "check", (3, 5, 18)),
)
# ``--smoke``: the cases that take icepool well under a second, once each.
SMOKE_CASES = tuple(case for case in CASES if not case.slow and case.name != "300d4 vs DC 750")


def d4cli_answer(case: Case) -> float:
    """The case's P(success) by d4cli.odds.roll_odds, computed from cold caches."""
    roll_odds.clear_caches()
    if case.kind == "pool":
        d4s, count, faces, dc = case.args
        extra = (ExtraDice(count, faces),) if count else ()
        return roll_odds.p_pool_success(d4s, dc, extra)
    modifier, level, dc = case.args
    return roll_odds.p_check_success(dc, modifier, level)


def icepool_answer(case: Case) -> float:
    """The same P(success) by icepool (exact Fractions)."""
    import icepool

    if case.kind == "pool":
        d4s, count, faces, dc = case.args
        die = d4s @ icepool.d4
        if count:
            die = die + count @ icepool.d(faces)
        return float(die.probability(">=", dc))
    modifier, level, dc = case.args
    if level:
        bonus = icepool.map(lambda *dice: advantage_bonus(dice), *([icepool.d6] * level))
    else:
        bonus = icepool.Die([0])

    def resolve(natural: int, extra: int) -> object:
        if natural == 1:
            return False  # C6
        total = natural + modifier + extra
        if natural == 20:
            return total + icepool.d6 >= dc  # C5
        return total >= dc

    return float(icepool.map(resolve, icepool.d20, bonus).probability(True))


def _median_time(function: Callable[[], float], repeats: int) -> tuple[float, float]:
    times = []
    answer = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        answer = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), answer


def _icepool_child(case: Case, queue: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    # icepool recurses once per die for `n @ die`: give it a deep stack in a thread.
    def work() -> None:
        try:
            queue.put(_median_time(lambda: icepool_answer(case), 1))
        except Exception as error:  # noqa: BLE001 - reported, not raised
            queue.put(error)

    sys.setrecursionlimit(200_000)
    threading.stack_size(1 << 30)
    worker = threading.Thread(target=work)
    worker.start()
    worker.join()


def _icepool_once(case: Case, timeout: float) -> tuple[float, float] | str:
    """One cold icepool run in a fresh child (icepool caches what it computed, so
    a second run in the same process would time a lookup): its time and answer,
    or why there is none (a timeout, an error)."""
    queue: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
    child = multiprocessing.Process(target=_icepool_child, args=(case, queue), daemon=True)
    child.start()
    try:
        result = queue.get(timeout=timeout)
    except Exception:  # noqa: BLE001 - queue.Empty: the child ran out of time
        result = None
    if child.is_alive():
        child.terminate()  # the child this function started, by its handle
    child.join()
    if result is None:
        return (
            "timeout" if child.exitcode in (None, -15) else f"icepool exited with {child.exitcode}"
        )
    if isinstance(result, Exception):
        return f"icepool failed: {type(result).__name__}: {result}"
    return result


def _icepool_median(case: Case, repeats: int, timeout: float) -> tuple[float, float] | str:
    times, answer = [], 0.0
    for _ in range(repeats):
        measured = _icepool_once(case, timeout)
        if isinstance(measured, str):
            return measured
        times.append(measured[0])
        answer = measured[1]
    return statistics.median(times), answer


def icepool_available() -> bool:
    try:
        import icepool  # noqa: F401
    except ImportError:
        return False
    return True


def run(quick: bool = False, timeout: float | None = None, smoke: bool = False) -> list[Row]:
    """Time every case with d4cli and with icepool; medians in seconds.

    Args:
        quick: fewer repeats (noisier).
        timeout: seconds allowed for one icepool run (default 60, quick and smoke 10).
        smoke: only `SMOKE_CASES`, each timed once (a check that it runs, not a figure).

    Returns:
        One `Row` per case, in `CASES` (or `SMOKE_CASES`) order.
    """
    limit = timeout if timeout is not None else (10.0 if quick or smoke else 60.0)
    have_icepool = icepool_available()
    rows = []
    for case in SMOKE_CASES if smoke else CASES:
        repeats = (3 if quick else 7) if case.slow or case.args[0] >= 300 else (5 if quick else 21)
        repeats = 1 if smoke else repeats
        d4_time, d4_answer = _median_time(lambda case=case: d4cli_answer(case), repeats)
        if not have_icepool:
            rows.append(
                Row(
                    case.name,
                    d4_time,
                    None,
                    None,
                    "icepool not installed (pip install -e '.[bench]')",
                )
            )
            continue
        ice_repeats = 1 if case.slow else repeats
        measured = _icepool_median(case, ice_repeats, limit)
        if isinstance(measured, str):
            note = f"icepool > {limit:.0f} s" if measured == "timeout" else measured
            ratio = limit / d4_time if measured == "timeout" else None
            rows.append(Row(case.name, d4_time, None, ratio, note))
            continue
        ice_time, ice_answer = measured
        agree = abs(ice_answer - d4_answer) <= 1e-12
        note = f"P = {d4_answer:.12g}; " + (
            "answers agree" if agree else f"DISAGREE: icepool {ice_answer!r}"
        )
        rows.append(Row(case.name, d4_time, ice_time, ice_time / d4_time, note))
    return rows


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    if value < 1e-3:
        return f"{value * 1e6:.0f} us"
    if value < 1:
        return f"{value * 1e3:.1f} ms"
    return f"{value:.2f} s"


def report(quick: bool = False, timeout: float | None = None, smoke: bool = False) -> list[str]:
    """The benchmark as printable lines (a header, one line per case, a footer)."""
    rows = run(quick=quick, timeout=timeout, smoke=smoke)
    width = max(len(row.name) for row in rows)
    lines = [
        f"{'case':<{width}}  {'d4cli':>9}  {'icepool':>9}  {'icepool/d4cli':>13}  note",
    ]
    for row in rows:
        if row.ratio is None:
            ratio = "-"
        elif row.icepool_seconds is None:
            ratio = f"> {row.ratio:,.0f}x"
        else:
            ratio = f"{row.ratio:,.1f}x"
        lines.append(
            f"{row.name:<{width}}  {_seconds(row.d4cli_seconds):>9}  "
            f"{_seconds(row.icepool_seconds):>9}  {ratio:>13}  {row.note}"
        )
    lines.append(
        "medians of cold runs: d4cli with its caches cleared, icepool in a fresh child each run"
    )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Fewer repeats (noisier).")
    parser.add_argument("--timeout", type=float, default=None, help="Seconds per icepool case.")
    parser.add_argument(
        "--smoke", action="store_true", help="The small cases once each: a check that it runs."
    )
    args = parser.parse_args(argv)
    for line in report(quick=args.quick, timeout=args.timeout, smoke=args.smoke):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
