"""``damage``, ``heal``, ``conceal``, ``reveal`` and ``effect add`` of several creatures at once:
names, shell patterns (N1 folding) and ``--side``, as one change (one journal entry, one undo).

conftest's autouse fixture points D4CLI_FILE at a temp folder and chdirs there.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from _cli import fails, files, ok, ok_json, run
from _width import at_width

FILE = Path("encounter.toml")
JOURNAL = Path("encounter.toml.journal")

# The keys of a one-creature damage object: scripts rely on them, unchanged.
DAMAGE_KEYS = [
    "kind",
    "round",
    "turn",
    "actor",
    "amount",
    "hp_before",
    "hp_after",
    "max_hp",
    "down_before",
    "down_after",
    "fight_over",
    "roll",
]


def _entries() -> int:
    return len(JOURNAL.read_text().splitlines())


def _skirmish() -> None:
    ok("init", "--from", "skirmish")
    ok("turn", "start")


def test_one_plain_name_prints_the_one_creature_object_as_before():
    _skirmish()
    obj = ok_json("damage", "goblin archer", "3")
    assert list(obj) == DAMAGE_KEYS
    assert obj["actor"] == "Goblin Archer" and obj["hp_after"] == 4


def test_two_names_are_one_change_one_line_each_and_one_entry():
    _skirmish()
    before = _entries()
    out = ok("damage", "Goblin Archer", "Goblin Brute", "3").stdout.splitlines()
    assert out == [
        "Goblin Archer takes 3: HP 7 -> 4 of 7 (R16)",
        "Goblin Brute takes 3: HP 10 -> 7 of 10 (R16)",
    ]
    assert _entries() == before + 1
    entry = ok_json("log", "--last", "1")["entries"][0]
    assert entry["kind"] == "damage"
    assert entry["names"] == ["Goblin Archer", "Goblin Brute"]
    assert [part["hp_after"] for part in entry["changes"]] == [4, 7]


def test_a_pattern_gives_the_several_object_in_turn_order():
    _skirmish()
    obj = ok_json("damage", "GOBLIN*", "2")
    assert list(obj) == ["kind", "round", "turn", "names", "changes", "roll", "fight_over"]
    assert obj["kind"] == "damage" and obj["round"] == 1 and obj["turn"] == "Aria"
    assert obj["names"] == ["Goblin Archer", "Goblin Brute"]
    assert [list(part) for part in obj["changes"]] == [DAMAGE_KEYS, DAMAGE_KEYS]
    assert [(p["actor"], p["hp_before"], p["hp_after"]) for p in obj["changes"]] == [
        ("Goblin Archer", 7, 5),
        ("Goblin Brute", 10, 8),
    ]
    assert obj["roll"] is None and obj["fight_over"] is None


def test_dice_are_rolled_once_and_every_creature_takes_that_total():
    _skirmish()
    rng = random.Random(11)
    first, second = rng.randint(1, 6), rng.randint(1, 6)
    total = first + second + 1
    obj = ok_json("damage", "Goblin Archer", "Goblin Brute", "2d6+1", "--seed", "11")
    assert obj["roll"]["terms"] == [{"notation": "2d6+1", "dice": [first, second], "modifier": 1}]
    assert [part["amount"] for part in obj["changes"]] == [total, total]
    assert [part["roll"] for part in obj["changes"]] == [None, None]
    ok("undo")
    lines = ok("damage", "Goblin*", "2d6+1", "--seed", "11").stdout.splitlines()
    assert lines[0].startswith(
        f"Goblin Archer takes {total} (2d6+1: {first} {second} +1 = {total})"
    )
    assert lines[1].startswith(f"Goblin Brute takes {total} (the same roll): HP 10 -> {10 - total}")


def test_one_undo_takes_the_whole_change_back_byte_for_byte():
    _skirmish()
    before = FILE.read_bytes()
    ok("heal", "Aria", "Borin", "1")  # at max_hp: nothing changed, nothing written
    assert FILE.read_bytes() == before
    ok("damage", "*", "5")
    assert ok_json("status")["creatures"][0]["hp"] == 7
    ok("undo")
    assert FILE.read_bytes() == before
    ok("redo")
    assert [c["hp"] for c in ok_json("status")["creatures"]] == [7, 11, 2, 5]


def test_downing_the_last_foes_together_ends_the_fight_once():
    _skirmish()
    obj = ok_json("damage", "Goblin Archer", "Goblin Brute", "20")
    assert obj["fight_over"] == {"winner": "party"}
    assert [part["fight_over"] for part in obj["changes"]] == [None, None]
    assert [part["down_after"] for part in obj["changes"]] == [True, True]
    ok("undo")
    lines = ok("damage", "Goblin*", "20").stdout.splitlines()
    assert lines[-1].endswith("the fight is over, won by party (R21)")
    assert "fight is over" not in lines[0]


def test_heal_of_several_brings_the_down_back():
    _skirmish()
    ok("damage", "Goblin*", "20")
    obj = ok_json("heal", "Goblin*", "3")
    assert [(p["hp_after"], p["down_before"], p["down_after"]) for p in obj["changes"]] == [
        (3, True, False),
        (3, True, False),
    ]


def test_bad_input_is_one_plain_error_and_changes_nothing():
    _skirmish()
    count = _entries()
    twice = fails(2, FILE, "damage", "Goblin*", "goblin brute", "3")
    assert twice.startswith("d4cli: error: NAME: 'goblin brute': means Goblin Brute again")
    nobody = fails(2, FILE, "conceal", "Orc*")
    assert nobody.startswith("d4cli: error: NAME: 'Orc*': matches no creature in the encounter")
    unknown = fails(2, FILE, "heal", "Aria", "Zed", "2")
    assert unknown.startswith("d4cli: error: NAME: 'Zed': no such creature")
    side = fails(2, FILE, "effect", "add", "--side", "elves", "slowed", "--dis")
    assert side == "d4cli: error: --side: 'elves': no creature is on that side (sides: foes, party)"
    again = fails(2, FILE, "effect", "add", "Aria", "--side", "party", "slowed", "--dis")
    assert again.startswith("d4cli: error: --side: 'party': means Aria again ('Aria' means it")
    bad_n = fails(2, FILE, "damage", "Aria", "Borin", "2.5")
    assert bad_n.startswith("d4cli: error: N: ")
    assert _entries() == count


def test_one_refused_part_writes_nothing_for_anyone():
    _skirmish()
    ok("effect", "add", "Goblin Brute", "slowed", "--adv")
    before = files(FILE)
    line = fails(2, FILE, "effect", "add", "--side", "foes", "slowed", "--dis")
    assert "Goblin Brute already has 'slowed' (advantage)" in line
    assert files(FILE) == before
    ok("add", "Wisp", "--aspect", "Wits=2", "--side", "foes")  # no hp: heal is refused (R16)
    before = files(FILE)
    assert "Wisp" in fails(2, FILE, "heal", "*", "1")
    assert files(FILE) == before


def test_conceal_and_reveal_by_pattern_the_current_creature_too():
    _skirmish()
    obj = ok_json("conceal", "*i*")  # Aria (current), Borin, Goblin Archer, Goblin Brute
    assert obj["kind"] == "conceal"
    assert obj["names"] == ["Aria", "Borin", "Goblin Archer", "Goblin Brute"]
    assert all(part["hidden_after"] for part in obj["changes"])
    assert ok_json("status")["current"] == "Aria"
    lines = ok("reveal", "Aria", "Goblin ?rcher").stdout.splitlines()
    assert lines == ["Aria is on the player view", "Goblin Archer is on the player view"]
    again = ok("conceal", "Borin", "Goblin Brute").stdout.splitlines()
    assert again[-1].endswith("(it already was); nothing changed: nothing written or logged")


def test_effect_add_on_a_side_with_one_timing_for_all():
    _skirmish()
    count = _entries()
    obj = ok_json("effect", "add", "--side", "FOES", "slowed", "--dis", "--until-end-of", "Borin")
    assert obj["kind"] == "effect" and obj["names"] == ["Goblin Archer", "Goblin Brute"]
    ends = [part["effect"]["ends"] for part in obj["changes"]]
    assert ends == [{"kind": "end", "creature": "Borin", "last_round": None, "uses": None}] * 2
    assert _entries() == count + 1
    listed = ok_json("effect", "list")["effects"]
    assert [(e["creature"], e["source"]) for e in listed] == [
        ("Goblin Archer", "slowed"),
        ("Goblin Brute", "slowed"),
    ]
    ok("undo")
    assert ok_json("effect", "list")["effects"] == []


def test_effect_add_of_names_and_rounds_one_line_each():
    _skirmish()
    lines = ok("effect", "add", "Aria", "Borin", "blessed", "--adv", "--rounds", "1").stdout
    assert lines.splitlines() == [
        "Aria: blessed +1d4, 1 round left (until the end of round 1) (R20)",
        "Borin: blessed +1d4, 1 round left (until the end of round 1) (R20)",
    ]


def test_log_finds_a_change_of_several_by_kind_and_by_creature():
    _skirmish()
    ok("damage", "Goblin*", "1")
    by_kind = ok_json("log", "--kind", "damage")["entries"]
    assert len(by_kind) == 1 and by_kind[0]["names"] == ["Goblin Archer", "Goblin Brute"]
    by_name = ok("log", "--creature", "goblin brute").stdout.splitlines()
    assert len(by_name) == 1
    assert "Goblin Archer takes 1: HP 7 -> 6 of 7 (R16); Goblin Brute takes 1" in by_name[0]


def test_recap_counts_each_creatures_part():
    _skirmish()
    ok("damage", "Goblin*", "2")
    taken = {c["name"]: c["damage_taken"] for c in ok_json("recap")["creatures"]}
    assert taken == {"Aria": 0, "Borin": 0, "Goblin Archer": 2, "Goblin Brute": 2}


def test_the_journal_entry_is_the_json_of_the_change():
    _skirmish()
    printed = ok_json("damage", "Goblin*", "1")
    entry = json.loads(JOURNAL.read_text().splitlines()[-1])
    assert entry["changes"] == printed["changes"] and entry["names"] == printed["names"]


@pytest.mark.parametrize("width", [80, 120])
def test_the_lines_of_a_change_of_several(snapshot, monkeypatch, width):
    _skirmish()
    at_width(monkeypatch, width)
    outputs = [
        run("damage", "Goblin*", "Borin", "2d6+3", "--seed", "5"),
        run("effect", "add", "--side", "party", "inspired", "--adv", "--until-end-of", "Aria"),
        run("conceal", "Goblin ?r*"),
    ]
    assert [out.exit_code for out in outputs] == [0, 0, 0]
    assert "".join(out.stdout for out in outputs) == snapshot
