"""The odds line of the board and the players' page, in words (docs/cli.md "The board"); its JSON is
`d4cli.output.serialize.public_view_json.odds_json`.

Side-level figures only (`d4cli.sim.side_odds.SideOdds`): a side's name, its whole percent
to win, how the last change moved it. No creature is ever named here.
"""

from __future__ import annotations

from collections.abc import Sequence

from d4cli.sim.side_odds import SideOdds

COMPUTING = "…"


def odds_text(line: Sequence[SideOdds] | None, computing: bool) -> str | None:
    """``odds: party 58% (+12), foes 42% (-12)``; while the new state's odds are computed, the last
    ones without their moves and ``…`` (``odds: …`` before the first).

    Returns:
        None when there is no line (no odds and none coming: the fight cannot be simulated).
    """
    if line is None:
        return f"odds: {COMPUTING}" if computing else None
    if computing:
        return "odds: " + ", ".join(f"{o.side} {o.percent}%" for o in line) + f" {COMPUTING}"
    return "odds: " + ", ".join(f"{o.side} {o.percent}%{_move(o.move)}" for o in line)


def _move(move: int | None) -> str:
    if move is None:
        return ""
    return f" ({move:+d})" if move else " (±0)"
