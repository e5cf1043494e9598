"""`with_later_hiding`: a past state takes every later state's hiding before it is projected (R20)."""

from __future__ import annotations

from d4cli.fight.effects import Effect
from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.players_view import public_view, with_later_hiding


def _goblin(**marks: object) -> Creature:
    return Creature(
        "Goblin",
        (("Might", 2),),
        hp=5,
        max_hp=9,
        side="foes",
        evasion=3,
        evasion_shown=True,
        hp_shown="exact",
        effects=(Effect("torch", "advantage"),),
    )._replace(**marks)


def test_every_later_mark_hides_the_past():
    past = Encounter(creatures=(_goblin(),))
    later = [
        Encounter(creatures=(_goblin(alias="Shadow", hp_shown="label"),)),
        Encounter(creatures=(_goblin(evasion_shown=False, hp_shown="exact"),)),
        Encounter(creatures=(_goblin(effects=(Effect("tоrch", "advantage", public=False),)),)),
    ]
    (shown,) = public_view(with_later_hiding(past, later)).creatures
    assert (shown.name, shown.hp, shown.hp_label, shown.evasion, shown.effects) == (
        "Shadow",
        None,
        "Hurt",
        None,
        (),
    )


def test_concealed_later_is_hidden_and_the_past_numbers_stay():
    past = Encounter(creatures=(_goblin(), Creature("Aria", (("Might", 3),), hp=4)))
    merged = with_later_hiding(past, [Encounter(creatures=(_goblin(hidden=True, hp=0),))])
    assert [creature.name for creature in public_view(merged).creatures] == ["Aria"]
    assert merged.creatures[0].hp == 5


def test_nothing_later_leaves_the_past_as_it_was():
    past = Encounter(creatures=(_goblin(alias="Brute"),))
    assert with_later_hiding(past, []) == past
    assert (
        with_later_hiding(past, [Encounter(creatures=(_goblin(),))]).creatures[0].alias == "Brute"
    )
