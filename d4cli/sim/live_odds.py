"""The live odds of ``board`` and the players' page: each side's chance to win from the state as
it is, and how the last change moved it (R18).

A modest forecast (`LIVE_RUNS` fights, `d4cli.sim.forecast`) with one fixed seed for every
state, so that a change's move is the change's and not the dice's (common random numbers).

The players' odds (``[player_view] odds_shown``) are computed on the GM's side from the
encounter *without its hidden creatures*, each taken out as ``remove`` would (R17): what
the players are shown is the chance of the fight they can see, so the odds are the same
whether a hidden creature exists or not and never tell of one. Only side-level whole
percentages leave here: no creature's name or number.
"""

from __future__ import annotations

from d4cli.fight.encounter import Encounter
from d4cli.fight.turns import remove_creature
from d4cli.rules.errors import InputError
from d4cli.sim.forecast import FightOver, decided, forecast
from d4cli.sim.side_odds import Odds

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
    `seen_by_players` of it. A fight over (R18) gives the side left 100 and the others 0.

    Returns:
        ``((side, percent), ...)``, or None when the fight cannot be simulated (fewer than
        two sides, a creature without a side or an attack, ...: what `forecast` refuses).
    """
    fight = seen_by_players(encounter) if players else encounter
    try:
        found = forecast(fight, runs, seed)
    except FightOver as over:
        found = decided(fight, over.winner)
    except InputError:
        return None
    return tuple((chance.side, round(100 * chance.rate)) for chance in found.chances)
