"""The serve app with the seats' routes, in this process (httpx over ASGI), on the hidden skirmish."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from _serve import hidden_skirmish
from _web import HOSTS

from d4cli.api.encounter import Tracker
from d4cli.api.seats import Seats
from d4cli.web.asgi_app import Settings, make_app
from d4cli.web.broadcast import Broadcaster
from d4cli.web.seat_routes import SeatRoutes
from d4cli.web.writes import RateLimit

FILE = Path("encounter.toml")
ORIGIN = "http://127.0.0.1"
JSON = {"Origin": ORIGIN, "Content-Type": "application/json"}


class SeatServed:
    """The app with the seats' routes, the seats of Aria and Borin, and the warnings for the GM."""

    def __init__(self, per_second: int = 1000, rng: Any = None) -> None:
        self.tracker = Tracker(FILE, rng=rng)
        self.warnings: list[str] = []
        self.broadcaster = Broadcaster(
            self.tracker.view, self.tracker.stamp, self.warnings.append, 500
        )
        seats = Seats(FILE)
        known = {seat.creature: seat.token for seat in seats.list()}
        self.aria = known.get("Aria") or seats.add("Aria").token
        self.borin = known.get("Borin") or seats.add("Borin").token
        self.seat_routes = SeatRoutes(
            self.tracker, self.broadcaster, RateLimit(per_second), RateLimit(per_second)
        )
        self.routes = self.seat_routes.routes()
        self.app = make_app(self.broadcaster, Settings(HOSTS, 500), self.routes)

    def run(self, work: Callable[[httpx.AsyncClient], Awaitable[Any]]) -> Any:
        async def go() -> Any:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url=ORIGIN) as client:
                return await work(client)

        return asyncio.run(go())

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self.run(lambda client: client.get(path, **kw))

    def post(
        self, path: str, body: Any = None, headers: dict | None = None, **kw: Any
    ) -> httpx.Response:
        sent = headers if headers is not None else JSON
        if body is not None and "content" not in kw:
            kw["json"] = body
        return self.run(lambda client: client.post(path, headers=sent, **kw))


def seated() -> SeatServed:
    """The hidden skirmish (`_serve.hidden_skirmish`), Aria's and Borin's seats, the app."""
    hidden_skirmish()
    return SeatServed()
