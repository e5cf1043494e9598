"""Which rows of a turn order fit a screen: a window that follows the current creature.

Shared by the boards (`d4cli.output.render.board_frame`, `d4cli.output.render.players_board`);
the page's script (``d4cli/output/assets/page.js``) does the same with the heights it
measures. Pure: row heights in, the window out.

The window keeps the creature in focus (the current one, else the next to go) and the
ones after it in view, with one row before it for the one that just went when there is
room after the next one; the rest is said in an "N more above" and an "N more below"
line, each of which takes a line itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from d4cli.fight.players_view import PublicView

# Rows kept in view before the one in focus (the creature that just went).
BEFORE = 1


class Window(NamedTuple):
    """The rows ``start`` up to ``end`` (excluded) are shown; ``above`` and ``below`` are not."""

    start: int
    end: int

    def above(self) -> int:
        return self.start

    def below(self, count: int) -> int:
        return count - self.end


def focus_of(current: int | None, following: int | None) -> int:
    """The row in focus: the current creature's, else the next one's, else the first."""
    if current is not None:
        return current
    return following if following is not None else 0


def view_focus(view: PublicView) -> int:
    """The row of *view*'s turn order in focus (`focus_of`): the current creature's, else the next's."""
    names = [creature.name for creature in view.creatures]
    current = next((i for i, creature in enumerate(view.creatures) if creature.current), None)
    following = names.index(view.next_turn) if view.next_turn in names else None
    return focus_of(current, following)


def window(heights: Sequence[int], focus: int, room: int, before: int = BEFORE) -> Window:
    """The rows of *heights* (lines per row) that fit *room* lines around row *focus*.

    All rows when they fit. Else, in this order while they fit: the row in focus, the
    next one, *before* rows above it (the one that just went), the rest after it, then
    rows above; a line counts for "N more above" when rows are left out above, and one
    for "N more below" when rows are left out below. The row in focus is always shown,
    even when it alone is taller than *room*.

    Returns:
        A `Window`; ``Window(0, 0)`` for no rows.
    """
    count = len(heights)
    if sum(heights) <= room or count == 0:
        return Window(0, count)
    focus = min(max(focus, 0), count - 1)
    start, end, used = focus, focus + 1, heights[focus]

    def fits(extra: int, first: int, last: int) -> bool:
        return used + extra + (first > 0) + (last < count) <= room

    if end < count and fits(heights[end], start, end + 1):  # the next one
        used += heights[end]
        end += 1
    for _ in range(before):  # the one that just went
        if start > 0 and fits(heights[start - 1], start - 1, end):
            start -= 1
            used += heights[start]
    while end < count and fits(heights[end], start, end + 1):
        used += heights[end]
        end += 1
    while start > 0 and fits(heights[start - 1], start - 1, end):
        start -= 1
        used += heights[start]
    return Window(start, end)
