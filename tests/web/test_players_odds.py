"""The players' odds on the page of ``serve`` (``[player_view] odds_shown``): computed without the
hidden creatures in a worker thread, published when they are in, marked computing after a change."""

from __future__ import annotations

import asyncio
import json
from functools import partial
from pathlib import Path

import httpx
from _cli import ok
from _web import HOSTS

from d4cli.api.encounter import Tracker
from d4cli.api.live_odds import players_odds
from d4cli.web.asgi_app import Settings, make_app
from d4cli.web.broadcast import Broadcaster

FILE = Path("encounter.toml")
SECRET = "Goblin Chief"


def _broadcaster() -> Broadcaster:
    tracker = Tracker(FILE)
    return Broadcaster(
        tracker.view, tracker.stamp, lambda text: None, 10, odds=partial(players_odds, tracker)
    )


async def _odds_in(broadcaster: Broadcaster) -> None:
    while broadcaster.odds_tasks:
        await asyncio.gather(*broadcaster.odds_tasks)


def test_the_page_and_its_json_show_the_players_odds_then_how_a_change_moved_them():
    ok("init", "--from", "ambush")
    ok("set", "--view", "odds_shown=true")
    ok("conceal", SECRET)
    broadcaster = _broadcaster()

    async def work():
        assert broadcaster.current.odds is None  # none computed yet
        broadcaster.ask_odds()
        await _odds_in(broadcaster)
        first = broadcaster.current
        ok("damage", "Borin", "10")
        await broadcaster.check()
        computing = broadcaster.current
        await _odds_in(broadcaster)
        return first, computing, broadcaster.current

    first, computing, moved = asyncio.run(work())
    assert first.seq == 2
    assert json.loads(first.json)["odds"] == {
        "computing": False,
        "sides": [
            {"side": "goblins", "percent": 0, "move": None},
            {"side": "party", "percent": 100, "move": None},
        ],
    }
    assert b'<p class="odds">odds: goblins 0%, party 100%</p>' in first.page
    assert computing.seq == 3 and json.loads(computing.json)["odds"]["computing"] is True
    assert (
        "odds: goblins 0%, party 100% …"
        in json.loads(computing.event[computing.event.index(b"{") :])["html"]
    )
    sides = json.loads(moved.json)["odds"]["sides"]
    assert moved.seq == 4 and [side["side"] for side in sides] == ["goblins", "party"]
    assert all(side["move"] == side["percent"] - was for side, was in zip(sides, (0, 100)))
    for snapshot in (first, computing, moved):
        for body in (snapshot.page, snapshot.json, snapshot.event):
            assert SECRET.encode() not in body


def test_without_odds_shown_the_page_has_no_odds_and_odds_null():
    ok("init", "--from", "duel")
    broadcaster = _broadcaster()

    async def work():
        broadcaster.ask_odds()
        await _odds_in(broadcaster)
        app = make_app(broadcaster, Settings(HOSTS, 10))
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1"
        ) as client:
            return (await client.get("/view.json")).json(), (await client.get("/")).text

    view, page = asyncio.run(work())
    assert view["odds"] is None and view["seq"] == 1  # nothing new to publish
    assert 'class="odds"' not in page
