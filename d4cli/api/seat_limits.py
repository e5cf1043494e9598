"""What keeps one seat from loading the table for all: how many of its requests may wait, how
many answers ``PATH.requests`` keeps, and how long an action being built stays on the GM's
board (docs/seats.md)."""

from __future__ import annotations

import math
from datetime import datetime

from d4cli.rules.errors import InputError
from d4cli.store.requests import Requests

# One seat cannot grow PATH.requests without end: so many of its requests may wait at once,
# and the file keeps the newest answered ones (the journal keeps every act carried out).
WAITING_MAX = 10
ANSWERED_KEPT = 100
# An action previewed longer ago than this is no longer "being built" on the GM's board.
DRAFT_SECONDS = 60.0


def check_waiting(requests: Requests, creature: str) -> None:
    """Refuse a request while `WAITING_MAX` of *creature*'s seat wait for the GM already.

    Raises:
        InputError: field ``request``, the count waiting.
    """
    waiting = sum(
        1 for row in requests.rows if row.status == "pending" and row.creature == creature
    )
    if waiting >= WAITING_MAX:
        problem = f"requests of this seat wait for the GM already (at most {WAITING_MAX})"
        raise InputError("request", waiting, problem)


def bounded(requests: Requests) -> Requests:
    """*requests* with every waiting request and the newest `ANSWERED_KEPT` answered ones."""
    answered = [row.number for row in requests.rows if row.status != "pending"]
    dropped = set(answered[:-ANSWERED_KEPT])
    return requests._replace(rows=tuple(row for row in requests.rows if row.number not in dropped))


def age(now: datetime, time: str) -> float:
    """Seconds from *time* (ISO 8601) to *now*; infinite for a time unreadable or to come."""
    try:
        then = datetime.fromisoformat(time)
        seconds = (now - then).total_seconds()
    except (ValueError, TypeError):  # a hand edit, or a time without its offset
        return math.inf
    return seconds if seconds >= 0 else math.inf
