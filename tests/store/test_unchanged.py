"""Changes that change nothing write nothing; redo after a hand edit says why; small message faults."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _cli import fails, files, ok, ok_json, run

NOTHING = "nothing changed: nothing written or logged"


@pytest.fixture
def pair(isolated_env) -> Path:
    """Aria (hp 5 of 5) and Bo (no hp), an effect and an action on Aria, no round yet."""
    path = Path(os.environ["D4CLI_FILE"])
    ok("init")
    ok("add", "Aria", "--aspect", "Might=3", "--hp", "5", "--max-hp", "5")
    ok("add", "Bo", "--aspect", "Might=2")
    ok("effect", "add", "Aria", "blessed", "--adv", "--rounds", "2")
    ok("action", "add", "Aria", "stab", "--aspect", "Might", "--extra", "1d4")
    ok("exhaust", "Bo", "2")
    return path


NO_OPS = [
    ("exhaust", "Aria", "+0"),
    ("exhaust", "Aria", "-0"),
    ("exhaust", "Aria", "0"),
    ("exhaust", "Bo", "2"),
    ("damage", "Aria", "0"),
    ("damage", "Bo", "3"),  # no hp: only reported (R16)
    ("heal", "Aria", "0"),
    ("heal", "Aria", "4"),  # at max_hp
    ("move", "Aria", "--first"),
    ("move", "Bo", "--last"),
    ("move", "Bo", "--after", "Aria"),
    ("move", "Aria", "--before", "Bo"),
    ("effect", "add", "Aria", "blessed", "--adv", "--rounds", "2"),
    ("action", "add", "Aria", "stab", "--aspect", "Might", "--extra", "1d4"),
]


@pytest.mark.parametrize("args", NO_OPS)
def test_a_change_that_changes_nothing_succeeds_and_writes_nothing(pair, args):
    before = files(pair)
    log = ok_json("log")["entries"]
    result = ok(*args, "--note", "dropped") if args[0] in ("exhaust", "effect") else ok(*args)
    assert result.stdout.rstrip().endswith(
        NOTHING + ("; the --note was not kept" if args[0] in ("exhaust", "effect") else "")
    )
    assert files(pair) == before  # file, journal and redo byte for byte
    assert ok_json("log")["entries"] == log
    obj = ok_json(*args)
    assert obj["changed"] is False
    assert files(pair) == before


def test_the_no_op_json_keeps_the_records_values(pair):
    obj = ok_json("exhaust", "Aria", "+0")
    assert (obj["kind"], obj["exhaustion_before"], obj["exhaustion_after"], obj["changed"]) == (
        "exhaust",
        0,
        0,
        False,
    )
    healed = ok_json("heal", "Aria", "3")
    assert (healed["hp_before"], healed["hp_after"], healed["changed"]) == (5, 5, False)


def test_undo_after_a_no_op_takes_back_the_change_before_it(pair):
    ok("exhaust", "Aria", "1")
    after_exhaust = files(pair)["encounter.toml"]
    ok("exhaust", "Aria", "+0")
    assert files(pair)["encounter.toml"] == after_exhaust
    undone = ok_json("undo")
    assert undone["undone"]["kind"] == "exhaust" and undone["undone"]["exhaustion_after"] == 1


@pytest.mark.parametrize(
    "args",
    [
        ("exhaust", "Aria", "+1"),
        ("damage", "Aria", "1"),
        ("move", "Bo", "--first"),
        ("effect", "add", "Aria", "blessed", "--adv", "--rounds", "3"),
        (
            "effect",
            "add",
            "Aria",
            "Blessed",
            "--adv",
            "--rounds",
            "2",
        ),  # a new spelling is a change
        ("effect", "add", "Aria", "blessed", "--adv", "--rounds", "2", "--level", "2"),
        ("action", "add", "Aria", "stab", "--aspect", "Might"),
    ],
)
def test_a_real_change_is_logged_and_has_no_changed_key(pair, args):
    count = len(ok_json("log")["entries"])
    obj = ok_json(*args)
    assert "changed" not in obj
    assert len(ok_json("log")["entries"]) == count + 1


def test_rolls_are_still_logged_when_they_change_nothing(pair):
    count = len(ok_json("log")["entries"])
    ok("act", "Aria", "Might", "--gm", "--seed", "1")
    ok("act", "Aria", "Might", "--cost", "0", "--seed", "1")
    assert [e["kind"] for e in ok_json("log")["entries"][count:]] == ["act", "act"]


def test_removing_what_is_not_there_stays_bad_input(pair):
    assert "SOURCE" in fails(2, pair, "effect", "remove", "Aria", "nothing")
    assert "ACTION" in fails(2, pair, "action", "remove", "Aria", "nothing")


# --- redo after an undo and a hand edit -------------------------------------------------------


def test_redo_after_a_hand_edit_says_the_file_was_edited_and_changes_nothing(isolated_env):
    path = Path(os.environ["D4CLI_FILE"])
    ok("init", "--from", "skirmish")
    ok("turn", "start")
    ok("act", "Aria", "Finesse", "--seed", "2")
    acted = files(path)["encounter.toml"]
    ok("undo")
    undone = path.read_text(encoding="utf-8")
    assert "\nload = -2\n" in undone
    path.write_text(undone.replace("\nload = -2\n", "\nload = 5\n", 1), encoding="utf-8")
    message = fails(2, path, "redo")
    assert message == (
        "d4cli: error: redo: the encounter file was edited by hand since the undo, so the undone change"
        " cannot be redone (revert the hand edit to redo it)"
    )
    path.write_text(undone, encoding="utf-8")  # the hand edit reverted: the change can be redone
    ok("redo")
    assert files(path)["encounter.toml"] == acted
    assert fails(2, path, "redo") == "d4cli: error: redo: nothing to redo"


def test_redo_after_a_new_change_still_says_nothing_to_redo(isolated_env):
    path = Path(os.environ["D4CLI_FILE"])
    ok("init", "--from", "skirmish")
    ok("turn", "start")
    ok("undo")
    ok("exhaust", "Aria", "1")
    assert fails(2, path, "redo") == "d4cli: error: redo: nothing to redo"


# --- small message faults ---------------------------------------------------------------------


def test_effect_list_with_no_effects_prints_only_the_message(isolated_env):
    ok("init")
    ok("add", "Aria", "--aspect", "Might=3")
    assert (
        ok("effect", "list").stdout
        == "No lasting effects: d4cli effect add CREATURE SOURCE --adv|--dis\n"
    )
    assert (
        ok("effect", "list", "Aria").stdout
        == "No lasting effects: d4cli effect add CREATURE SOURCE --adv|--dis\n"
    )


@pytest.mark.parametrize("dc", ["easy,bogus", "bogus", "bogus..hard", "easy,4..bogus"])
def test_odds_dc_errors_name_the_tiers(dc):
    result = run("odds", "check", "--dc", dc)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "d4cli: error: --dc: 'bogus': must be a whole number or one of easy, medium, hard, challenging,"
        " nearly-impossible (C2)\n"
    )
    assert run("odds", "pool", "--aspect", "2", "--dc", dc).stderr == result.stderr


def test_odds_dc_a_bad_number_still_says_whole_number():
    assert (
        run("odds", "check", "--dc", "easy,1.5").stderr
        == "d4cli: error: --dc: '1.5': must be a whole number\n"
    )
