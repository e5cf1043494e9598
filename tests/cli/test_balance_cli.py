"""``d4cli balance``: the value of one setting that gives a side a target chance to win.

Exit codes, its JSON, the same seed giving the same answer, ``--apply`` as one journaled
change that undo takes back, Ctrl-C and bad input leaving the file and journal as they were,
and the human output at 80 and 120 columns."""

from __future__ import annotations

import pytest
from _cli import fails, files, ok, ok_json, run
from _width import at_width

from d4cli.api import balance as balance_api

DUEL = ("--wins", "Sera=70", "--vary", "The Masked Blade:hp=10..40")
FAST = ("--runs", "200", "--seed", "1")


@pytest.fixture
def duel(isolated_env):
    ok("init", "--from", "duel")
    return isolated_env / "encounter.toml"


def test_balance_finds_the_blades_hp_for_sera_at_seventy_percent(duel):
    before = files(duel)
    found = ok_json("balance", *DUEL, *FAST)
    assert files(duel) == before  # nothing written without --apply
    assert found["kind"] == "balance" and found["mode"] == "round"
    assert found["side"] == "Sera" and found["target"] == 0.7
    assert found["vary"] == {"creature": "The Masked Blade", "field": "hp", "low": 10, "high": 40}
    assert found["reached"] is True and found["direction"] == -1 and not found["applied"]
    assert found["value"] == 29  # the batch engine's fights for seed 1 (d4cli.sim.batch)
    assert found["wins"]["wins"] == 137 and found["wins"]["rate"] == 0.685
    assert found["below"]["value"] == 28 and found["above"]["value"] == 30
    assert found["below"]["rate"] >= found["wins"]["rate"] >= found["above"]["rate"]
    curve = found["curve"]
    assert [point["value"] for point in curve] == sorted({point["value"] for point in curve})
    assert curve[0]["value"] == 10 and curve[-1]["value"] == 40
    assert all(point["runs"] == 200 for point in curve)
    assert all(point["low"] <= point["rate"] <= point["high"] for point in curve)


def test_each_value_meets_the_dice_simulate_gives_it_with_the_same_seed(duel):
    """Common random numbers: the chance at the value found is simulate's at that value, seed for seed."""
    found = ok_json("balance", *DUEL, *FAST)
    ok("set", "The Masked Blade", f"hp={found['value']}", f"max_hp={found['value']}")
    report = ok_json("simulate", "--modes", "round", "--jobs", "1", *FAST)
    assert report["modes"][0]["wins"]["Sera"]["wins"] == found["wins"]["wins"]


def test_the_same_seed_gives_the_same_answer_and_another_seed_may_not(duel):
    few = ("--runs", "100", "--seed", "1")
    first = ok_json("balance", *DUEL, *few)
    assert ok_json("balance", *DUEL, *few) == first
    other = ok_json("balance", *DUEL, "--runs", "100", "--seed", "2")
    assert other["seed"] == 2 and other["curve"] != first["curve"]


def test_apply_writes_the_value_as_one_change_that_undo_takes_back(duel):
    before = files(duel)
    found = ok_json("balance", *DUEL, *FAST, "--apply")
    assert found["applied"] is True
    status = ok_json("status")
    blade = next(c for c in status["creatures"] if c["name"] == "The Masked Blade")
    assert blade["hp"] == blade["max_hp"] == found["value"] == 29
    log = ok_json("log")["entries"]
    assert log[-1]["kind"] == "set" and len(log) == 2  # init, then the one change
    ok("undo")
    assert files(duel)["encounter.toml"] == before["encounter.toml"]


def test_apply_of_a_count_adds_copies_as_add_like_does(duel):
    found = ok_json(
        "balance", "--wins", "Sera=50", "--vary", "The Masked Blade:count=1..3", *FAST, "--apply"
    )
    assert found["value"] == 2 and found["vary"]["field"] == "count"
    names = [c["name"] for c in ok_json("status")["creatures"]]
    assert names == ["Sera", "The Masked Blade", "The Masked Blade 1"]
    assert ok_json("log")["entries"][-1]["kind"] == "add"


def test_an_aspect_is_varied_by_its_name_in_any_case(duel):
    found = ok_json("balance", "--wins", "sera=50", "--vary", "sera:aspect.finesse=1..8", *FAST)
    assert found["vary"]["field"] == "aspect.Finesse" and found["vary"]["creature"] == "Sera"
    assert found["direction"] == 1 and found["side"] == "Sera"


def test_a_target_no_value_reaches_says_so_with_the_nearest(duel):
    found = ok_json("balance", "--wins", "Sera=100", "--vary", "The Masked Blade:hp=30..40", *FAST)
    assert found["reached"] is False and found["value"] == 30
    assert found["wins"]["rate"] < 1 and found["below"] is None
    human = ok("balance", "--wins", "Sera=100", "--vary", "The Masked Blade:hp=30..40", *FAST)
    assert human.stdout.splitlines()[2].startswith("no hp in 30..40 gets Sera to 100%; the nearest")


def test_svg_draws_the_curve(duel):
    out = ok("balance", *DUEL, *FAST, "--format", "svg").stdout
    assert out.startswith('<?xml version="1.0"') and out.rstrip().endswith("</svg>")
    assert out.count('<circle class="point') == len(ok_json("balance", *DUEL, *FAST)["curve"])
    assert out.count('<line class="interval"') == out.count('<circle class="point')
    assert out.count('<line class="target"') == 1 and 'class="point found"' in out


def test_ctrl_c_stops_with_nothing_written(duel, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(balance_api, "run_all", interrupted)
    before = files(duel)
    out = run("balance", *DUEL, *FAST, "--apply")
    assert out.exit_code == 130
    assert out.stderr == "d4cli: balance stopped by Ctrl-C: nothing was written\n"
    assert out.stdout == "" and files(duel) == before


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--wins", "Sera=70", "--vary", "The Masked Blade:hp=12.2..12.8"), "--vary: "),
        (("--wins", "Sera=70", "--vary", "The Masked Blade:hp=40..10"), "holds no whole number"),
        (("--wins", "Sera=70", "--vary", "Nobody:hp=1..9"), "--vary: 'Nobody:hp=1..9'"),
        (("--wins", "Sera=70", "--vary", "Sera:speed=1..9"), "unknown field 'speed'"),
        (("--wins", "Sera=70", "--vary", "Sera:aspect.Luck=1..9"), "has no such Aspect"),
        (("--wins", "Sera=170", "--vary", "Sera:hp=1..9"), "--wins: 'Sera=170'"),
        (("--wins", "Sera=-5", "--vary", "Sera:hp=1..9"), "within 0..100"),
        (("--wins", "orcs=50", "--vary", "Sera:hp=1..9"), "--wins: 'orcs': no creature"),
        (
            ("--wins", "Sera=50", "--vary", "Sera:hp=1..9", "--vary", "Sera:evasion=1..9"),
            "one --vary",
        ),
        (("--wins", "Sera=50", "--vary", "Sera hp 1..9"), "CREATURE:FIELD=A..B"),
        (("--wins", "Sera=50", "--vary", "Sera:hp=0..9"), "hp=0"),  # down at an end: over (R18)
        (("--wins", "Sera=50", "--vary", "Sera:evasion=1..9", "--runs", "1000000"), "--runs"),
        (("--vary", "Sera:hp=1..9"), "--wins: give the side"),
        (
            (
                "--wins",
                "Sera=50",
            ),
            "--vary: give the setting",
        ),
    ],
)
def test_bad_input_is_one_line_exit_2_and_nothing_written(duel, args, said):
    runs = () if "--runs" in args else ("--runs", "200")
    line = fails(2, duel, "balance", *args, *runs, "--seed", "1", "--apply")
    assert said in line, line


@pytest.mark.parametrize("width", [80, 120])
def test_human_output(duel, monkeypatch, snapshot, width):
    at_width(monkeypatch, width)
    assert ok("balance", *DUEL, *FAST).stdout == snapshot


@pytest.mark.slow  # some 30,000 fights
def test_on_a_bundled_example_simulate_agrees_within_three_points(isolated_env):
    """Done when: the value balance finds, played by simulate with other seeds, is within 3 points."""
    ok("init", "--from", "ambush")
    found = ok_json(
        "balance",
        "--wins",
        "party=60",
        "--vary",
        "Goblin Chief:hp=5..40",
        "--runs",
        "3000",
        "--seed",
        "11",
    )
    assert found["reached"]
    value = found["value"]
    ok("set", "Goblin Chief", f"hp={value}", f"max_hp={value}")
    report = ok_json("simulate", "--modes", "turn", "--runs", "6000", "--seed", "977")
    assert abs(report["modes"][0]["wins"]["party"]["rate"] - 0.60) <= 0.03


def test_a_long_search_says_how_long_it_will_take_first(duel, monkeypatch):
    from d4cli.cli.commands import balance as command

    monkeypatch.setattr(command, "LONG_SECONDS", 0.0)  # every search is long
    out = ok("balance", *DUEL, *FAST)
    assert out.stderr.startswith("d4cli: balance plays up to 11 values of 200 fights: about ")
    assert out.stderr.endswith(" s (Ctrl-C stops it, nothing written)\n")
    assert out.stderr.count("\n") == 1


@pytest.mark.slow  # a real process Ctrl-C'd mid-search, its workers too
def test_ctrl_c_of_a_real_search_exits_130_with_nothing_written(duel):
    from _reliability import interrupted

    before = files(duel)
    code, out, err = interrupted(
        # 90,000 fights per value: the batch engine plays the search in a few seconds.
        ["balance", *DUEL, "--runs", "90000", "--seed", "1", "--apply", "-f", str(duel)],
        1.0,
    )
    assert code == 130
    assert err.decode().splitlines()[-1] == "d4cli: balance stopped by Ctrl-C: nothing was written"
    assert b"Traceback" not in err and out == b""
    assert files(duel) == before


def test_apply_of_the_value_the_file_holds_writes_nothing_and_says_so(duel):
    ok("set", "The Masked Blade", "hp=29", "max_hp=29")
    before = files(duel)
    out = ok("balance", *DUEL, *FAST, "--apply")
    assert files(duel) == before
    assert out.stderr == "d4cli: note: the file holds hp = 29 already: nothing written\n"
    assert "wrote" not in out.stdout


def test_hp_of_a_hurt_creature_varies_up_to_its_max_hp_and_says_so(isolated_env):
    """The README's example after the Chief has taken 1 damage: the range stops at max_hp 16."""
    ok("init", "--from", "ambush")
    ok("damage", "Goblin Chief", "1")
    path = isolated_env / "encounter.toml"
    example = ("--wins", "party=60", "--vary", "Goblin Chief:hp=5..40", "--runs", "100")
    found = ok_json("balance", *example, "--seed", "1")
    assert found["vary"] == {"creature": "Goblin Chief", "field": "hp", "low": 5, "high": 16}
    assert found["capped"] == {"asked": 40, "high": 16}
    assert found["curve"][-1]["value"] == 16 and 5 <= found["value"] <= 16
    human = ok("balance", *example, "--seed", "1").stdout.splitlines()
    assert human[2] == (
        "Goblin Chief is hurt: hp varied 5..16, up to its max_hp (asked 5..40, R18);"
        " vary max_hp to move both"
    )
    before = files(path)
    line = fails(2, path, "balance", "--wins", "party=60", "--vary", "Goblin Chief:hp=20..40")
    assert line.startswith("d4cli: error: --vary: 'Goblin Chief:hp=20..40': Goblin Chief is hurt")
    assert files(path) == before


def test_max_hp_of_a_hurt_creature_moves_both_keeping_the_damage_taken(isolated_env):
    ok("init", "--from", "ambush")
    ok("damage", "Goblin Chief", "1")
    found = ok_json(
        "balance", "--wins", "party=60", "--vary", "Goblin Chief:max_hp=5..40", *FAST, "--apply"
    )
    assert found["capped"] is None and found["vary"]["high"] == 40
    chief = next(c for c in ok_json("status")["creatures"] if c["name"] == "Goblin Chief")
    assert (chief["hp"], chief["max_hp"]) == (found["value"] - 1, found["value"])
