"""The players' odds of an encounter file, for the page of ``serve`` (docs/cli.md "The board").

Not re-exported by `d4cli.api`: it loads the simulator (`d4cli.sim.live_odds`).
"""

from __future__ import annotations

from d4cli.api.reader import Reader
from d4cli.sim.live_odds import live_odds
from d4cli.sim.side_odds import Odds


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
