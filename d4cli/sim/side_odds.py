"""The odds line's figures: each side's whole percent to win, and how the last change moved it.

Plain data only (no simulator): the board, the page and their JSON read these records;
`d4cli.api.live_odds` computes them.
"""

from __future__ import annotations

from typing import NamedTuple

# Each side's whole percent to win, in order of first appearance.
Odds = tuple[tuple[str, int], ...]


class SideOdds(NamedTuple):
    """One side on the odds line.

    Attributes:
        side: the side's name as the file spells it.
        percent: its chance to win, a whole percent.
        move: points since the odds before the last change (None: no odds before it).
    """

    side: str
    percent: int
    move: int | None


def moved(before: Odds | None, now: Odds | None) -> tuple[SideOdds, ...] | None:
    """*now*'s sides with how far each moved since *before* (None where *before* lacks the side)."""
    if now is None:
        return None
    was = dict(before or ())
    return tuple(
        SideOdds(side, percent, percent - was[side] if side in was else None)
        for side, percent in now
    )
