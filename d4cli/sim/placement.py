"""The real fight placed among simulated ones: its rounds and each side's damage as percentiles (R12, R18).

The simulator plays the fight from the state at the recap's start (the
``init``, or the entry given), in the file's mode, under its stated policy
(`d4cli.sim.policy`), and keeps each run's rounds and each side's damage (the
hp its creatures' attacks took off, R16). A real figure's percentile is its
mid-rank among the runs: the share of runs below it plus half the share equal
to it, 0..1. Pure but for the dice, which come from the seed as in
``simulate`` (`d4cli.sim.engine.run_seed`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from d4cli.fight.encounter_state import Encounter
from d4cli.sim.batched_dice import BatchedDice
from d4cli.sim.engine import play, run_seed
from d4cli.sim.forecast import forecast_setup
from d4cli.sim.setup import Memo
from d4cli.sim.tally import FIGURES

RUNS = 1000


@dataclass(frozen=True)
class Placement:
    """Where the real fight falls among *runs* simulated fights from the same start.

    Attributes:
        mode / runs / seed: how the fights were played.
        rounds: the real fight's rounds and their percentile among the runs' rounds
            (a draw counts the rounds it was stopped at).
        damage: per side, the real damage dealt and its percentile among the runs'.
        wins: per side, the share of runs it won.
    """

    mode: str
    runs: int
    seed: int
    rounds: tuple[int, float]
    damage: dict[str, tuple[int, float]]
    wins: dict[str, float]


def share_below(values: Sequence[int], real: int) -> float:
    """The mid-rank of *real* among *values*: ``(#below + #equal / 2) / len``; 1/2 when there are none."""
    if not values:
        return 0.5
    below = sum(1 for value in values if value < real)
    equal = sum(1 for value in values if value == real)
    return (below + equal / 2) / len(values)


def place(
    start: Encounter,
    rounds: int,
    damage: dict[str, int],
    runs: int = RUNS,
    seed: int = 0,
    max_rounds: int = 100,
) -> Placement:
    """Play *runs* fights from *start* and place the real *rounds* and *damage* (per side) among them.

    Raises:
        InputError: what `d4cli.sim.forecast.forecast_setup` refuses (a fight
            already over, fewer than two sides, ...).
    """
    mode, setup = forecast_setup(start, max_rounds)
    dice = BatchedDice(random.Random())
    memo: Memo = {}
    played_rounds: list[int] = []
    played_damage: list[list[int]] = [[] for _ in setup.sides]
    wins = [0] * len(setup.sides)
    for index in range(runs):
        winner, figures, _ = play(setup, dice.reseed(run_seed(seed, mode, index)), memo)
        played_rounds.append(figures[0])
        for number in range(len(setup.sides)):
            played_damage[number].append(figures[len(FIGURES) + number])
        if winner is not None:
            wins[winner] += 1
    return Placement(
        mode,
        runs,
        seed,
        (rounds, share_below(played_rounds, rounds)),
        {
            side: (damage.get(side, 0), share_below(played_damage[n], damage.get(side, 0)))
            for n, side in enumerate(setup.sides)
        },
        {side: wins[n] / runs for n, side in enumerate(setup.sides)},
    )
