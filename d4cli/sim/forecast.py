"""Forecast: how a fight is likely to end from the encounter as it stands, through the simulator (R12, R18, R19).

The fight is played on from the file's state (the running turn goes on, hp,
Loads and effects as they are), in the file's own mode only, under the
simulator's stated policy (`d4cli.sim.policy`, ``d4cli help simulate``).
Pure once the runs are played: `forecast_of` turns a `Tally` into a
`Forecast` record; the shell prints it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from d4cli.fight.encounter_state import Encounter
from d4cli.fight.sides import encounter_end
from d4cli.rules.errors import InputError
from d4cli.rules.records import notebook
from d4cli.sim.engines import choose
from d4cli.sim.pieces import run_all
from d4cli.sim.report import finishes, quantile, wilson
from d4cli.sim.setup import Setup, prepare
from d4cli.sim.tally import Tally

# Runs of a forecast: with the batch engine the default costs about a `status` (benchmarks/forecast.py).
DEFAULT_RUNS = 2000
RUNS = (1, 1_000_000)
MAX_ROUNDS = 100


@notebook
@dataclass(frozen=True)
class Chance:
    """One side's chance to win: ``wins`` of the runs, ``rate`` in 0..1 and its 95% Wilson interval."""

    side: str
    wins: int
    rate: float
    low: float
    high: float


@notebook
@dataclass(frozen=True)
class Forecast:
    """The forecast of one encounter.

    Attributes:
        encounter: the encounter's name.
        mode: the simulator's mode of the file (``turn``, ``round`` or ``round-zero``, R12).
        runs / seed / max_rounds: how it was computed (a fight still running after
            ``max_rounds`` rounds is a draw).
        chances: each side's `Chance`, in order of first appearance.
        draws: the draws as a `Chance` whose side is "".
        rounds_median / rounds_p90: rounds left to the end of the finished fights,
            the running round counted as 1 (None when no fight finished).
        finished: how many fights finished.
        histogram: finished fights by rounds left, ``(rounds, fights)`` in order.
        engine / engine_reason: the engine that played (`d4cli.sim.engines`; None when no
            run was played) and, when the reference engine played although the batch engine
            was asked for, what the batch engine cannot express (else None).
    """

    encounter: str
    mode: str
    runs: int
    seed: int
    max_rounds: int
    chances: tuple[Chance, ...]
    draws: Chance
    rounds_median: int | None
    rounds_p90: int | None
    finished: int
    histogram: tuple[tuple[int, int], ...] = ()
    engine: str | None = None
    engine_reason: str | None = None


class FightOver(InputError):
    """The fight is already over (R21): one side, or none, has a creature up.

    Attributes:
        winner: the side left standing, or None when no side has a creature up.
    """

    def __init__(self, winner: str | None) -> None:
        self.winner = winner
        problem = (
            f"the fight is over: {winner} won (R21)"
            if winner
            else "the fight is over: everyone is down, no side won (R21)"
        )
        super().__init__("forecast", None, problem)


def decided(encounter: Encounter, won: str | None) -> Forecast:
    """The forecast of a fight already over (R21), played by nobody: *won* (the side left
    standing) wins at 100%, every other side at 0%; with everyone down, no side wins and
    it is no draw either (a draw is a fight still running at the round limit): all 0%."""

    def certain(side: str, sure: bool) -> Chance:
        return Chance(side, 0, float(sure), float(sure), float(sure))  # no run played

    chances = tuple(certain(side, side == won) for side in sides(encounter))
    return Forecast(
        encounter.name,
        sim_mode(encounter),
        0,
        0,
        MAX_ROUNDS,
        chances,
        certain("", False),
        0,
        0,
        0,
    )


def sim_mode(encounter: Encounter) -> str:
    """The simulator mode of the file's own reset mode: ``turn``, ``round`` or ``round-zero`` (R12)."""
    if encounter.mode != "round":
        return "turn"
    return "round-zero" if encounter.round_reset == "zero" else "round"


def sides(encounter: Encounter) -> list[str]:
    """The sides of the creatures, in order of first appearance (creatures without one left out)."""
    found: list[str] = []
    for creature in encounter.creatures:
        if creature.side and creature.side not in found:
            found.append(creature.side)
    return found


def check_running(encounter: Encounter) -> None:
    """Refuse a fight that is over (R21, `d4cli.fight.sides.encounter_end`).

    Raises:
        FightOver: naming the side that has won (or none: every creature is down).
    """
    end = encounter_end(encounter)
    if end is not None:
        raise FightOver(end.winner)


def forecast_setup(encounter: Encounter, max_rounds: int = MAX_ROUNDS) -> tuple[str, Setup]:
    """The file's mode and its `Setup` from the state as it is.

    Raises:
        FightOver: the fight is already over (R21).
        InputError: what `d4cli.sim.setup.prepare` refuses (fewer than two sides, ...).
    """
    check_running(encounter)
    mode = sim_mode(encounter)
    return mode, prepare(encounter, mode, max_rounds=max_rounds)


def forecast_of(
    encounter: Encounter,
    mode: str,
    sides: tuple[str, ...],
    tally: Tally,
    seed: int,
    max_rounds: int = MAX_ROUNDS,
) -> Forecast:
    """The `Forecast` of the runs in *tally* (95% Wilson intervals; rounds of finished fights only)."""
    runs = tally.runs
    chances = tuple(
        Chance(
            side, tally.wins[n], tally.wins[n] / runs if runs else 0.0, *wilson(tally.wins[n], runs)
        )
        for n, side in enumerate(sides)
    )
    draws = Chance("", tally.draws, tally.draws / runs if runs else 0.0, *wilson(tally.draws, runs))
    finished = finishes(tally.rounds, tally.draws, max_rounds)
    return Forecast(
        encounter.name,
        mode,
        runs,
        seed,
        max_rounds,
        chances,
        draws,
        quantile(finished, 0.5),
        quantile(finished, 0.9),
        sum(finished.values()),
        tuple(sorted(finished.items())),
    )


def forecast(
    encounter: Encounter,
    runs: int = DEFAULT_RUNS,
    seed: int = 0,
    jobs: int = 1,
    max_rounds: int = MAX_ROUNDS,
    engine: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Forecast:
    """Play *runs* fights on from the encounter's state in its own mode and say how they ended.

    *progress* is called with the runs each finished piece played (`d4cli.sim.pieces.run_all`).

    *engine* is ``batch`` (the default; the reference engine plays what it cannot express)
    or ``reference`` (`d4cli.sim.engines`). The result depends on *seed*, *runs* and the
    engine that played only, never on *jobs* (processes).

    Raises:
        FightOver: the fight is already over (R21).
        InputError: *runs* outside 1..1,000,000, or what `forecast_setup` refuses.
        InputError: an *engine* that is not one of `d4cli.sim.engines.ENGINES`.
    """
    if not RUNS[0] <= runs <= RUNS[1]:
        raise InputError("runs", runs, "must be within 1..1,000,000")
    mode, setup = forecast_setup(encounter, max_rounds)
    choice = choose([setup], engine)
    tally = run_all([("forecast", mode, setup)], runs, seed, jobs, progress, engine=choice)[
        "forecast"
    ]
    found = forecast_of(encounter, mode, setup.sides, tally, seed, max_rounds)
    return replace(found, engine=choice.name, engine_reason=choice.reason)
