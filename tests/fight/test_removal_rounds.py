"""Removing a creature mid-round, pure: the round stays open until a turn start finds nobody
left (R19), the next turn goes to the removed creature's follower (R17), effects timed to a
removed creature's turn end with the removal (R20), and an added creature starts at its reset
value (R15, R12)."""

from __future__ import annotations

import pytest

from d4cli.fight.effect_transitions import add_effect, make_effect
from d4cli.fight.effects import REMOVED, ROUND_END, TURN_REMOVED
from d4cli.fight.encounter_state import Encounter, new_creature
from d4cli.fight.hitpoints import damage, heal
from d4cli.fight.turns import add_creature, end_turn, move_creature, remove_creature, start_turn
from d4cli.fileformat.encounter_toml import dump_encounter, parse_encounter
from d4cli.journal.effect_facts import end_reason
from d4cli.rules.errors import FileError


def trio(*names: str, mode: str = "turn", round_reset: str = "buffer") -> Encounter:
    """Creatures of Might 3 and hp 5, in the order given (A, B, C by default)."""
    encounter = Encounter(name="t", mode=mode, round_reset=round_reset)
    for name in names or ("A", "B", "C"):
        encounter, _ = add_creature(encounter, new_creature(name, (("Might", 3),), hp=5))
    return encounter


def newcomer(name: str = "D"):
    return new_creature(name, (("Might", 2),), hp=4)


def a_and_b_done() -> Encounter:
    """Round 1: A's and B's turns are over, no turn runs; C is the last still to act."""
    encounter, _ = start_turn(trio())
    encounter, _ = start_turn(encounter)
    encounter, _ = end_turn(encounter)
    return encounter


def reread(encounter: Encounter) -> Encounter:
    """The encounter as its file reads back (what every next command sees)."""
    return parse_encounter(dump_encounter(encounter), "t.toml")


# --- a. R19: removing or downing the last creature still to act leaves the round open ------------


@pytest.mark.parametrize("how", ["remove", "damage"])
def test_r19_a_creature_added_after_the_last_to_act_left_has_its_turn_in_that_round(how):
    encounter = a_and_b_done()
    if how == "remove":
        encounter, event = remove_creature(encounter, "C")
        assert event.next is None and event.round_open is True
    else:
        encounter, _ = damage(encounter, "C", 5)
    assert encounter.round_over is False  # remove and damage agree (R19)
    encounter = reread(encounter)
    encounter, added = add_creature(encounter, newcomer())
    assert (encounter.find("D").had_turn, added.next) == (False, "D")
    encounter, started = start_turn(encounter)
    assert (started.round, started.actor, started.new_round) == (1, "D", False)
    encounter, started = start_turn(encounter)
    assert (started.round, started.actor, started.new_round) == (2, "A", True)


def test_r19_removing_the_current_creature_that_is_last_to_act_keeps_the_round_open():
    encounter, _ = start_turn(a_and_b_done())  # C's turn
    encounter, event = remove_creature(encounter, "C")
    assert (event.ended_turn, event.next, event.round_open) == (True, None, True)
    assert encounter.round_over is False and encounter.current is None
    encounter, _ = add_creature(reread(encounter), newcomer())
    encounter, started = start_turn(encounter)
    assert (started.round, started.actor) == (1, "D")


def test_r19_a_down_creature_healed_after_the_last_to_act_was_removed_has_its_turn_in_that_round():
    encounter, _ = damage(trio("A", "B", "C", "D"), "C", 5)  # C down before its turn
    encounter, _ = start_turn(encounter)
    encounter, _ = start_turn(encounter)
    encounter, _ = end_turn(encounter)  # A and B done; D is the last to act
    encounter, _ = remove_creature(encounter, "D")
    encounter, healed = heal(reread(encounter), "C", 3)
    assert healed.next_round is False and encounter.next_turn == "C"
    encounter, started = start_turn(encounter)
    assert (started.round, started.actor) == (1, "C")


def test_r19_nobody_left_then_the_turn_start_begins_the_next_round():
    encounter, _ = remove_creature(a_and_b_done(), "C")
    encounter, started = start_turn(reread(encounter))
    assert (started.round, started.actor, started.new_round) == (2, "A", True)
    assert encounter.round_open is False
    assert [c.had_turn for c in encounter.creatures] == [True, False]


def test_r19_after_the_last_turn_end_a_removal_keeps_the_round_open():
    encounter, _ = start_turn(a_and_b_done())  # C's turn
    encounter, ended = end_turn(encounter)
    assert ended.round_over is True and encounter.round_over is False  # R19: it closes nothing
    assert encounter.round_open is True and encounter.next_turn is None
    encounter, _ = remove_creature(encounter, "B")
    assert encounter.round_open is True
    encounter, _ = add_creature(encounter, newcomer())
    assert encounter.find("D").had_turn is False  # its turn is in round 1
    encounter, started = start_turn(encounter)
    assert (started.round, started.actor) == (1, "D")


# --- b. R20: effects timed to a removed creature's turn end with its removal ------------------------


def with_effects_on_c(encounter: Encounter) -> Encounter:
    for holder, source, grant, timing in (
        ("A", "marked", "disadvantage", {"start_of": "C"}),
        ("B", "guarded", "advantage", {"end_of": "C"}),
        ("C", "rage", "advantage", {}),
        ("A", "blessed", "advantage", {"rounds": 1}),
    ):
        encounter, _ = add_effect(
            encounter, holder, make_effect(encounter, source, grant, **timing)
        )
    return encounter


def test_r20_removing_the_current_last_creature_ends_the_effects_timed_to_its_turn_and_says_so():
    encounter, started = start_turn(with_effects_on_c(a_and_b_done()))  # C's, the last of round 1
    assert [g.effect.source for g in started.effects_ended] == ["marked"]  # the start of C's turn
    encounter, event = remove_creature(encounter, "C")
    assert [(g.creature, g.effect.source, g.why, end_reason(g)) for g in event.effects_ended] == [
        ("C", "rage", REMOVED, "C removed"),
        ("B", "guarded", TURN_REMOVED, "C removed, and its turn with it (R17)"),
    ]
    assert [e.source for e in encounter.find("A").effects] == ["blessed"]
    assert encounter.find("B").effects == ()
    # The round is still open: its own endings come with the turn start that begins round 2.
    encounter, started = start_turn(encounter)
    assert [(g.effect.source, g.why, g.round) for g in started.effects_ended] == [
        ("blessed", ROUND_END, 1)
    ]


def test_r20_removing_a_creature_yet_to_act_ends_the_effects_on_others_timed_to_its_turn():
    encounter = with_effects_on_c(trio())
    encounter, _ = start_turn(encounter)  # A's turn; C has not had its turn
    encounter, event = remove_creature(encounter, "C")
    assert [(g.creature, g.effect.source, g.why) for g in event.effects_ended] == [
        ("C", "rage", REMOVED),
        ("A", "marked", TURN_REMOVED),
        ("B", "guarded", TURN_REMOVED),
    ]
    assert (encounter.current, encounter.next_turn) == ("A", "B")


def test_r20_effects_timed_to_other_creatures_stay_when_one_is_removed():
    encounter = trio()
    encounter, _ = add_effect(
        encounter, "A", make_effect(encounter, "marked", "disadvantage", start_of="B")
    )
    encounter, event = remove_creature(encounter, "C")
    assert event.effects_ended == ()
    assert encounter.find("A").effects[0].creature == "B"


# --- c. R17: the next turn goes to the follower of the creature whose turn ran last ---------------


def b_ran_last_and_left() -> Encounter:
    """A B C D: A's and B's turns ran, then B was removed; C followed it."""
    encounter, _ = start_turn(trio("A", "B", "C", "D"))
    encounter, _ = start_turn(encounter)
    encounter, _ = end_turn(encounter)
    encounter, _ = remove_creature(encounter, "B")
    return reread(encounter)


def test_r17_the_next_turn_after_removing_the_one_that_ran_last_goes_to_its_follower():
    encounter = b_ran_last_and_left()
    assert encounter.next_turn == "C"
    _, started = start_turn(encounter)
    assert (started.actor, started.out_of_order, started.round) == ("C", False, 1)


def test_r17_adding_a_creature_after_its_predecessor_keeps_the_follower_next():
    encounter, added = add_creature(b_ran_last_and_left(), newcomer("E"), after="A")
    assert [c.name for c in encounter.creatures] == ["A", "E", "C", "D"]
    assert added.next == "C"
    encounter, started = start_turn(reread(encounter))
    assert (started.actor, started.out_of_order) == ("C", False)
    encounter, started = start_turn(encounter)
    assert started.actor == "D"
    encounter, started = start_turn(encounter)
    assert (started.actor, started.round) == ("E", 1)  # wrapping round: E has its turn too (R19)


@pytest.mark.parametrize(
    ("place", "other", "order"),
    [
        ("before", "A", ["C", "A", "D"]),
        ("last", None, ["A", "D", "C"]),
    ],
)
def test_r17_moving_creatures_keeps_the_follower_next(place, other, order):
    encounter, moved = move_creature(b_ran_last_and_left(), "C", place, other)
    assert [c.name for c in encounter.creatures] == order
    assert moved.next == "C"
    _, started = start_turn(reread(encounter))
    assert started.actor == "C"


def test_r17_removing_the_follower_too_goes_on_with_its_follower():
    encounter, event = remove_creature(b_ran_last_and_left(), "C")
    assert event.next == "D"
    encounter, _ = add_creature(reread(encounter), newcomer("E"), after="A")
    assert encounter.next_turn == "D"


def test_r17_removing_the_current_creature_then_adding_before_its_follower():
    encounter, _ = start_turn(trio("A", "B", "C", "D"))
    encounter, _ = start_turn(encounter)  # B's turn
    encounter, _ = remove_creature(encounter, "B")
    encounter, _ = add_creature(reread(encounter), newcomer("E"), before="C")
    assert [c.name for c in encounter.creatures] == ["A", "E", "C", "D"]
    assert encounter.next_turn == "C"


# --- d. R15: an added creature starts at its reset value --------------------------------------------


@pytest.mark.parametrize(
    ("mode", "round_reset", "load"),
    [("round", "zero", 0), ("round", "buffer", -2), ("turn", "buffer", -2)],
)
def test_r15_an_added_creature_starts_at_its_reset_value(mode, round_reset, load):
    encounter = Encounter(name="t", mode=mode, round_reset=round_reset)
    encounter, added = add_creature(encounter, new_creature("A", (("Might", 3),), load_buffer=2))
    assert (added.load_after, encounter.find("A").load) == (load, load)
    assert encounter.reset_to(encounter.find("A")) == load


def test_r15_r12_an_added_creature_in_round_zero_mode_starts_at_0_with_exhaustion_too():
    encounter, _ = start_turn(trio(mode="round", round_reset="zero"))
    sheet = new_creature("D", (("Might", 2),), load_buffer=1, exhaustion=3)
    encounter, added = add_creature(encounter, sheet)
    assert (added.load_after, added.exhaustion) == (0, 3)


# --- the file keeps the turn state of a removal (R17, R19) -------------------------------------------


def test_the_file_keeps_resume_at_and_round_open_and_refuses_bad_ones():
    encounter, _ = remove_creature(a_and_b_done(), "B")  # B ran last: C follows it
    encounter, _ = remove_creature(encounter, "C")  # C was the last to act: the round runs on
    text = dump_encounter(encounter)
    assert 'resume_at = "A"' in text and "round_open = true" in text and "last_turn" not in text
    assert reread(encounter) == encounter
    for old, new, problem in (
        ('resume_at = "A"', 'resume_at = "Z"', "resume_at: 'Z': names no creature"),
        ('resume_at = "A"', 'resume_at = "A"\nlast_turn = "A"', "resume_at: 'A': is for when"),
        ("round_open = true", 'round_open = "yes"', "round_open: 'yes': must be true or false"),
        ("round = 1", "round = 0", "round: 0: is 0 (not started), so 'resume_at' must be empty"),
    ):
        with pytest.raises(FileError) as caught:
            parse_encounter(text.replace(old, new), "t.toml")
        assert problem in str(caught.value)
