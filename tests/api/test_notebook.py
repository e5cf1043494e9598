"""The library in a notebook: every result record has a short repr, an HTML table and
`to_dict()` (plain data), all from `d4cli.rules.records`; `d4cli.api` lists what a designer uses."""

from __future__ import annotations

import json
import random
from html.parser import HTMLParser

import pytest

from d4cli import api
from d4cli.api import front_ends
from d4cli.api.balance import balance
from d4cli.api.simulation import forecast, simulate
from d4cli.rules import records
from d4cli.sim.balance_search import Vary


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> list[object]:
    """One of each record the library returns, from real calls."""
    rng = random.Random(3)
    plan = api.pool_plan(4, advantage=["torch"], dc=12)
    tracker = api.Tracker.init(tmp_path_factory.mktemp("nb") / "ambush.toml", template="ambush")
    names = [creature.name for creature in tracker.status().creatures]
    found = [
        plan,
        api.roll_pool(4, advantage=["torch"], dc=12, rng=rng),
        api.roll_pool(1, load=3, cost=2, rng=rng),  # refused (R2)
        api.roll_check(attribute=2, dc="hard", rng=rng),
        api.roll_dice("2d6+1", rng=rng),
        api.pool_odds(plan),
        api.check_odds(api.CheckRequest(attribute=2, dc=15)),
        api.pool_grid([8, 12], pool_sizes=[3, 4, 5]),
        tracker.status(),
        tracker.status().creatures[0],
        tracker.turn_start(),
        tracker.damage(names[0], 2),
        tracker.damage(names[:2], 1),
        tracker.effect_add(names[1], "blessed", "advantage", rounds=1),
        tracker.act(names[1], tracker.status().creatures[1].aspects[0][0], target=names[3]),
        tracker.undo(),
        tracker.view(),
        simulate(tracker, runs=60, seed=1, modes=["turn"], jobs=1),
        forecast(tracker, runs=60, seed=1, jobs=1),
        balance(tracker.status(), Vary(names[0], "hp", 2, 6), "party", 0.5, runs=40, jobs=1),
    ]
    found += [change.record for change in found if isinstance(change, api.Change)]
    return found


class _Table(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.tags.append(tag)


def _plain(value: object) -> bool:
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    if isinstance(value, list):
        return all(map(_plain, value))
    if isinstance(value, dict):
        return all(isinstance(key, str) and _plain(item) for key, item in value.items())
    return False


def test_each_result_shows_itself_briefly_as_a_table_and_as_plain_data(results):
    kinds = set()
    for result in results:
        kinds.add(type(result).__name__)
        shown = repr(result)
        assert len(shown) < 200, shown
        assert shown.startswith(type(result).__name__ + "(") and "\n" not in shown
        table = _Table()
        table.feed(result._repr_html_())
        assert table.tags[:2] == ["table", "caption"] and table.tags.count("tr") >= 2
        data = result.to_dict()
        assert _plain(data), type(result)
        assert json.loads(json.dumps(data)) == data
        # the same record kind always gives the same keys: rows of one DataFrame
        assert list(data) == [name for name, _ in records._fields(result)]
    assert {"RolledPool", "RefusedPool", "Change", "Simulation", "Forecast", "Balance"} <= kinds
    assert {"DamageEvent", "SeveralEvent", "EffectEvent", "ActRecord", "Undone"} <= kinds


def test_a_roll_as_plain_data_and_as_a_table():
    result = api.roll_pool(3, dc=8, rng=api.ScriptedDice([4, 3, 2]))
    assert repr(result) == "RolledPool(plan=PoolPlan(…), dice=(4, 3, 2), extra=(), total=9)"
    data = result.to_dict()
    assert (data["dice"], data["total"], data["plan"]["request"]["dc"]) == ([4, 3, 2], 9, 8)
    assert data["plan"]["gate"] == {
        "aspect": 3,
        "load": 0,
        "cost": 1,
        "headroom": 3,
        "allowed": True,
        "skipped": False,
    }
    table = result._repr_html_()
    assert "<th style='text-align:left'>success</th><td style='text-align:left'>True</td>" in table
    assert "<th style='text-align:left'>total</th><td style='text-align:left'>9</td>" in table


def test_a_tracker_and_a_reader_show_their_file(tmp_path):
    assert repr(api.Tracker(tmp_path / "e.toml")) == f"Tracker('{tmp_path / 'e.toml'}')"
    assert repr(api.Reader("e.toml")) == "Reader('e.toml')"


def test_the_library_lists_what_a_designer_uses():
    listed = set(api.__all__)
    plumbing = set(front_ends.__all__)
    assert listed.isdisjoint(plumbing)
    assert {"CheckRequest", "CheckOdds", "PoolOdds", "RolledPool", "RefusedPool"} <= listed
    assert {"simulate", "forecast", "Tracker", "roll_pool", "check_odds"} <= listed
    for name in api.__all__ + front_ends.__all__:
        assert getattr(api if name in listed else front_ends, name) is not None
