"""The live odds of ``board`` and the players' page: each side's whole percent to win from the
state as it stands, and how the last change moved it (docs/cli.md "The board").

`live_odds` is a modest `d4cli.api.simulation.forecast` with one fixed seed for every state
(`d4cli.sim.live_odds`); `players_odds` gives the players' odds of an encounter file, for the
page of ``serve``. Not re-exported by `d4cli.api`: it loads the simulator.
"""

from __future__ import annotations

from d4cli.api.reader import Reader
from d4cli.sim.live_odds import LIVE_RUNS, live_odds, seen_by_players
from d4cli.sim.side_odds import Odds, SideOdds, moved

__all__ = ["players_odds", "live_odds", "seen_by_players", "moved", "Odds", "SideOdds", "LIVE_RUNS"]


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
