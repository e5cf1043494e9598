"""`d4cli.api.balance`: each value's encounter is the one `apply_balance` writes, and the search
plays every value with the same seed."""

from __future__ import annotations

import pytest

from d4cli.api import InputError
from d4cli.api.balance import apply_balance, balance, checked_vary, value_encounter
from d4cli.api.encounter import Tracker
from d4cli.sim.balance_search import Vary


@pytest.fixture
def ambush(tmp_path):
    return Tracker.init(tmp_path / "ambush.toml", template="ambush")


def test_an_unhurt_creatures_hp_and_max_hp_move_together_a_hurt_ones_do_not(ambush):
    encounter = ambush.status()
    chief = value_encounter(encounter, Vary("Goblin Chief", "hp", 5, 40), 30).find("Goblin Chief")
    assert (chief.hp, chief.max_hp) == (30, 30)
    ambush.set("Goblin Chief", {"hp": 10})
    hurt = value_encounter(ambush.status(), Vary("Goblin Chief", "hp", 5, 16), 12)
    assert (hurt.find("Goblin Chief").hp, hurt.find("Goblin Chief").max_hp) == (12, 16)
    with pytest.raises(InputError, match="hp"):
        value_encounter(ambush.status(), Vary("Goblin Chief", "hp", 5, 40), 40)


def test_a_count_adds_numbered_copies_of_the_sheet_and_one_is_the_encounter(ambush):
    encounter = ambush.status()
    vary = Vary("Goblin Archer", "count", 1, 4)
    assert value_encounter(encounter, vary, 1) == encounter
    three = value_encounter(encounter, vary, 3)
    names = [c.name for c in three.creatures]
    assert names[-2:] == ["Goblin Archer 1", "Goblin Archer 2"]
    copy = three.find("Goblin Archer 2")
    assert copy.aspects == encounter.find("Goblin Archer").aspects and copy.side == "goblins"


def test_exhaustion_and_an_aspect_are_set_as_exhaust_and_set_do(ambush):
    encounter = ambush.status()
    tired = value_encounter(encounter, Vary("Borin", "exhaustion", 0, 3), 2).find("Borin")
    assert tired.exhaustion == 2
    vary = checked_vary(encounter, Vary("borin", "aspect.might", 1, 9))
    assert vary.field == "aspect.Might" and vary.creature == "Borin"
    strong = value_encounter(encounter, vary, 7).find("Borin")
    assert dict(strong.aspects)["Might"] == 7


def test_the_chance_at_each_value_is_the_same_whatever_the_range(ambush):
    """Common random numbers: a value meets the same dice in any search that plays it."""
    encounter = ambush.status()
    wide = balance(encounter, Vary("Goblin Chief", "hp", 5, 40), "party", 0.6, runs=40, seed=3)
    narrow = balance(encounter, Vary("Goblin Chief", "hp", 10, 20), "party", 0.6, runs=40, seed=3)
    wide_points = {point.value: point for point in wide.search.points}
    narrow_points = {point.value: point for point in narrow.search.points}
    shared = wide_points.keys() & narrow_points.keys()
    assert shared
    assert all(wide_points[value] == narrow_points[value] for value in shared)


def test_apply_is_one_journaled_change_and_undo_takes_it_back(ambush):
    before = ambush.path.read_bytes()
    change = apply_balance(ambush, Vary("Goblin Chief", "hp", 5, 40), 12)
    assert change is not None and change.written
    assert ambush.status().find("Goblin Chief").max_hp == 12
    assert [e["kind"] for e in ambush.history().entries] == ["init", "set"]
    ambush.undo()
    assert ambush.path.read_bytes() == before
    assert apply_balance(ambush, Vary("Goblin Chief", "count", 1, 3), 1) is None
    assert ambush.path.read_bytes() == before


def test_every_value_reported_as_it_is_played(ambush):
    seen = []
    found = balance(
        ambush.status(),
        Vary("Goblin Chief", "hp", 8, 12),
        "party",
        0.5,
        runs=30,
        seed=1,
        on_value=lambda point, played, most: seen.append((point.value, played, most)),
    )
    assert [value for value, _, _ in seen] == [8, 12, *[v for v, _, _ in seen[2:]]]
    assert [played for _, played, _ in seen] == list(range(1, len(seen) + 1))
    assert {most for _, _, most in seen} == {5}
    assert sorted(value for value, _, _ in seen) == [p.value for p in found.search.points]
