"""The live odds of ``board`` and the players' page: each side's whole percent to win from the
state as it stands, and how the last change moved it (R18, docs/cli.md "The board").

A modest `d4cli.api.simulation.forecast` (`LIVE_RUNS` fights) with one fixed seed for every
state, so that a change's move is the change's and not the dice's (common random numbers).

The players' odds (``[player_view] odds_shown``) are computed on the GM's side from the
encounter *without its hidden creatures*, each taken out as ``remove`` would (R17): what
the players are shown is the chance of the fight they can see, so the odds are the same
whether a hidden creature exists or not and never tell of one. Only side-level whole
percentages leave here: no creature's name or number (`d4cli.sim.side_odds`).

Not re-exported by `d4cli.api`: it loads the simulator.
"""

from __future__ import annotations

from d4cli.api.reader import Reader
from d4cli.api.simulation import FightOver, decided, forecast
from d4cli.fight.encounter_state import Encounter
from d4cli.fight.turns import remove_creature
from d4cli.rules.errors import InputError
from d4cli.sim.side_odds import Odds, SideOdds, moved

__all__ = [
    "live_odds",
    "players_odds",
    "seen_by_players",
    "moved",
    "Odds",
    "SideOdds",
    "LIVE_RUNS",
    "LIVE_SEED",
]

LIVE_RUNS = 300
LIVE_SEED = 1


def seen_by_players(encounter: Encounter) -> Encounter:
    """*encounter* without its hidden creatures, each removed as ``remove`` removes one (R17)."""
    for creature in encounter.creatures:
        if creature.hidden:
            encounter, _ = remove_creature(encounter, creature.name)
    return encounter


def live_odds(
    encounter: Encounter, *, players: bool = False, runs: int = LIVE_RUNS, seed: int = LIVE_SEED
) -> Odds | None:
    """Each side's whole percent to win from *encounter* as it stands; with *players*, from
    `seen_by_players` of it. A fight over (R21) gives the side left 100 and the others 0.

    Returns:
        ``((side, percent), ...)``, or None when the fight cannot be simulated (fewer than
        two sides, a creature without a side or an attack, ...: what `forecast` refuses).
    """
    fight = seen_by_players(encounter) if players else encounter
    try:
        found = forecast(fight, runs=runs, seed=seed, jobs=1)
    except FightOver as over:
        found = decided(fight, over.winner)
    except InputError:
        return None
    return tuple((chance.side, round(100 * chance.rate)) for chance in found.chances)


def players_odds(reader: Reader) -> tuple[bool, Odds | None]:
    """Whether the file shows the players the odds (``[player_view] odds_shown``), and if so each
    side's whole percent to win, computed without the hidden creatures (`live_odds`) from the
    state the players' screens show (`Reader.shown`: before a hidden turn, during one).

    Returns:
        ``(False, None)`` when not shown; ``(True, None)`` when the fight cannot be simulated.

    Raises:
        D4Error: the file cannot be read.
    """
    encounter = reader.shown().encounter
    settings = encounter.player_view
    if settings is None or not settings.odds_shown:
        return False, None
    return True, live_odds(encounter, players=True)
