"""``damage NAME 2d6+1`` and ``heal NAME 1d8``: the amount rolled, seeded, explained and logged.

conftest's autouse fixture points D4CLI_FILE at a temp folder and chdirs there.
"""

from __future__ import annotations

import random
from pathlib import Path

from _cli import fails, ok, ok_json

from d4cli.api.encounter import Tracker

FILE = Path("encounter.toml")


def _dice(seed: int, *sides: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randint(1, face) for face in sides]


def test_damage_rolls_its_dice_with_the_seed_and_says_what_they_showed():
    ok("init", "--from", "skirmish")
    first, second = _dice(7, 6, 6)
    line = ok("damage", "Goblin Archer", "2d6+1", "--seed", "7").stdout
    total = first + second + 1
    after = max(0, 7 - total)
    said = (
        f"Goblin Archer takes {total} (2d6+1: {first} {second} +1 = {total}): HP 7 -> {after} of 7"
    )
    assert line.startswith(said + " (")
    entry = ok_json("log", "--last", "1")["entries"][0]
    assert entry["kind"] == "damage" and entry["amount"] == total
    assert entry["roll"]["expression"] == "2d6+1"
    assert entry["roll"]["terms"] == [{"notation": "2d6+1", "dice": [first, second], "modifier": 1}]
    assert entry["hp_after"] == max(0, 7 - total)


def test_heal_rolls_too_and_its_json_carries_the_roll():
    ok("init", "--from", "skirmish")
    ok("damage", "Borin", "10")
    (die,) = _dice(3, 8)
    healed = ok_json("heal", "Borin", "1d8", "--seed", "3")
    assert healed["amount"] == die and healed["hp_after"] == 6 + die
    assert healed["roll"] == {
        "kind": "dice",
        "expression": "1d8",
        "terms": [{"notation": "1d8", "dice": [die], "modifier": 0}],
        "total": die,
        "dice_count": 1,
    }
    assert ok_json("damage", "Borin", "2")["roll"] is None  # a number given: nothing rolled


def test_a_roll_below_zero_takes_nothing_off_and_is_still_logged():
    ok("init", "--from", "skirmish")
    (die,) = _dice(3, 4)
    line = ok("damage", "Aria", "1d4-10", "--seed", "3").stdout
    assert (
        line
        == f"Aria takes 0 (1d4-10: {die} -10 = {die - 10}; below 0 takes nothing): HP 12 -> 12 of 12 (R16)\n"
    )
    assert [e["kind"] for e in ok_json("log")["entries"]] == ["init", "damage"]


def test_bad_dice_are_bad_input_and_change_nothing():
    ok("init", "--from", "skirmish")
    ok("damage", "Aria", "1")
    assert "N: '2dx': must be dice like 1d8" in fails(2, FILE, "damage", "Aria", "2dx")
    assert "N: '0d6': " in fails(2, FILE, "heal", "Aria", "0d6")
    assert "N: '2.5': must be a whole number" in fails(2, FILE, "damage", "Aria", "2.5")


def test_the_library_rolls_with_the_trackers_dice(tmp_path: Path):
    path = tmp_path / "fight.toml"
    Tracker.init(path, template="skirmish")
    tracker = Tracker(path, rng=random.Random(11))
    change = tracker.damage("Goblin Brute", "1d6+2")
    (die,) = _dice(11, 6)
    assert change.record.amount == die + 2 and change.record.roll.total == die + 2
    assert change.record.hp_after == 10 - (die + 2)
