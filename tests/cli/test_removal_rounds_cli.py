"""``remove`` in the middle of a round, through the commands: the round stays open until a
``turn start`` finds nobody left (R19), the next turn goes to the removed creature's follower
(R17), effects timed to its turn end with it and say so (R20); ``add`` starts a creature at its
reset value (R15, R12). Exit codes, JSON values and the lines people read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _cli import files, ok, ok_json


def encounter(*names: str, mode: str = "turn", round_reset: str | None = None) -> Path:
    """A new encounter of creatures with Might 3 and hp 5, in the order given."""
    ok("init", "--mode", mode, *(() if round_reset is None else ("--round-reset", round_reset)))
    for name in names:
        ok("add", name, "--aspect", "Might=3", "--hp", "5")
    return Path(os.environ["D4CLI_FILE"])


def had_turn() -> dict[str, bool]:
    return {c["name"]: c["had_turn"] for c in ok_json("status")["creatures"]}


def a_and_b_done() -> Path:
    """A, B, C: round 1 with A's and B's turns over and none running; C is the last to act."""
    path = encounter("A", "B", "C")
    for args in (("turn", "start"), ("turn", "start"), ("turn", "end")):
        ok(*args)
    return path


# --- a. R19 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", [("remove", "C"), ("damage", "C", "5")])
def test_r19_remove_and_damage_of_the_last_to_act_agree_the_round_stays_open(how):
    a_and_b_done()
    ok(*how)
    assert ok_json("status")["next"] is None
    added = ok_json("add", "D", "--aspect", "Might=2")
    assert added["next"] == "D" and had_turn()["D"] is False
    started = ok_json("turn", "start")
    assert (started["round"], started["actor"], started["new_round"]) == (1, "D", False)
    started = ok_json("turn", "start")
    assert (started["round"], started["actor"], started["new_round"]) == (2, "A", True)


def test_r19_remove_of_the_last_to_act_says_the_round_runs_on():
    path = a_and_b_done()
    removed = ok_json("remove", "C")
    assert (removed["round"], removed["next"], removed["round_open"]) == (1, None, True)
    assert "round_open = true" in path.read_text()
    line = ok("log", "--last", "1").stdout.rstrip()
    assert line.endswith(
        "removed C (R17); nobody is left to go in round 1, which runs on until the next turn "
        "start: a creature added or healed before then has its turn in it (R19)"
    )
    assert "'d4cli turn start' begins round 2" in ok("status").stdout
    ok("add", "D", "--aspect", "Might=2")
    assert "'d4cli turn start' begins D's turn" in ok("status").stdout


def test_r19_after_the_last_turn_end_a_removal_and_an_add_keep_round_1_open():
    a_and_b_done()
    ok("turn", "start")  # C's turn
    assert ok_json("turn", "end")["round_over"] is True  # everyone has had a turn
    ok("remove", "B")
    ok("add", "D", "--aspect", "Might=2")
    assert had_turn()["D"] is False  # the last turn end closed nothing (R19)
    started = ok_json("turn", "start")
    assert (started["round"], started["actor"]) == (1, "D")


# --- b. R20 -----------------------------------------------------------------------------------------


def test_r20_removing_the_current_last_creature_ends_what_is_timed_to_its_turn_and_says_so():
    a_and_b_done()
    ok("effect", "add", "A", "guarded", "--adv", "--until-end-of", "C")
    ok("effect", "add", "B", "marked", "--dis", "--until-start-of", "C")
    ok("effect", "add", "C", "rage", "--adv")
    ok("effect", "add", "A", "blessed", "--adv", "--rounds", "1")
    started = ok_json("turn", "start")  # C's turn: the start of it ends `marked`
    assert [(e["creature"], e["source"]) for e in started["effects_ended"]] == [("B", "marked")]
    removed = ok_json("remove", "C")
    assert (removed["ended_turn"], removed["next"], removed["round_open"]) == (True, None, True)
    assert [(e["creature"], e["source"], e["reason"]) for e in removed["effects_ended"]] == [
        ("C", "rage", "C removed"),
        ("A", "guarded", "C removed, and its turn with it (R17)"),
    ]
    line = ok("log", "--last", "1").stdout.rstrip()
    assert line.endswith(
        "removed C; its turn ended (R17); nobody is left to go in round 1, which runs on until "
        "the next turn start: a creature added or healed before then has its turn in it (R19); "
        "rage on C ended: C removed; guarded on A ended: C removed, and its turn with it (R17) (R20)"
    )
    assert [e["source"] for e in ok_json("status")["creatures"][0]["effects"]] == ["blessed"]
    started = ok_json("turn", "start")
    assert (started["round"], started["new_round"]) == (2, True)
    assert [(e["source"], e["reason"]) for e in started["effects_ended"]] == [
        ("blessed", "end of round 1")
    ]


def test_r20_an_effect_until_the_start_of_a_removed_creatures_next_turn_ends_with_the_remove():
    encounter("Goblin", "Aria")
    ok("turn", "start")  # the Goblin's turn
    ok("effect", "add", "Aria", "pinned", "--dis", "--until-start-of", "Goblin")
    ok("turn", "start")  # Aria's turn
    removed = ok("remove", "Goblin")
    assert removed.stdout.rstrip() == (
        "removed Goblin (R17); pinned on Aria ended: Goblin removed, and its turn with it (R17) (R20)"
    )
    assert ok_json("effect", "list")["effects"] == []


# --- c. R17 -----------------------------------------------------------------------------------------


def b_ran_last_and_left() -> Path:
    path = encounter("A", "B", "C", "D")
    for args in (("turn", "start"), ("turn", "start"), ("turn", "end")):
        ok(*args)
    assert ok_json("remove", "B")["next"] == "C"
    return path


@pytest.mark.parametrize(
    "change",
    [
        ("add", "E", "--aspect", "Might=2", "--after", "A"),
        ("move", "C", "--before", "A"),
        ("move", "C", "--last"),
    ],
)
def test_r17_after_removing_the_one_that_ran_last_add_and_move_keep_its_follower_next(change):
    path = b_ran_last_and_left()
    assert 'resume_at = "C"' in path.read_text()
    assert ok_json(*change)["next"] == "C"
    assert ok_json("status")["next"] == "C"
    started = ok_json("turn", "start")
    assert (started["actor"], started["round"], started["out_of_order"]) == ("C", 1, False)
    assert "resume_at" not in path.read_text()


def test_r17_the_order_after_the_follower_goes_on_round_the_file():
    b_ran_last_and_left()
    ok("add", "E", "--aspect", "Might=2", "--after", "A")  # A E C D
    actors = [ok_json("turn", "start")["actor"] for _ in range(4)]
    assert actors == ["C", "D", "E", "A"]
    assert ok_json("status")["round"] == 2


def test_r17_undo_of_the_remove_gives_the_file_back():
    path = encounter("A", "B", "C", "D")
    for args in (("turn", "start"), ("turn", "start"), ("turn", "end")):
        ok(*args)
    before = files(path)
    ok("remove", "B")
    ok("undo")
    assert files(path)["encounter.toml"] == before["encounter.toml"]


# --- d. R15 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("round_reset", "load"),
    [("zero", 0), ("buffer", -1)],
)
def test_r15_add_starts_a_creature_at_its_reset_value_in_round_mode(round_reset, load):
    encounter("A", mode="round", round_reset=round_reset)
    ok("turn", "start")
    added = ok_json("add", "D", "--aspect", "Might=2", "--exhaustion", "0")
    assert added["load_after"] == load
    creature = ok_json("status")["creatures"][1]
    assert (creature["load"], creature["reset_value"], creature["headroom"]) == (
        load,
        load,
        {"Might": 2 - load},
    )
    assert f"Load {load} (R1)" in ok("log", "--last", "1").stdout
