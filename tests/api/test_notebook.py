"""The library in a notebook: every result record has a short repr, an HTML table and
`to_dict()` (plain data), all from `d4cli.rules.records`; `d4cli.api` lists what a designer uses."""

from __future__ import annotations

import json
import random
from html.parser import HTMLParser

import pytest

from d4cli import api
from d4cli.api import encounter, front_ends, odds, rolls, simulation
from d4cli.api.balance import balance
from d4cli.api.simulation import forecast, simulate
from d4cli.rules import records
from d4cli.sim.balance_search import Vary


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> list[object]:
    """One of each record the library returns, from real calls."""
    rng = random.Random(3)
    plan = rolls.pool_plan(4, advantage=["torch"], dc=12)
    tracker = encounter.Tracker.init(
        tmp_path_factory.mktemp("nb") / "ambush.toml", template="ambush"
    )
    names = [creature.name for creature in tracker.status().creatures]
    found = [
        plan,
        rolls.roll_pool(4, advantage=["torch"], dc=12, rng=rng),
        rolls.roll_pool(1, load=3, cost=2, rng=rng),  # refused (R2)
        rolls.roll_check(attribute=2, dc="hard", rng=rng),
        rolls.roll_dice("2d6+1", rng=rng),
        odds.pool_odds(plan),
        odds.check_odds(rolls.CheckRequest(attribute=2, dc=15)),
        odds.pool_grid([8, 12], pool_sizes=[3, 4, 5]),
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
    found += [change.record for change in found if isinstance(change, encounter.Change)]
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
    result = rolls.roll_pool(3, dc=8, rng=rolls.ScriptedDice([4, 3, 2]))
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
    assert repr(encounter.Tracker(tmp_path / "e.toml")) == f"Tracker('{tmp_path / 'e.toml'}')"
    assert repr(encounter.Reader("e.toml")) == "Reader('e.toml')"


def test_the_library_lists_what_a_designer_uses():
    # The library comes in parts (`d4cli.api` the errors; rolls, odds, an encounter file,
    # the simulator): together they list what a designer uses, and none lists plumbing.
    parts = (api, rolls, odds, encounter, simulation)
    listed = {name for part in parts for name in part.__all__}
    plumbing = set(front_ends.__all__)
    assert listed.isdisjoint(plumbing)
    assert {"CheckRequest", "RolledPool", "RefusedPool"} <= set(rolls.__all__)
    assert {"CheckOdds", "PoolOdds", "check_odds"} <= set(odds.__all__)
    assert {"simulate", "forecast"} <= set(simulation.__all__)
    assert {"Tracker", "Reader"} <= set(encounter.__all__)
    assert {"D4Error", "InputError"} <= set(api.__all__)
    for part in (*parts, front_ends):
        for name in part.__all__:
            assert getattr(part, name) is not None, (part.__name__, name)
