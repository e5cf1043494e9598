"""Turns nobody loses (R19), reordering (R13), hit points and going down (R16, R18),
round reset variants (R12) and files of schema 1: the model and the commands."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from _cli import fails, files, ok, ok_json, run

from d4cli.fight.encounter_state import Encounter, new_creature
from d4cli.fight.hitpoints import damage, heal
from d4cli.fight.turns import add_creature, end_turn, move_creature, start_turn
from d4cli.fileformat.encounter_toml import dump_encounter, parse_encounter


@pytest.fixture
def skirmish(isolated_env) -> Path:
    ok("init", "--from", "skirmish")
    return Path(os.environ["D4CLI_FILE"])


def status_creatures() -> dict[str, dict]:
    return {c["name"]: c for c in ok_json("status")["creatures"]}


def four(mode: str = "turn", round_reset: str = "buffer") -> Encounter:
    encounter = Encounter(name="t", mode=mode, round_reset=round_reset)
    for name, hp in (("A", 5), ("B", 5), ("C", 5), ("D", None)):
        encounter, _ = add_creature(encounter, new_creature(name, (("Might", 3),), hp=hp))
    return encounter


# --- R19 turns nobody loses -------------------------------------------------------------------


def test_r19_done_when_third_creature_first_then_turn_start_gives_everyone_one_turn(skirmish):
    first = ok_json("turn", "start", "Goblin Archer")
    assert first["out_of_order"] is True and first["round"] == 1
    turns = [first["actor"]]
    while True:
        event = ok_json("turn", "start")
        if event["new_round"]:
            break
        turns.append(event["actor"])
    assert sorted(turns) == ["Aria", "Borin", "Goblin Archer", "Goblin Brute"]
    assert turns == ["Goblin Archer", "Goblin Brute", "Aria", "Borin"]
    assert (event["round"], event["actor"]) == (2, "Aria")


def test_r19_status_shows_who_had_its_turn(skirmish):
    ok("turn", "start", "Borin")
    creatures = status_creatures()
    assert {name: c["had_turn"] for name, c in creatures.items()} == {
        "Aria": False,
        "Borin": True,
        "Goblin Archer": False,
        "Goblin Brute": False,
    }
    assert all(c["down"] is False for c in creatures.values())
    ok("turn", "end")
    table = ok("status").stdout
    borin = next(line for line in table.splitlines() if "Borin" in line)
    assert "done" in borin
    assert ok_json("status")["next"] == "Goblin Archer"


def test_r19_a_second_turn_in_a_round_is_allowed_and_said(skirmish):
    ok("turn", "start")
    ok("turn", "start")
    event = ok_json("turn", "start", "Aria")
    assert event["again"] is True and event["out_of_order"] is True
    assert "Aria already had its turn this round (R19)" in ok("turn", "start", "Aria").stdout


def test_r19_turn_end_says_the_round_is_over_only_when_everyone_went():
    encounter = four()
    encounter, _ = start_turn(encounter, "C")
    encounter, event = end_turn(encounter)
    assert (event.round_over, event.next) == (False, "D")
    for expected in ("D", "A", "B"):
        encounter, event = start_turn(encounter)
        assert event.actor == expected and encounter.round == 1
    encounter, event = end_turn(encounter)
    assert event.round_over is True and event.next is None


def test_r19_a_creature_added_mid_round_has_its_turn_this_round():
    encounter, _ = start_turn(four())
    encounter, event = add_creature(encounter, new_creature("E", (("Might", 1),)), after="A")
    assert event.position == 2 and event.next == "E"
    encounter, event = start_turn(encounter)
    assert event.actor == "E" and encounter.round == 1


# --- R13 move and add --before/--after ----------------------------------------------------------


def test_move_changes_only_the_order(skirmish):
    obj = ok_json("move", "Goblin Brute", "--before", "Aria")
    assert obj["order"] == ["Goblin Brute", "Aria", "Borin", "Goblin Archer"]
    assert (obj["position_before"], obj["position_after"]) == (4, 1)
    assert ok_json("move", "Aria", "--last")["order"] == [
        "Goblin Brute",
        "Borin",
        "Goblin Archer",
        "Aria",
    ]
    assert ok_json("move", "Aria", "--first")["order"][0] == "Aria"
    assert ok_json("move", "Aria", "--after", "Borin")["order"] == [
        "Goblin Brute",
        "Borin",
        "Aria",
        "Goblin Archer",
    ]
    assert [c["name"] for c in ok_json("status")["creatures"]] == [
        "Goblin Brute",
        "Borin",
        "Aria",
        "Goblin Archer",
    ]


def test_move_keeps_the_turns_already_taken():
    encounter = four()
    encounter, _ = start_turn(encounter)  # A
    encounter, _ = start_turn(encounter)  # B
    encounter, event = move_creature(encounter, "A", "last")
    assert event.next == "C" and encounter.current == "B"
    encounter, _ = start_turn(encounter)
    encounter, _ = start_turn(encounter)
    assert encounter.current == "D"
    encounter, event = start_turn(encounter)  # A, moved last, already went: round 2 begins with B
    assert event.new_round and event.actor == "B"


def test_add_before_and_after(skirmish):
    assert ok_json("add", "Wolf", "--aspect", "Might=2", "--before", "Borin")["position"] == 2
    assert ok_json("add", "Crow", "--aspect", "Wits=1", "--after", "goblin brute")["position"] == 6
    names = [c["name"] for c in ok_json("status")["creatures"]]
    assert names == ["Aria", "Wolf", "Borin", "Goblin Archer", "Goblin Brute", "Crow"]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("move", "Aria", "--before", "Aria"), "--before: 'Aria': is Aria itself"),
        (("move", "Aria", "--after", "aria"), "--after: 'aria': is Aria itself"),
        (("move", "Aria", "--before", "Nobody"), "--before: 'Nobody': no such creature"),
        (("move", "Nobody", "--first"), "NAME: 'Nobody': no such creature"),
        (("move", "Aria"), "give exactly one of them"),
        (("move", "Aria", "--first", "--last"), "give exactly one of them"),
        (
            ("add", "Wolf", "--aspect", "Might=1", "--before", "Nobody"),
            "--before: 'Nobody': no such creature",
        ),
        (
            ("add", "Wolf", "--aspect", "Might=1", "--before", "Aria", "--after", "Borin"),
            "at most one of --before and --after",
        ),
    ],
)
def test_move_and_add_bad_input(skirmish, args, expected):
    line = fails(2, skirmish, *args)
    assert expected in line


# --- R16, R18 hit points and going down ---------------------------------------------------------


def test_r18_done_when_down_by_an_attack_skipped_refused_then_healed(skirmish):
    ok("turn", "start")  # Aria
    ok("damage", "Goblin Archer", "6")  # 7 -> 1
    attack = ok_json(
        "act", "Aria", "Finesse", "--extra", "1d4", "--target", "Goblin Archer", "--seed", "11"
    )
    assert (attack["hp_before"], attack["hp_after"], attack["hp_zero"]) == (1, 0, True)
    assert status_creatures()["Goblin Archer"]["down"] is True
    assert "0/7 down" in next(line for line in ok("status").stdout.splitlines() if "Archer" in line)
    ok("turn", "start")  # Borin
    event = ok_json("turn", "start")
    assert event["actor"] == "Goblin Brute" and event["skipped"] == ["Goblin Archer"]
    before = files(skirmish)
    refused = run("act", "Goblin Archer", "Finesse", "--target", "Aria", "--json")
    assert refused.exit_code == 3 and files(skirmish) == before
    obj = json.loads(refused.stdout)
    assert (obj["allowed"], obj["actor_down"], obj["dice"], obj["outcome"]) == (
        False,
        True,
        [],
        "refused",
    )
    assert "R18" in refused.stderr
    line = fails(3, skirmish, "act", "Goblin Archer", "Finesse")
    assert line.startswith(
        "d4cli: Goblin Archer Finesse (Cost 1, off-turn R10): refused (R18): Goblin Archer is down"
    )
    team = run("team", "Goblin Archer", "Aria", "--adv", "--aspect", "Finesse")
    assert (
        team.exit_code == 3 and team.stdout == "" and files(skirmish) == before
    )  # the line alone, as act's
    assert team.stderr.startswith(
        "d4cli: Goblin Archer Team Action (Finesse, Cost 1) for Aria: refused (R18): Goblin Archer is down"
    )
    healed = ok_json("heal", "Goblin Archer", "3")
    assert (
        healed["hp_before"],
        healed["hp_after"],
        healed["down_before"],
        healed["down_after"],
    ) == (0, 3, True, False)
    ok("act", "Goblin Archer", "Finesse", "--seed", "1")  # it acts again
    assert (
        ok_json("turn", "start")["actor"] == "Goblin Archer"
    )  # its turn comes back this round (R19)


def test_r18_an_attack_on_a_down_creature_says_it_is_already_down(skirmish):
    ok("damage", "Goblin Archer", "50")
    obj = ok_json("act", "Aria", "Finesse", "--target", "Goblin Archer", "--seed", "2")
    assert (obj["target_down"], obj["hp_before"], obj["hp_after"]) == (True, 0, 0)
    out = ok("act", "Aria", "Finesse", "--target", "Goblin Archer", "--seed", "3").stdout
    assert "Goblin Archer is already down (R18): hp stays 0" in out


def test_r18_damage_and_heal_stop_at_0_and_max_hp(skirmish):
    ok("add", "Ogre", "--aspect", "Might=5", "--max-hp", "20")
    assert status_creatures()["Ogre"]["hp"] == 20 and status_creatures()["Ogre"]["max_hp"] == 20
    assert ok_json("damage", "Ogre", "8")["hp_after"] == 12
    assert ok_json("heal", "Ogre", "0")["hp_after"] == 12
    assert (
        "Ogre heals 100: HP 12 -> 20 of 20 (stops at max_hp, R18)"
        in ok("heal", "Ogre", "100").stdout
    )
    assert status_creatures()["Ogre"]["hp"] == 20
    down = ok_json("damage", "Ogre", "25")
    assert (down["hp_after"], down["down_after"]) == (0, True)
    again = ok("damage", "Ogre", "1").stdout  # changes nothing: not logged
    assert "already down" in again and "nothing changed: nothing written or logged" in again
    assert (
        "Ogre heals 99: HP 0 -> 20 of 20 (back in the turn order, R18)"
        in ok("heal", "Ogre", "99").stdout
    )
    log = ok_json("log")["entries"]
    assert [(e["kind"], e["amount"]) for e in log if e["kind"] in ("damage", "heal")] == [
        ("damage", 8),
        ("heal", 100),
        ("damage", 25),
        ("heal", 99),
    ]
    path = Path(os.environ["D4CLI_FILE"])
    after_heal = files(path)["encounter.toml"]
    ok("undo")
    assert status_creatures()["Ogre"]["hp"] == 0
    ok("redo")
    assert files(path)["encounter.toml"] == after_heal


def test_r16_damage_to_a_creature_without_hp_is_only_reported():
    encounter = four()
    new, event = damage(encounter, "D", 4)
    assert new == encounter and event.hp_after is None and event.down_after is False
    assert not new.find("D").down  # a creature without hp is never down


def test_r18_all_down_default_turn_start_is_an_input_error():
    encounter = four()
    for name in ("A", "B", "C"):
        encounter, _ = damage(encounter, name, 5)
    encounter, event = start_turn(encounter)
    assert event.actor == "D" and event.skipped == ("A", "B", "C")
    encounter, _ = heal(encounter, "B", 2)
    encounter, event = start_turn(encounter)
    assert event.actor == "B" and encounter.round == 1


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("damage", "Aria", "-3"), "N: -3: must be within 0..100000"),
        (("heal", "Aria", "-1"), "N: -1: must be within 0..100000"),
        (("damage", "Aria", "2.5"), "N: '2.5': must be a whole number"),
        (("heal", "Aria", "1.0"), "N: '1.0': must be a whole number"),
        (("damage", "Aria"), "N: missing: give the amount"),
        (("heal", "Aria"), "N: missing: give the amount"),
        (("damage", "Nobody", "1"), "NAME: 'Nobody': no such creature"),
        (("heal", "Wolf", "1"), "NAME: 'Wolf': has no hp to heal (R16)"),
        (
            ("add", "Ogre", "--aspect", "Might=1", "--hp", "30", "--max-hp", "20"),
            "--hp: 30: is above --max-hp 20",
        ),
        (
            ("add", "Ogre", "--aspect", "Might=1", "--max-hp", "1.5"),
            "--max-hp: '1.5': must be a whole number",
        ),
    ],
)
def test_damage_and_heal_bad_input(skirmish, args, expected):
    ok("add", "Wolf", "--aspect", "Might=2")
    line = fails(2, skirmish, *args)
    assert expected in line


# --- R12 round reset variants -------------------------------------------------------------------


def test_r12_round_reset_zero_sets_everyone_to_load_0(isolated_env):
    obj = ok_json("init", "--mode", "round", "--round-reset", "zero")
    assert obj["round_reset"] == "zero"
    ok("add", "A", "--aspect", "Might=3", "--buffer", "2")
    ok("add", "B", "--aspect", "Might=3", "--exhaustion", "3")
    event = ok_json("turn", "start")
    assert [(r["name"], r["load_after"]) for r in event["resets"]] == [("A", 0), ("B", 0)]
    status = ok_json("status")
    assert status["round_reset"] == "zero" and status["mode"] == "round"
    assert "round mode, zero reset (R12)" in ok("status").stdout


def test_r12_round_reset_buffer_is_the_default():
    encounter, _ = add_creature(four("round"), new_creature("E", (("Might", 1),), load_buffer=2))
    _, event = start_turn(encounter)
    assert {reset.name: reset.load_after for reset in event.resets}["E"] == -2
    encounter, _ = add_creature(
        four("round", "zero"), new_creature("E", (("Might", 1),), load_buffer=2)
    )
    _, event = start_turn(encounter)
    assert {reset.load_after for reset in event.resets} == {0}


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ("init", "--force", "--mode", "round", "--round-reset", "half"),
            "--round-reset: 'half': must be 'buffer' or 'zero'",
        ),
        (
            ("init", "--force", "--round-reset", "zero"),
            "--round-reset: 'zero': applies only in round mode",
        ),
    ],
)
def test_r12_round_reset_bad_input_on_the_command_line(skirmish, args, expected):
    line = fails(2, skirmish, *args)
    assert expected in line


def test_r12_round_reset_unknown_value_in_the_file(skirmish):
    ok("turn", "start")
    text = skirmish.read_text().replace('round_reset = "buffer"', 'round_reset = "half"')
    skirmish.write_text(text)
    line = fails(2, skirmish, "turn", "start")
    assert "round_reset: 'half': unknown round reset: 'buffer' or 'zero' (R12)" in line


# --- files of schema 1 --------------------------------------------------------------------------

SCHEMA_1 = """\
# written by an earlier d4cli
schema_version = 1
name = "Old fight"
mode = "turn"
round = 3
current = "Borin"
next_turn = "Cleric"

[[creature]]
name = "Aria"
load_buffer = 1
exhaustion = 0
load = 0
hp = 4
aspects = { Finesse = 4 }

[[creature]]
name = "Borin"
load_buffer = 1
exhaustion = 0
load = -1
aspects = { Might = 4 }

[[creature]]
name = "Cleric"
load_buffer = 1
exhaustion = 0
load = -1
hp = 6
aspects = { Wits = 3 }
"""


def test_schema_1_is_read_as_it_was_written():
    encounter = parse_encounter(SCHEMA_1, "old.toml")
    assert (encounter.round, encounter.current, encounter.next_turn) == (3, "Borin", "Cleric")
    assert [c.had_turn for c in encounter.creatures] == [True, True, False]
    assert encounter.round_reset == "buffer"
    text = dump_encounter(encounter)
    assert (
        "schema_version = 3" in text and "next_turn" not in text and 'last_turn = "Borin"' in text
    )
    assert parse_encounter(text, "new.toml") == encounter


def test_schema_1_round_over_and_not_started():
    over = parse_encounter(SCHEMA_1.replace('next_turn = "Cleric"\n', ""), "old.toml")
    assert over.next_turn is None and all(c.had_turn for c in over.creatures)
    _, event = start_turn(over)
    assert event.new_round and event.round == 4 and event.actor == "Aria"
    fresh = parse_encounter(
        SCHEMA_1.replace("round = 3", "round = 0")
        .replace('current = "Borin"\n', "")
        .replace('next_turn = "Cleric"\n', ""),
        "old.toml",
    )
    assert fresh.next_turn is None and not any(c.had_turn for c in fresh.creatures)


def test_schema_1_file_loads_upgrades_on_the_first_change_and_undo_restores_it(isolated_env):
    path = Path(os.environ["D4CLI_FILE"])
    ok("init")
    path.write_text(
        SCHEMA_1
    )  # a hand-placed file of the earlier schema; the journal has only the init
    old_bytes = path.read_bytes()
    assert ok_json("status")["next"] == "Cleric"
    assert path.read_bytes() == old_bytes  # reading never rewrites
    event = ok_json("turn", "start")
    assert event["actor"] == "Cleric" and event["round"] == 3
    text = path.read_text()
    assert "schema_version = 3" in text and "had_turn = true" in text
    ok("undo")
    assert path.read_bytes() == old_bytes


def test_schema_2_file_errors_name_the_field(skirmish):
    ok("turn", "start")
    text = skirmish.read_text()
    for old, new, expected in (
        ("had_turn = true", "had_turn = 1", "had_turn: 1: must be true or false"),
        ('last_turn = "Aria"', 'next_turn = "Aria"', "next_turn: unknown key"),
        ('last_turn = "Aria"', 'last_turn = "Nobody"', "last_turn: 'Nobody': names no creature"),
        ("max_hp = 12", "max_hp = 10", "hp: 12: is above max_hp 10"),
    ):
        # The file keeps its comments (commented-out keys too): replace the key's own line.
        skirmish.write_text(re.sub(f"^{re.escape(old)}", new, text, count=1, flags=re.M))
        line = fails(2, skirmish, "status")
        assert expected in line, line


def test_r18_the_gm_may_start_a_down_creatures_turn_by_name_and_is_told(skirmish):
    ok("damage", "Borin", "100")
    event = ok_json("turn", "start", "Borin")
    assert event["down"] is True and event["actor"] == "Borin"
    assert "Borin is down and cannot act (R18)" in ok("turn", "start", "Borin").stdout
    assert fails(3, skirmish, "act", "Borin", "Might").startswith(
        "d4cli: Borin Might (Cost 1): refused (R18)"
    )
