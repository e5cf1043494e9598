"""``serve --public-url``: behind a TLS proxy or a tunnel the page's origin is the public one,
while the proxy asks this server over http:// naming the public host; both are served."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from _serve import Server, hidden_skirmish
from _web import HOSTS

from d4cli.api.encounter import Tracker
from d4cli.api.seats import Seats
from d4cli.web.asgi_app import Settings, make_app
from d4cli.web.broadcast import Broadcaster
from d4cli.web.seat_routes import SeatRoutes
from d4cli.web.writes import RateLimit

PUBLIC = "https://table.example.org"


def post_from(app, token: str, host: str, origin: str) -> httpx.Response:
    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=f"http://{host}") as client:
            return await client.post(
                f"/seat/{token}/preview",
                json={"aspect": "Finesse"},
                headers={"Origin": origin, "Content-Type": "application/json"},
            )

    return asyncio.run(go())


def test_the_public_origin_may_write_through_its_proxy_and_no_other_may():
    hidden_skirmish()
    tracker = Tracker(Path("encounter.toml"))
    token = Seats(tracker.path).add("Aria").token
    broadcaster = Broadcaster(tracker.view, tracker.stamp, lambda text: None, 10)
    routes = SeatRoutes(tracker, broadcaster, RateLimit(100), RateLimit(100)).routes()
    settings = Settings(HOSTS | {"table.example.org"}, 10, origins=frozenset({PUBLIC}))
    app = make_app(broadcaster, settings, routes)
    assert post_from(app, token, "table.example.org", PUBLIC).status_code == 200
    assert post_from(app, token, "127.0.0.1", "http://127.0.0.1").status_code == 200
    refused = post_from(app, token, "table.example.org", "https://evil.example")
    assert refused.status_code == 403 and "Origin" in refused.json()["error"]
    plain = make_app(broadcaster, Settings(HOSTS | {"table.example.org"}, 10), routes)
    assert post_from(plain, token, "table.example.org", PUBLIC).status_code == 403


@pytest.mark.slow
def test_join_urls_name_the_public_url_and_its_host_is_served(tmp_path: Path):
    hidden_skirmish()
    token = Seats(Path("encounter.toml")).add("Aria").token
    running = Server(tmp_path, "--public-url", "https://Table.Example.org/")
    try:
        line = running.process.stderr.readline().decode()
        assert line == f"d4cli: Aria's seat: {PUBLIC}/seat/{token}\n"
        assert running.get("/view.json", headers={"Host": "table.example.org"})[0] == 200
        assert running.get("/view.json", headers={"Host": "other.example.org"})[0] == 421
    finally:
        running.close()
