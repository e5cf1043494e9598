"""The names a front end needs to show the players a screen or give one of them a seat.

`d4cli serve`, `d4cli board`, `d4cli play` and the players' web pages import these; a
designer's script rarely does, so `d4cli.api` does not list them (docs/api.md, "Seats and
their requests" and "Names"). Each is the library's own, re-exported from where it lives.
"""

from d4cli.api.seat_requests import ChangedSince, SeatDesk, Submitted
from d4cli.api.seats import Seat, SeatAction, Seats
from d4cli.fight.players_view import PublicRoll, PublicView, public_view
from d4cli.fight.view_settings import PlayerView
from d4cli.store.seat_files import RequestRow

__all__ = [
    # the players' view (R20)
    "PublicView",
    "PublicRoll",
    "PlayerView",
    "public_view",
    # seats and their requests
    "Seats",
    "Seat",
    "SeatDesk",
    "SeatAction",
    "Submitted",
    "ChangedSince",
    "RequestRow",
]
