"""Simulator benchmark: simulated actions per second per process on the bundled skirmish.

Beside d4cli's simulator (every action through the real pure transitions and
their records), the same fight coded as a minimal loop: plain lists, dice from
``random.choices``, no records, the same policy (lowest hp target, the best
expected damage with the action's own net Advantage, repeat while the gate
allows, one Team Action reaction per attack). Both run in this process, turn
mode, taking turns ``REPEATS`` times; the report gives the best actions per
second of each (the machine may be shared) and the ratio. Run ``python benchmarks/simulate.py [RUNS]``.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from d4cli.fileformat.encounter_toml import bundled_examples, parse_encounter
from d4cli.sim.engine import run_chunk
from d4cli.sim.policy import expected_damage
from d4cli.sim.setup import prepare

FACES = {n: range(1, n + 1) for n in (4, 6, 8, 10, 12, 20)}
REPEATS = 3


def engine_rate(runs: int) -> tuple[float, int]:
    """Actions per second of `d4cli.sim.engine` on the skirmish (turn mode), and the actions played."""
    setup = prepare(parse_encounter(bundled_examples()["skirmish"].read_text(), "skirmish"), "turn")
    run_chunk(setup, 0, "turn", 0, 20)  # warm the odds cache
    start = time.perf_counter()
    tally = run_chunk(setup, 1, "turn", 0, runs)
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


def report(runs: int = 2000) -> list[str]:
    engine = minimal = 0.0
    engine_actions = minimal_actions = 0
    for _ in range(REPEATS):
        rate, engine_actions = engine_rate(runs)
        engine = max(engine, rate)
        rate, minimal_actions = minimal_rate(runs)
        minimal = max(minimal, rate)
    return [
        f"Simulate: the skirmish, turn mode, {runs:,} fights each, one process, best of {REPEATS}",
        f"  d4cli simulate engine   {engine:>10,.0f} actions/s  ({engine_actions:,} actions)",
        f"  minimal random.choices  {minimal:>10,.0f} actions/s  ({minimal_actions:,} actions)",
        f"  ratio minimal / engine  {minimal / engine:.1f}x (goal: within 3x)",
    ]


if __name__ == "__main__":
    for line in report(int(sys.argv[1]) if len(sys.argv) > 1 else 2000):
        print(line)
