"""The end of a fight (R21): one reading, from the pure rule to every command that answers it."""

from __future__ import annotations

from _cli import ok, ok_json

from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.sides import FightEnd, encounter_end, ended_fight, fight_end


def _c(name: str, side: str | None, hp: int | None) -> Creature:
    return Creature(name, (("Might", 2),), hp=hp, side=side)


def _end(*creatures: Creature) -> FightEnd[str] | None:
    return encounter_end(Encounter(creatures=creatures))


def test_one_side_left_up_wins_and_two_sides_up_go_on():
    assert fight_end([("party", True), ("foes", False)]) == FightEnd("party")
    assert fight_end([("party", False), ("foes", True), ("foes", False)]) == FightEnd("foes")
    assert fight_end([("party", True), ("foes", True)]) is None
    assert fight_end([(0, False), (1, True), (2, True)]) is None  # three sides, two up
    assert fight_end([(0, False), (1, True), (2, False)]) == FightEnd(1)


def test_everyone_down_is_over_with_no_winner():
    assert fight_end([("party", False), ("foes", False)]) == FightEnd(None)
    assert _end(_c("Aria", "party", 0), _c("Gob", "foes", 0)) == FightEnd(None)
    # A creature without a side stands aside: its being up does not keep the fight going.
    assert _end(_c("Aria", "party", 0), _c("Gob", "foes", 0), _c("Cat", None, 4)) == FightEnd(None)


def test_fewer_than_two_sides_is_no_fight_to_end():
    assert fight_end([]) is None
    assert fight_end([("party", False), ("party", False)]) is None
    assert fight_end([(None, False), ("party", True)]) is None
    assert _end(_c("Aria", "party", 0), _c("Cat", None, 0)) is None


def test_a_side_without_hp_is_never_beaten():
    no_hp_party = (_c("Aria", "party", None), _c("Borin", "party", None))
    assert _end(*no_hp_party, _c("Gob", "foes", 5)) is None  # both sides stand
    assert _end(*no_hp_party, _c("Gob", "foes", 0)) == FightEnd("party")
    # Mixed: the party's hp creatures are down, the one without hp still stands.
    assert _end(_c("Aria", "party", 0), _c("Ghost", "party", None), _c("Gob", "foes", 3)) is None


def test_a_change_reports_a_new_ending_only():
    going = Encounter(creatures=(_c("Aria", "party", 2), _c("Gob", "foes", 1)))
    won = going._replace(creatures=(_c("Aria", "party", 2), _c("Gob", "foes", 0)))
    nobody = going._replace(creatures=(_c("Aria", "party", 0), _c("Gob", "foes", 0)))
    assert ended_fight(going, won) == FightEnd("party")
    assert ended_fight(won, won) is None  # already over that way: no new ending
    assert ended_fight(won, nobody) == FightEnd(None)  # the winners fell too: everyone is down
    assert ended_fight(going, nobody) == FightEnd(None)
    assert ended_fight(won, going) is None  # a heal reopens it: nothing ended


def _two(party_hp: str | None) -> None:
    ok("init")
    ok(
        "add",
        "Aria",
        "--aspect",
        "Might=3",
        "--side",
        "party",
        *(["--hp", party_hp] if party_hp else []),
    )
    ok(
        "add",
        "Borin",
        "--aspect",
        "Might=3",
        "--side",
        "party",
        *(["--hp", party_hp] if party_hp else []),
    )
    ok("add", "Goblin", "--aspect", "Might=2", "--hp", "3", "--side", "foes")


def test_a_party_without_hp_status_and_recap_agree():
    _two(None)
    # The foes are up and the party can never be beaten: the fight goes on, for both.
    assert ok_json("status")["fight_over"] is None
    assert ok_json("recap", "--runs", "0")["winner"] is None
    ok("damage", "Goblin", "3")
    assert ok_json("status")["fight_over"] == {"winner": "party"}
    assert ok_json("recap", "--runs", "0")["winner"] == "party"


def test_everyone_down_the_change_status_recap_and_boards_say_no_winner():
    _two("2")
    assert ok_json("damage", "Aria", "Borin", "2")["fight_over"] == {"winner": "foes"}
    # The last creature up falls: a new ending, with no winner.
    taken = ok_json("damage", "Goblin", "3")
    assert taken["hp_after"] == 0 and taken["fight_over"] == {"winner": None}
    assert ok_json("status")["fight_over"] == {"winner": None}
    assert ok_json("recap", "--runs", "0")["winner"] is None
    assert ok_json("board", "--players", "--once", "--json")["fight_over"] == {"winner": None}
    frame = ok("board", "--once", env={"COLUMNS": "100"}).stdout
    assert " the fight is over: everyone is down " in frame.splitlines()
    line = ok("log", "--last", "1").stdout
    assert line.rstrip().endswith("the fight is over: everyone is down (R21)")
    forecast = ok_json("forecast", "--runs", "10")
    assert forecast["fight_over"] == {"winner": None} and forecast["runs"] == 0


def test_damage_of_everyone_at_once_ends_it_with_no_winner():
    _two("2")
    several = ok_json("damage", "Aria", "Borin", "Goblin", "5")
    assert several["fight_over"] == {"winner": None}
    assert [part["fight_over"] for part in several["changes"]] == [None, None, None]


def test_a_heal_or_an_undo_that_brings_a_creature_back_reopens_the_fight():
    _two("2")
    ok("damage", "Aria", "Borin", "Goblin", "5")
    ok("heal", "Aria", "1")  # one side up again: over, now won by the party
    assert ok_json("status")["fight_over"] == {"winner": "party"}
    ok("heal", "Goblin", "1")  # both sides up: it goes on
    assert ok_json("status")["fight_over"] is None
    assert ok_json("recap", "--runs", "0")["winner"] is None
    ok("undo")
    assert ok_json("status")["fight_over"] == {"winner": "party"}
    ok("undo")
    assert ok_json("status")["fight_over"] == {"winner": None}
    ok("undo")  # the damage to all three undone: nobody is down
    assert ok_json("status")["fight_over"] is None
    assert ok_json("board", "--players", "--once", "--json")["fight_over"] is None
