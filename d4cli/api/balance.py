"""`balance`: the value of one creature's setting that gives a side a target chance to win, and
`apply_balance`, which writes it as one journaled change (R1, R7, R15, R16, R18).

Every value is played by the simulator from the encounter as it stands, in the file's own
mode (as `forecast` plays it), with the same seed for every value: common random numbers,
so two neighbouring values meet the same dice (`d4cli.sim.balance_search`). A value's encounter is
made by the very transition `apply_balance` writes (``set``'s checks, ``exhaust``, ``add
--like``), so what was played is what is written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from d4cli.api.arguments import checked
from d4cli.api.change import Change
from d4cli.api.creature_settings import FIELDS, checked_vary, value_encounter, value_transition
from d4cli.api.simulation import pool_jobs
from d4cli.fight.encounter_state import Encounter
from d4cli.rules.errors import InputError
from d4cli.rules.names import fold_name
from d4cli.sim.balance_search import Balance, Point, Vary, most_values, search
from d4cli.sim.forecast import forecast_setup, sides, sim_mode
from d4cli.sim.pieces import run_all

__all__ = [
    "balance",
    "apply_balance",
    "checked_vary",
    "value_transition",
    "value_encounter",
    "Balance",
    "Point",
    "Vary",
    "OnValue",
    "FIELDS",
    "DEFAULT_RUNS",
    "MAX_WORK",
]

if TYPE_CHECKING:  # the tracker whose door writes the value (`apply_balance`)
    from d4cli.api.tracker import Tracker

DEFAULT_RUNS = 2000
# The most fights one search may play in all, runs x values: the ambush plays about 1,000
# fights a second per core (measured on a loaded 2-core machine), so some 8 minutes on two.
MAX_WORK = 1_000_000


# Reports each value played: (its point, values played so far, most values).
OnValue = Callable[[Point, int, int], None]


@checked
def balance(
    encounter: Encounter,
    vary: Vary,
    side: str,
    target: float,
    *,
    runs: int = DEFAULT_RUNS,
    seed: int = 0,
    jobs: int | None = None,
    on_value: OnValue | None = None,
) -> Balance:
    """The value of *vary* in its range whose chance for *side* to win is nearest *target* (0..1).

    The result depends on *seed* and *runs* only, never on *jobs* (processes; default: up to
    two once the runs are worth a pool, `d4cli.api.simulation.pool_jobs`).

    Raises:
        InputError: naming ``vary``: an unknown creature, field or Aspect, a range with no
            whole number or a value the file refuses at an end of it; naming ``wins``: a side
            no creature is on, a target outside 0..1; naming ``runs``: runs x values past
            `MAX_WORK`; the fight is over (R21) or cannot be simulated.
    """
    if not 0.0 <= target <= 1.0:
        raise InputError("wins", target, "the target must be within 0..100 (percent)")
    named = _side(encounter, side)
    vary = checked_vary(encounter, vary)
    most = most_values(vary.low, vary.high)
    if runs * most > MAX_WORK:
        raise InputError(
            "runs",
            runs,
            f"{runs:,} runs x up to {most} values is past the cap of {MAX_WORK:,} fights;"
            f" give at most {MAX_WORK // most:,}",
        )
    mode = sim_mode(encounter)
    for end in (vary.low, vary.high):  # refused at an end: nothing is played
        _playable(encounter, vary, end)
    played = 0
    processes = pool_jobs(runs) if jobs is None else jobs

    def chance(value: int) -> Point:
        nonlocal played
        _, setup = forecast_setup(value_encounter(encounter, vary, value))
        tally = run_all([("balance", mode, setup)], runs, seed, processes)["balance"]
        point = Point(value, tally.wins[setup.sides.index(named)], tally.runs)
        played += 1
        if on_value is not None:
            on_value(point, played, most)
        return point

    found = search(chance, vary.low, vary.high, target)
    return Balance(encounter.name, mode, named, vary, runs, seed, found)


@checked
def apply_balance(
    writer: Tracker, vary: Vary, value: int, *, note: str | None = None
) -> Change[Any] | None:
    """Write *value* into the encounter file as one journaled change (one ``undo`` takes it back).

    Returns:
        The `Change` (``written`` False when the file already holds the value), or None for
        a count of 1, which is the encounter as it is.

    Raises:
        InputError: what `checked_vary` refuses, or a value the file refuses.
    """
    vary = checked_vary(writer.status(), vary)
    if vary.field == "count" and value == 1:
        return None
    return writer.change(value_transition(vary, value, writer.path), note=note)


def _side(encounter: Encounter, side: str) -> str:
    """The side named *side* (N1 folding), as the file spells it.

    Raises:
        InputError: naming ``wins``: no creature is on that side.
    """
    known = sides(encounter)
    for each in known:
        if fold_name(each) == fold_name(side):
            return each
    raise InputError("wins", side, "no creature is on that side; the sides: " + ", ".join(known))


def _playable(encounter: Encounter, vary: Vary, value: int) -> None:
    """The encounter at *value* is one the file and the simulator accept.

    Raises:
        InputError: naming ``vary`` and the value.
    """
    try:
        forecast_setup(value_encounter(encounter, vary, value))
    except InputError as error:
        raise InputError("vary", vary.text, f"{vary.field}={value}: {error}") from None
