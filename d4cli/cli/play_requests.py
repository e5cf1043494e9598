"""The seats' requests as ``d4cli play`` keeps them in view (docs/play.md "Seats' requests").

While the GM types, the prompt (`d4cli.cli.play_prompt`) asks a `RequestWatch` every
`POLL_SECONDS` for the requests waiting now, through `d4cli.api.seat_requests.SeatDesk`: one that has
just come is printed above the prompt (`arrived_line`), and the bottom toolbar lists
those that wait (`toolbar_text`). The watch keeps what it last read, so the toolbar and the
prompt, drawn at every key, never read a file. No prompt_toolkit here: plain values and text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from d4cli.api.front_ends import SeatDesk
from d4cli.cli.completion.requests import request_help
from d4cli.cli.tracker_access import open_tracker

# How often the prompt reads the requests, in seconds: a request shows within this.
POLL_SECONDS = 0.5
# The most requests the toolbar names; the rest are counted.
TOOLBAR_NAMED = 4


class RequestWatch:
    """The requests waiting for the GM in the encounter at *path*, as last read.

    *read* returns the pending requests (`d4cli.store.seat_files.RequestRow`s; default:
    `d4cli.api.seat_requests.SeatDesk.pending`); tests inject it. A read that fails keeps what was read
    before: the prompt never fails, and ``requests`` says why.
    """

    def __init__(self, path: str | None, read: Callable[[], Sequence[Any]] | None = None) -> None:
        self.path = path
        self.read = read if read is not None else self._pending
        self.rows: tuple[Any, ...] = ()
        self.seen: set[int] = set()

    def _pending(self) -> Sequence[Any]:
        return SeatDesk(open_tracker(self.path)).pending()

    def poll(self) -> list[Any]:
        """Read the requests now; those not seen before, oldest first."""
        try:
            rows = tuple(self.read())
        except Exception:  # noqa: BLE001 - the prompt never fails; ``requests`` says why
            return []
        fresh = [row for row in rows if row.number not in self.seen]
        self.seen.update(row.number for row in rows)
        self.rows = rows
        return fresh


def arrived_line(row: Any) -> str:
    """The line printed above the prompt when request *row* comes: ``request 3 from Aria's
    seat: Aria: Finesse at Goblin Archer; approve 3 or deny 3`` (plain text)."""
    asked = request_help(row.creature, dict(row.act))
    return (
        f"request {row.number} from {row.creature}'s seat: {asked}; "
        f"approve {row.number} or deny {row.number}"
    )


def toolbar_text(rows: Sequence[Any]) -> str | None:
    """The bottom toolbar while requests wait: ``waiting: 3 Aria: Finesse at Goblin | 4 Borin:
    Might  (approve N, deny N; Tab completes N)``; None when none waits (no toolbar)."""
    if not rows:
        return None
    named = [f"{row.number} {request_help(row.creature, dict(row.act))}" for row in rows]
    shown = " | ".join(named[:TOOLBAR_NAMED])
    if len(named) > TOOLBAR_NAMED:
        shown += f" | {len(named) - TOOLBAR_NAMED} more"
    return f"waiting: {shown}  (approve N, deny N; Tab completes N)"
