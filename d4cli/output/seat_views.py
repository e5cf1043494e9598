"""How a request carried out from a seat prints (``approve``, a seat's ``auto`` request): the act's
view (`d4cli.output.act_views.ActView`) with the request's number and seat in its JSON and a line
under its steps."""

from __future__ import annotations

from d4cli.fight.actions import ActRecord
from d4cli.output.act_views import ActView
from d4cli.output.render import escape
from d4cli.output.serialize import JsonObject
from d4cli.output.serialize.seats_json import seat_act_json
from d4cli.rules.pool import PoolResult


class SeatActView(ActView):
    """An act carried out for request *number* of *seat* (the creature's name): the ``act``
    object with ``request`` and ``seat``, or its steps and ``(request N from Aria's seat)``."""

    def __init__(self, record: ActRecord, number: int, seat: str) -> None:
        super().__init__(record)
        self.number = number
        self.seat = seat

    def base_json(self, result: PoolResult) -> JsonObject:
        return seat_act_json(super().base_json(result), self.number, self.seat)

    def lines_after(self, result: PoolResult) -> list[str]:
        return [
            *super().lines_after(result),
            f"(request {self.number} from {escape(self.seat)}'s seat)",
        ]
