"""The live odds of ``board`` and ``serve``, computed off the render path in one worker thread.

The board asks for the odds of each new state (`OddsWorker.ask`) and goes on drawing; the
worker plays the newest state asked for (`d4cli.api.live_odds`), never a stale one, and
bumps `OddsWorker.version` when its answer is in, so the loop redraws. Until then the
frame shows "…" (`OddsWorker.computing`).
"""

from __future__ import annotations

import threading
from typing import Any

from d4cli.api.live_odds import LIVE_RUNS, Odds, SideOdds, live_odds, moved


class OddsWorker:
    """One thread that computes the odds of the newest encounter asked for.

    Args:
        players: compute the players' odds (without the hidden creatures).
        runs: fights per state.
    """

    def __init__(self, players: bool, runs: int = LIVE_RUNS) -> None:
        self.players = players
        self.runs = runs
        self.version = 0
        self.line: tuple[SideOdds, ...] | None = None
        self._odds: Odds | None = None
        self._asked: Any = None
        self._done: Any = None
        self._wake = threading.Condition()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="d4cli-odds", daemon=True)
        self._thread.start()

    @property
    def computing(self) -> bool:
        """The odds of the newest state asked for are not in yet."""
        with self._wake:
            return self._asked is not None and self._asked is not self._done

    def ask(self, encounter: Any) -> None:
        """Compute the odds of *encounter* (the same state again asks nothing)."""
        with self._wake:
            if self._asked is not None and encounter == self._asked:
                return
            self._asked = encounter
            self._wake.notify()

    def stop(self) -> None:
        with self._wake:
            self._stopping = True
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._stopping or self._asked is not self._done)
                if self._stopping:
                    return
                encounter = self._asked
            odds = live_odds(encounter, players=self.players, runs=self.runs)
            with self._wake:
                self.line = moved(self._odds, odds)
                self._odds = odds
                self._done = encounter
                self.version += 1


def odds_now(encounter: Any, players: bool) -> tuple[SideOdds, ...] | None:
    """The odds line of *encounter* computed here and now (``board --once``: one frame, no move)."""
    return moved(None, live_odds(encounter, players=players))
