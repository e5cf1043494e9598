"""An Advantage effect's level on checks (C8), and effects timed to a down creature's skipped turn (R18, R20)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _cli import fails, ok, ok_json, run

from d4cli.fight.effect_transitions import make_effect
from d4cli.fight.effects import Effect
from d4cli.fight.encounter_state import Encounter, new_creature
from d4cli.fight.sheet_check import (
    SheetCheckRequest,
    Source,
    count_sources,
    levels_from,
    sheet_check,
)
from d4cli.fight.turns import add_creature
from d4cli.fileformat.effects_toml import effects_document
from d4cli.fileformat.encounter_toml import dump_encounter, parse_encounter
from d4cli.rules.action_roll import CheckResult
from d4cli.rules.dice import ScriptedDice
from d4cli.rules.errors import FileError


def _sheet() -> Encounter:
    encounter = Encounter(name="t")
    creature = new_creature("Aria", (("Might", 3),))
    encounter, _ = add_creature(encounter, creature)
    return encounter


# --- the level on checks (C8) -------------------------------------------------------------


def test_c8_each_advantage_source_adds_its_level_capped_at_5():
    counted = (Source("blessed", "advantage", "effect", 2), Source("aid", "advantage", "--adv"))
    assert levels_from(0, 0, counted) == (3, 0)
    assert levels_from(1, 0, (Source("blessed", "advantage", "effect", 5),)) == (5, 0)
    assert levels_from(
        0, 1, (Source("x", "advantage", "effect", 3), Source("y", "disadvantage", "effect"))
    ) == (3, 2)


def test_c8_a_source_named_twice_counts_once_at_its_highest_level():
    named = Source("Blessed", "advantage", "--adv")
    effect = Source("blessed", "advantage", "effect", 3)
    counted = count_sources([named, effect])
    assert counted == (effect,)
    assert levels_from(0, 0, counted) == (3, 0)
    assert count_sources([effect, named]) == (effect,)


def test_c8_a_check_applies_an_effects_level():
    encounter = _sheet()
    from d4cli.fight.effect_transitions import add_effect

    encounter, _ = add_effect(
        encounter, "Aria", make_effect(encounter, "blessed", "advantage", level=3)
    )
    dice = ScriptedDice([10, 1, 2, 3, 4])  # the d20, then Level 4: four d6 (C3)
    _, record = sheet_check(encounter, SheetCheckRequest("Aria", advantage_level=1), dice)
    assert isinstance(record.result, CheckResult)
    assert record.result.levels.effective_level == 4
    assert (record.result.total, dice.used) == (14, 5)
    assert record.counted == (Source("blessed", "advantage", "effect", 3),)


def test_effect_level_round_trips_the_file_and_level_1_is_not_written():
    assert effects_document((Effect("a"), Effect("b", level=2))) == [
        {"source": "a", "grant": "advantage", "on": "own", "ends": "removed"},
        {"source": "b", "grant": "advantage", "on": "own", "ends": "removed", "level": 2},
    ]
    encounter = _sheet()
    from d4cli.fight.effect_transitions import add_effect

    encounter, _ = add_effect(encounter, "Aria", Effect("b", level=2))
    text = dump_encounter(encounter)
    assert "level = 2" in text
    assert parse_encounter(text, Path("x.toml")).creatures[0].effects == (Effect("b", level=2),)


@pytest.mark.parametrize(
    ("grant", "level", "problem"),
    [
        ("advantage", "0", "must be within 1..5"),
        ("advantage", "6", "must be within 1..5"),
        ("advantage", '"2"', "must be a whole number"),
        ("disadvantage", "2", "only an Advantage effect has a level"),
    ],
)
def test_a_bad_level_in_the_file_names_the_field(grant, level, problem):
    encounter = _sheet()
    from d4cli.fight.effect_transitions import add_effect

    encounter, _ = add_effect(encounter, "Aria", Effect("b"))
    text = dump_encounter(encounter).replace('grant = "advantage"', f'grant = "{grant}"')
    text = text.replace('ends = "removed"\n', f'ends = "removed"\nlevel = {level}\n')
    with pytest.raises(FileError) as caught:
        parse_encounter(text, Path("x.toml"))
    assert "effects #1.level" in str(caught.value) and problem in str(caught.value)


@pytest.fixture
def sheet_file(isolated_env) -> Path:
    path = Path(os.environ["D4CLI_FILE"])
    ok("init")
    ok("add", "Aria", "--aspect", "Might=3", "--attribute", "Agility=3")
    return path


def test_effect_add_level_on_the_command_line_json_status_and_check(sheet_file):
    before = sheet_file.read_bytes()
    ok("effect", "add", "Aria", "plain", "--adv")
    assert b"level" not in sheet_file.read_bytes() and sheet_file.read_bytes() != before
    added = ok_json("effect", "add", "Aria", "blessed", "--adv", "--level", "2")
    assert added["effect"]["level"] == 2
    assert (
        "blessed +1d4, Advantage level 2 on checks (C8), until removed"
        in ok("effect", "list").stdout
    )
    assert [e["level"] for e in ok_json("status")["creatures"][0]["effects"]] == [1, 2]
    check = ok_json("check", "Aria", "--attribute", "Agility", "--seed", "1", "--dry-run")
    assert check["effective_level"] == 3  # plain 1 + blessed 2 (C8)
    assert [(s["name"], s["level"]) for s in check["sources"]] == [("plain", 1), ("blessed", 2)]


def test_r4_on_a_pool_roll_a_source_counts_once_whatever_its_level(sheet_file):
    ok("effect", "add", "Aria", "blessed", "--adv", "--level", "5")
    rolled = ok_json("act", "Aria", "Might", "--seed", "3", "--dry-run")
    assert rolled["net_advantage"] == 1
    assert rolled["pool_size"] == 3 - max(0, -1) + 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--adv", "--level", "0"), "--level: 0: must be within 1..5"),
        (("--adv", "--level", "6"), "--level: 6: must be within 1..5"),
        (("--adv", "--level", "two"), "--level: 'two': must be a whole number"),
        (
            ("--dis", "--level", "2"),
            "--level: '2': only an Advantage effect (--adv) has a level (C8)",
        ),
        (
            ("--dis", "--level", "1"),
            "--level: '1': only an Advantage effect (--adv) has a level (C8)",
        ),
    ],
)
def test_a_bad_level_is_one_line_exit_2_nothing_changed(sheet_file, args, message):
    assert (
        fails(2, sheet_file, "effect", "add", "Aria", "blessed", *args)
        == f"d4cli: error: {message}"
    )


def test_the_rules_say_the_level_applies_to_checks_only():
    text = ok("help", "C8").stdout
    assert "applies to checks only" in " ".join(text.split())


# --- an effect timed to a down creature's turn (R18, R20) -----------------------------------


@pytest.fixture
def abc(isolated_env) -> Path:
    path = Path(os.environ["D4CLI_FILE"])
    ok("init")
    for name in ("A", "B", "C"):
        ok("add", name, "--aspect", "M=3", "--hp", "5")
    ok("turn", "start")
    return path


def _effects(name: str) -> list[str]:
    creature = next(c for c in ok_json("status")["creatures"] if c["name"] == name)
    return [e["source"] for e in creature["effects"]]


def test_r20_an_effect_timed_to_a_skipped_turn_lasts_while_its_creature_is_down(abc):
    """R20 as amended: a skipped turn neither starts nor ends, so effects timed to B's turn
    last through the rounds B misses and end at B's first turn after it is back."""
    ok("effect", "add", "A", "y", "--adv", "--until-end-of", "B")
    ok("effect", "add", "C", "z", "--dis", "--until-start-of", "B")
    ok("effect", "add", "A", "w", "--adv", "--until-end-of", "C")
    ok("damage", "B", "5")
    skip = ok_json("turn", "start")  # B is skipped: C's turn; nothing ends
    assert skip["skipped"] == ["B"] and skip["effects_ended"] == []
    new_round = ok_json("turn", "start")  # C's turn ends, round 2 begins with A
    ended = {(e["source"], e["creature"], e["reason"]) for e in new_round["effects_ended"]}
    assert ended == {("w", "A", "end of C's turn")}
    assert _effects("A") == ["y"] and _effects("C") == ["z"]
    ok("turn", "start")  # C (B skipped again)
    ok("turn", "start")  # round 3, A
    assert _effects("A") == ["y"] and _effects("C") == ["z"]
    ok("heal", "B", "2")
    back = ok_json("turn", "start")  # B is back: its turn starts
    assert (back["round"], back["actor"]) == (3, "B")
    assert [(e["source"], e["reason"]) for e in back["effects_ended"]] == [
        ("z", "start of B's turn")
    ]
    ended = ok_json("turn", "end")
    assert [(e["source"], e["reason"]) for e in ended["effects_ended"]] == [
        ("y", "end of B's turn")
    ]


def test_r19_r20_the_last_turn_end_closes_nothing_while_a_creature_is_down(abc):
    ok("damage", "C", "5")
    ok("effect", "add", "A", "y", "--adv", "--until-start-of", "C")
    ok("turn", "start")  # B's turn
    ended = ok_json("turn", "end")
    assert ended["round_over"] is True and ended["effects_ended"] == []
    started = ok_json("turn", "start")  # round 2 with A; C still down: y lasts
    assert (started["round"], started["actor"], started["effects_ended"]) == (2, "A", [])
    assert _effects("A") == ["y"]


def test_r20_a_healed_creature_takes_its_turn_and_ends_the_effect_as_usual(abc):
    ok("effect", "add", "A", "y", "--adv", "--until-start-of", "C")
    ok("damage", "C", "5")
    ok("heal", "C", "2")
    ok("turn", "start")  # B
    started = ok_json("turn", "start")  # C
    assert [e["reason"] for e in started["effects_ended"]] == ["start of C's turn"]
    assert run("turn", "start").exit_code == 0
