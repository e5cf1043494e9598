"""The fight model's changes of several creatures (`d4cli.fight.several`): resolving names,
patterns and sides (N1), and one transition that applies each creature's part in turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from d4cli.api.encounter import Tracker
from d4cli.fight.effect_transitions import make_effect
from d4cli.fight.encounter_state import Encounter, new_creature
from d4cli.fight.hitpoints import damage
from d4cli.fight.several import (
    SeveralEvent,
    conceal_several,
    damage_several,
    effect_several,
    heal_several,
    resolve,
    single,
)
from d4cli.fight.sides import FightEnd
from d4cli.fight.turns import add_creature, start_turn
from d4cli.journal.changes import HpChange, SetChange
from d4cli.journal.entry import read_change
from d4cli.rules.dice import ScriptedDice
from d4cli.rules.errors import InputError


def fight() -> Encounter:
    encounter = Encounter(name="t")
    for name, hp, side in (
        ("Aria", 6, "party"),
        ("Goblin 1", 4, "foes"),
        ("Goblin 2", 4, "foes"),
        ("Goblin 3", 4, "Foes"),
        ("Star*", None, None),
    ):
        creature = new_creature(name, (("Might", 3),), hp=hp)._replace(side=side)
        encounter, _ = add_creature(encounter, creature)
    return start_turn(encounter, None)[0]


def test_names_and_patterns_resolve_in_the_order_given_patterns_in_turn_order():
    encounter = fight()
    assert resolve(encounter, ["goblin 3", "Aria"]) == ("Goblin 3", "Aria")
    assert resolve(encounter, ["GOBLIN [12]"]) == ("Goblin 1", "Goblin 2")
    assert resolve(encounter, ["Goblin ?", "aria"]) == ("Goblin 1", "Goblin 2", "Goblin 3", "Aria")
    assert resolve(encounter, ["star*"]) == ("Star*",)  # a creature's own name is not a pattern
    assert resolve(encounter, [], side="FOES") == ("Goblin 1", "Goblin 2", "Goblin 3")


@pytest.mark.parametrize(
    ("names", "side", "field", "value", "problem"),
    [
        (["Goblin*", "Goblin 2"], None, "names", "Goblin 2", "means Goblin 2 again"),
        (["Aria", "aria"], None, "names", "aria", "means Aria again ('Aria' means it already)"),
        (["Orc*"], None, "names", "Orc*", "matches no creature in the encounter"),
        (["Zed", "Aria"], None, "names", "Zed", "no such creature in the encounter"),
        (["Goblin 1"], "foes", "side", "foes", "means Goblin 1 again"),
        ([], "elves", "side", "elves", "no creature is on that side (sides: Foes, foes, party)"),
        ([], None, "names", None, "missing: give at least one creature"),
    ],
)
def test_bad_names_are_input_errors_naming_the_field(names, side, field, value, problem):
    with pytest.raises(InputError) as caught:
        resolve(fight(), names, side=side)
    assert caught.value.field == field and caught.value.value == value
    assert caught.value.problem.startswith(problem)


def test_single_is_one_name_without_a_pattern_or_a_creatures_own_name():
    encounter = fight()
    assert single(encounter, "Goblin 1") == "Goblin 1"
    assert single(encounter, ["Nobody"]) == "Nobody"  # the one-creature error, as before
    assert single(encounter, ["Star*"]) == "Star*"
    assert single(encounter, ["Goblin*"]) is None
    assert single(encounter, ["Aria", "Goblin 1"]) is None


def test_damage_of_several_applies_each_part_in_turn_and_ends_the_fight_once():
    encounter = fight()
    new, event = damage_several(encounter, ["Goblin*"], 4)
    assert isinstance(event, SeveralEvent) and event.kind == "damage"
    assert event.names == ("Goblin 1", "Goblin 2", "Goblin 3")
    assert [part.hp_after for part in event.changes] == [0, 0, 0]
    assert [part.fight_over for part in event.changes] == [None, None, None]
    assert event.fight_over == FightEnd("party")
    # the same as three one-creature changes in a row
    step = encounter
    for name in event.names:
        step = damage(step, name, 4)[0]
    assert new == step


def test_heal_of_several_is_all_or_nothing():
    encounter = fight()
    with pytest.raises(InputError) as caught:
        heal_several(encounter, ["Aria", "Star*"], 1)  # Star* has no hp (R16)
    assert caught.value.value == "Star*"
    new, event = heal_several(damage(encounter, "Aria", 3)[0], ["Aria", "Goblin 1"], 2)
    assert [(p.actor, p.hp_after) for p in event.changes] == [("Aria", 5), ("Goblin 1", 4)]


def test_an_effect_on_a_side_has_one_timing_and_a_clash_refuses_all():
    encounter = fight()
    effect = make_effect(encounter, "slowed", "disadvantage", end_of="aria")
    new, event = effect_several(encounter, [], effect, side="foes")
    assert event.names == ("Goblin 1", "Goblin 2", "Goblin 3")
    assert all(part.effect.creature == "Aria" for part in event.changes)
    other = make_effect(encounter, "slowed", "advantage")
    with pytest.raises(InputError) as caught:
        effect_several(new, ["Aria", "Goblin 1"], other)
    assert "Goblin 1 already has 'slowed' (disadvantage)" in caught.value.problem


def test_conceal_of_the_current_creature_keeps_its_turn():
    encounter = fight()
    new, event = conceal_several(encounter, ["*"])
    assert new.current == "Aria" and all(c.hidden for c in new.creatures)
    assert len(event.changes) == 5


def test_parts_of_an_entry_read_typed():
    several = read_change({"kind": "damage", "changes": [{"kind": "damage", "actor": "A"}]})
    assert [(part.kind, part.actor) for part in several.parts] == [("damage", "A")]
    assert isinstance(several.parts[0], HpChange) and several.creatures == ("A",)
    one_set = read_change({"kind": "set", "actor": "A", "changes": [{"field": "hp"}]})
    assert one_set.parts == (one_set,) and isinstance(one_set, SetChange)
    assert [change.field for change in one_set.changes] == ["hp"]


def test_the_tracker_takes_a_name_or_several_one_entry_one_undo(tmp_path: Path):
    path = tmp_path / "encounter.toml"
    tracker = Tracker.init(path, template="skirmish", rng=ScriptedDice([5, 2]))
    before = path.read_bytes()
    one = tracker.damage("Goblin Archer", 2)
    assert one.record.kind == "damage" and one.record.hp_after == 5
    many = tracker.damage(["Goblin*", "Aria"], "2d6")
    assert isinstance(many.record, SeveralEvent)
    assert many.record.roll is not None and many.record.roll.total == 7
    assert [p.amount for p in many.record.changes] == [7, 7, 7]
    assert len(tracker.history().entries) == 3  # init, the two changes
    tracker.undo()
    tracker.undo()
    assert path.read_bytes() == before
