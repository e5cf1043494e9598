"""Simulator benchmark: simulated actions per second per process on the bundled skirmish.

Three ways to play the same fight, all in this process, turn mode, taking turns
``REPEATS`` times: d4cli's reference engine (every action through the real pure
transitions and their records), d4cli's batch engine (`d4cli.sim.batch`: many runs at
once on numpy arrays, ``BATCH_RUNS`` fights, its tables built in the time), and a
minimal loop: plain lists, dice from ``random.choices``, no records, the same policy
(lowest hp target, the best expected damage with the action's own net Advantage,
repeat while the gate allows, one Team Action reaction per attack). The report gives
the best actions per second of each (the machine may be shared) and the ratios: the
batch engine's goal is at least 10x the minimal loop. Run ``python benchmarks/simulate.py [RUNS]``
(``--smoke``: 20 fights each way, once, a check that it runs whose figures mean nothing).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from d4cli.fileformat.encounter_toml import bundled_examples, parse_encounter
from d4cli.sim import batch
from d4cli.sim.batch_scope import BLOCK
from d4cli.sim.engine import run_chunk
from d4cli.sim.policy import expected_damage
from d4cli.sim.setup import prepare

FACES = {n: range(1, n + 1) for n in (4, 6, 8, 10, 12, 20)}
REPEATS = 5
BATCH_RUNS = 4 * BLOCK
BATCH_GOAL = 10.0


def engine_rate(runs: int) -> tuple[float, int]:
    """Actions per second of `d4cli.sim.engine` on the skirmish (turn mode), and the actions played."""
    setup = prepare(parse_encounter(bundled_examples()["skirmish"].read_text(), "skirmish"), "turn")
    run_chunk(setup, 0, "turn", 0, 20)  # warm the odds cache
    start = time.perf_counter()
    tally = run_chunk(setup, 1, "turn", 0, runs)
    seconds = time.perf_counter() - start
    return tally.sums[2] / seconds, tally.sums[2]


def batch_rate(runs: int = BATCH_RUNS) -> tuple[float, int]:
    """Actions per second of `d4cli.sim.batch` on the skirmish (turn mode), tables built included."""
    setup = prepare(parse_encounter(bundled_examples()["skirmish"].read_text(), "skirmish"), "turn")
    batch.run_chunk(setup, 0, "turn", 0, 20)  # warm the odds cache, as for the reference engine
    start = time.perf_counter()
    tally = batch.run_chunk(setup, 1, "turn", 0, runs)
    seconds = time.perf_counter() - start
    return tally.sums[2] / seconds, tally.sums[2]


def minimal_rate(runs: int) -> tuple[float, int]:
    """Actions per second of the same fight as a minimal loop with `random.choices`."""
    setup = prepare(parse_encounter(bundled_examples()["skirmish"].read_text(), "skirmish"), "turn")
    start_state = setup.encounter.creatures
    sides = setup.side_of
    plans = [
        [
            (m.value, m.cost, [(e.count, e.sides, e.modifier) for e in m.extra], m.extra, m.net)
            for m in moves
        ]
        for moves in setup.moves
    ]
    best_aspect = [max(v for _, v in c.aspects) for c in start_state]
    rng = random.Random(1)
    choices = rng.choices
    actions = 0
    began = time.perf_counter()
    for _ in range(runs):
        hp = [c.hp or 0 for c in start_state]
        load = [c.load for c in start_state]
        evasion = [c.evasion for c in start_state]
        grant = [False] * len(hp)
        over = False
        for _round in range(100):
            for me, creature in enumerate(start_state):
                if hp[me] <= 0:
                    continue
                load[me] = creature.reset_value
                for _step in range(20):
                    foes = [
                        (hp[i], i) for i in range(len(hp)) if sides[i] != sides[me] and hp[i] > 0
                    ]
                    if not foes:
                        over = True
                        break
                    target = min(foes)[1]
                    best, value = None, -1.0
                    for plan in plans[me]:
                        if plan[0] - load[me] >= plan[1]:
                            ev = expected_damage(
                                max(1, plan[0] - max(0, load[me]) + plan[4]),
                                plan[3],
                                evasion[target],
                            )
                            if ev > value:
                                best, value = plan, ev
                    if best is None:
                        break
                    for ally in range(len(hp)):
                        if (
                            sides[ally] == sides[target]
                            and hp[ally] > 0
                            and best_aspect[ally] - load[ally] >= 1
                        ):
                            load[ally] += 1
                            grant[me] = True
                            break
                    pool = max(1, best[0] - max(0, load[me]) + best[4] - (1 if grant[me] else 0))
                    grant[me] = False
                    total = sum(choices(FACES[4], k=pool))
                    for count, sides_, modifier in best[2]:
                        total += sum(choices(FACES[sides_], k=count)) + modifier
                    hp[target] = max(0, hp[target] - max(0, total - evasion[target]))
                    load[me] += best[1]
                    actions += 1
                if over:
                    break
            if over:
                break
    seconds = time.perf_counter() - began
    return actions / seconds, actions


def report(runs: int = 2000, repeats: int = REPEATS, batch_runs: int = BATCH_RUNS) -> list[str]:
    """The benchmark as printable lines: *runs* fights each for the reference engine and the
    minimal loop, *batch_runs* for the batch engine, the best of *repeats* rounds."""
    engine = minimal = fast = 0.0
    engine_actions = minimal_actions = fast_actions = 0
    for _ in range(repeats):
        rate, engine_actions = engine_rate(runs)
        engine = max(engine, rate)
        rate, minimal_actions = minimal_rate(runs)
        minimal = max(minimal, rate)
        rate, fast_actions = batch_rate(batch_runs)
        fast = max(fast, rate)
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    return [
        f"Simulate: the skirmish, turn mode, one process, best of {repeats}; load average {load}",
        f"  reference engine        {engine:>10,.0f} actions/s  ({runs:,} fights, {engine_actions:,} actions)",
        f"  minimal random.choices  {minimal:>10,.0f} actions/s  ({runs:,} fights, {minimal_actions:,} actions)",
        f"  batch engine            {fast:>10,.0f} actions/s  ({batch_runs:,} fights, {fast_actions:,} actions)",
        f"  ratio minimal / reference  {minimal / engine:.1f}x",
        f"  ratio batch / minimal      {fast / minimal:.1f}x (goal: at least {BATCH_GOAL:.0f}x)",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=int, nargs="?", default=2000, help="fights per round")
    parser.add_argument("--smoke", action="store_true", help="20 fights each way, once")
    args = parser.parse_args(argv)
    lines = report(20, 1, 20) if args.smoke else report(args.runs)
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
