"""An Aspect's headroom in words: the one wording every screen uses (``status``, the boards, the
TV page, a seat's page).

Headroom is ``Aspect - Load`` (R2): the largest Cost the Aspect can still pay, not a bonus to
any roll. ``Finesse+5`` was read at the table as five more to the total; the words say what it
is instead: how much is left before the gate says no.
"""

from __future__ import annotations

from collections.abc import Iterable


def headroom_text(aspect: str, room: int) -> str:
    """``Finesse: 5 left`` (it can pay a Cost up to 5, R2), ``Might: 0 left`` (Cost 0 only),
    ``Wits: 2 short`` (below zero: the gate refuses any Cost). Plain text: callers escape."""
    if room >= 0:
        return f"{aspect}: {room} left"
    return f"{aspect}: {-room} short"


def headrooms_text(rooms: Iterable[tuple[str, int]]) -> str:
    """Several ``(aspect, room)`` pairs' `headroom_text`, joined by ``, ``."""
    return ", ".join(headroom_text(aspect, room) for aspect, room in rooms)
