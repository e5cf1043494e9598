"""``d4cli forecast`` and ``status --forecast``: chances from the state as it is; nothing written."""

from __future__ import annotations

import json
import re

import pytest
from _cli import fails, files, ok, ok_json, run
from _fight import play_two_rounds
from _width import at_width


@pytest.fixture
def fought(isolated_env):
    play_two_rounds()
    return isolated_env / "encounter.toml"


@pytest.mark.slow  # over a second of simulation or child processes
def test_forecast_after_two_rounds_gives_each_side_a_chance_with_an_interval(fought):
    before = files(fought)
    found = ok_json("forecast", "--seed", "1")
    assert files(fought) == before
    assert found["kind"] == "forecast" and found["mode"] == "turn"
    assert found["runs"] == 2000 and found["seed"] == 1 and found["fight_over"] is None
    assert found["sides"] == ["party", "foes"]
    wins = found["wins"]
    assert wins["party"]["wins"] + wins["foes"]["wins"] + found["draws"]["draws"] == 2000
    for side in ("party", "foes"):
        assert wins[side]["low"] <= wins[side]["rate"] <= wins[side]["high"]
    assert wins["party"]["rate"] == wins["party"]["wins"] / 2000
    assert found["rounds_left"]["median"] <= found["rounds_left"]["p90"]
    assert found["rounds_left"]["finished"] == 2000 - found["draws"]["draws"]
    assert sum(found["rounds_left"]["histogram"].values()) == found["rounds_left"]["finished"]


def test_a_battered_party_has_a_real_chance_of_losing(fought):
    ok("damage", "Aria", "5")  # down
    ok("damage", "Borin", "9")  # 1 hp left
    found = ok_json("forecast", "--seed", "1")
    assert 0 < found["wins"]["foes"]["rate"] < found["wins"]["party"]["rate"] < 1
    assert found["wins"]["foes"]["low"] > 0


def test_forecast_equals_simulate_from_the_same_file_in_its_mode(fought):
    found = ok_json("forecast", "--seed", "4", "--runs", "300")
    report = ok_json("simulate", "--seed", "4", "--runs", "300", "--modes", "turn", "--jobs", "1")
    mode = report["modes"][0]
    assert {side: found["wins"][side]["wins"] for side in found["sides"]} == {
        side: mode["wins"][side]["wins"] for side in report["sides"]
    }
    assert found["rounds_left"]["median"] == mode["rounds"]["median"]
    assert found["rounds_left"]["histogram"] == mode["rounds"]["histogram"]
    assert found["rounds_left"]["p90"] == mode["rounds"]["p90"]


def test_the_same_seed_gives_the_same_forecast(fought):
    assert ok_json("forecast", "--seed", "9", "--runs", "200") == ok_json(
        "forecast", "--seed", "9", "--runs", "200"
    )
    env = run("forecast", "--runs", "200", "--json", env={"D4CLI_SEED": "9"})
    assert json.loads(env.stdout) == ok_json("forecast", "--seed", "9", "--runs", "200")


@pytest.mark.slow  # over a second of simulation or child processes
def test_status_forecast_adds_one_line(fought):
    plain = ok("status").stdout.splitlines()
    lines = run("status", "--forecast", env={"D4CLI_SEED": "1"}).stdout.splitlines()
    assert lines[:-1] == plain
    assert lines[-1].startswith("Forecast: party ")
    assert "foes " in lines[-1] and "2,000 runs, turn mode, seed 1" in lines[-1]


@pytest.mark.slow  # over a second of simulation or child processes
def test_status_forecast_json_adds_the_forecast(fought):
    obj = json.loads(run("status", "--forecast", "--json", env={"D4CLI_SEED": "1"}).stdout)
    assert obj.pop("forecast") == ok_json("forecast", "--seed", "1")
    assert obj == ok_json("status")


def test_a_fight_already_over_says_who_won(fought):
    ok("damage", "Goblin Archer", "99")
    ok("damage", "Goblin Brute", "99")
    # Nothing left to play: the side left standing wins at 100%, exit 0.
    assert (
        ok("forecast").stdout
        == "Forecast: the fight is over: party won (R21); party 100%, foes 0%, draws 0%\n"
    )
    settled = ok_json("forecast", "--seed", "4")
    assert settled["fight_over"] == {"winner": "party"}
    assert settled["wins"]["party"]["rate"] == 1.0 and settled["wins"]["foes"]["rate"] == 0.0
    assert settled["draws"]["rate"] == 0.0 and settled["runs"] == 0
    assert (
        ok("status", "--forecast").stdout.splitlines()[-1]
        == "Forecast: the fight is over: party won (R21)"
    )
    obj = ok_json("status", "--forecast")
    assert obj["forecast"] == {"kind": "forecast", "fight_over": {"winner": "party"}}


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--runs", "0"), "--runs: 0: must be within 1..1000000"),
        (("--runs", "1000001"), "--runs: 1000001"),
        (("--runs", "2.5"), "--runs: '2.5'"),
        (("--seed", "-1"), "--seed: -1"),
    ],
)
def test_bad_options_are_one_line_exit_2(fought, args, needle):
    assert needle in fails(2, fought, "forecast", *args)
    assert needle in fails(2, fought, "forecast", *args, "--json")


def test_an_encounter_without_sides_cannot_be_forecast(encounter_file):
    assert "side" in fails(2, encounter_file, "forecast")
    assert "side" in fails(2, encounter_file, "status", "--forecast")


def test_forecast_with_at_or_a_sheet_is_bad_input(fought):
    assert "--forecast" in fails(2, fought, "status", "--forecast", "--at", "3")
    assert "--forecast" in fails(2, fought, "status", "Aria", "--forecast")


@pytest.mark.parametrize("width", [80, 120])
def test_forecast_human_output(fought, snapshot, monkeypatch, width):
    at_width(monkeypatch, width)
    result = run("forecast", "--seed", "1", "--runs", "500")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == snapshot


def test_the_share_column_has_one_precision(fought):
    # The sides' chances and the draws side by side: each shown with the same decimals, the
    # finest that any of their intervals supports (a draw of 0% keeps its 0.0-0.2 interval).
    table = ok("forecast", "--seed", "3", "--runs", "800").stdout
    cells = re.findall(r"│\s+([\d.]+)% \(([\d.]+)-([\d.]+)\) │", table)
    assert len(cells) == 3  # two sides and the draws
    places = {len(number.partition(".")[2]) for cell in cells for number in cell}
    assert len(places) == 1, cells


def test_a_fight_with_everyone_down_is_over_with_no_winner_and_no_draw(fought):
    # R21: over, no winner; a draw is a fight still running at the round limit, so 0% too.
    for name in ("Aria", "Borin", "Goblin Archer", "Goblin Brute"):
        ok("damage", name, "99")
    assert ok("forecast").stdout == (
        "Forecast: the fight is over: everyone is down, no side won (R21); "
        "party 0%, foes 0%, draws 0%\n"
    )
    settled = ok_json("forecast", "--seed", "4")
    assert settled["fight_over"] == {"winner": None} and settled["runs"] == 0
    assert settled["draws"]["rate"] == 0.0
    assert {side: w["rate"] for side, w in settled["wins"].items()} == {"party": 0.0, "foes": 0.0}
