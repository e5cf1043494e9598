"""The change that leaves one side alone with creatures up says the fight is over (R18, R21)."""

from __future__ import annotations

from _cli import ok, ok_json

from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.sides import FightEnd, encounter_end, ended_fight


def _c(name: str, side: str, hp: int | None) -> Creature:
    return Creature(name, (("Might", 2),), hp=hp, side=side)


def test_winner_needs_two_sides_and_one_left_up():
    won = encounter_end(Encounter(creatures=(_c("A", "party", 3), _c("G", "foes", 0))))
    assert won == FightEnd("party")
    assert encounter_end(Encounter(creatures=(_c("A", "party", 3), _c("G", "foes", 2)))) is None
    assert (
        encounter_end(Encounter(creatures=(_c("A", "party", 0), _c("B", "party", 0)))) is None
    )  # one side only
    assert encounter_end(
        Encounter(creatures=(_c("A", "party", 0), _c("G", "foes", 0)))
    ) == FightEnd(None)  # nobody up: over, no winner (R21)
    # a creature without hp is never down; one without a side stands aside
    assert encounter_end(
        Encounter(creatures=(_c("A", "party", None), _c("G", "foes", 0), _c("X", "", 0)))
    ) == FightEnd("party")
    three = (_c("A", "party", 3), _c("G", "foes", 0), _c("W", "wolves", 1))
    assert encounter_end(Encounter(creatures=three)) is None
    before = Encounter(creatures=(_c("A", "party", 3), _c("G", "foes", 0)))
    assert ended_fight(before, before) is None  # already over: no new ending


def _skirmish():
    ok("init", "--from", "skirmish")
    ok("damage", "Goblin Archer", "7")


def test_the_act_that_downs_the_last_foe_says_so():
    _skirmish()
    ok("damage", "Goblin Brute", "9")
    obj = ok_json(
        "act", "Borin", "Might", "--target", "Goblin Brute", "--extra", "100d10", "--seed", "1"
    )
    assert obj["hp_after"] == 0 and obj["fight_over"] == {"winner": "party"}
    line = ok("log", "--last", "1").stdout
    assert line.rstrip().endswith("the fight is over, won by party (R21)")
    start = ok_json("turn", "start")
    assert start["fight_over"] == {"winner": "party"} and start["actor"] == "Aria"


def test_the_table_and_short_lines_say_so():
    _skirmish()
    ok("damage", "Goblin Brute", "9")
    table = ok(
        "act",
        "Borin",
        "Might",
        "--target",
        "Goblin Brute",
        "--extra",
        "100d10",
        "--seed",
        "1",
        "--dry-run",
    ).stdout
    assert "The fight is over, won by party (R21)" in table
    short = ok(
        "act",
        "Borin",
        "Might",
        "--target",
        "Goblin Brute",
        "--extra",
        "100d10",
        "--seed",
        "1",
        "--short",
    ).stdout
    assert short.rstrip().endswith("the fight is over, won by party (R21)")


def test_damage_and_remove_end_it_too_and_other_changes_carry_null():
    _skirmish()
    assert ok_json("damage", "Goblin Brute", "3")["fight_over"] is None
    assert ok_json("heal", "Goblin Archer", "1")["fight_over"] is None
    assert ok_json("turn", "start")["fight_over"] is None
    assert ok_json("damage", "Goblin Archer", "5")["fight_over"] is None  # the Brute still stands
    assert ok_json("remove", "Goblin Brute")["fight_over"] == {"winner": "party"}
    ok("undo")
    assert ok_json("damage", "Goblin Brute", "50")["fight_over"] == {"winner": "party"}
    assert ok_json("damage", "Goblin Brute", "1")["fight_over"] is None  # already down: nothing new


def test_a_fight_that_is_over_stays_over_until_a_change_undoes_it():
    _skirmish()
    ok("damage", "Goblin Brute", "10")
    status = ok_json("status")
    assert status["fight_over"] == {"winner": "party"}
    table = ok("status", env={"COLUMNS": "200"}).stdout
    assert "The fight is over, won by party (R21)" in table
    players = ok_json("board", "--players", "--once", "--json")
    assert players["fight_over"] == {"winner": "party"}
    for columns in ("80", "120"):  # a line of its own, never cut at the edge
        frame = ok("board", "--players", "--once", env={"COLUMNS": columns}).stdout
        assert " the fight is over: party wins " in frame.splitlines()
        gm = ok("board", "--once", env={"COLUMNS": columns}).stdout
        assert " the fight is over: party wins " in gm.splitlines()
    # A later change that leaves it over keeps saying so; a heal that brings a foe back ends it.
    ok("damage", "Aria", "1")
    assert ok_json("status")["fight_over"] == {"winner": "party"}
    ok("heal", "Goblin Brute", "2")
    assert ok_json("status")["fight_over"] is None
    assert ok_json("board", "--players", "--once", "--json")["fight_over"] is None
    assert "fight is over" not in ok("status", env={"COLUMNS": "200"}).stdout


def test_the_players_never_learn_of_a_side_left_only_hidden():
    from d4cli.fight.players_view import public_view
    from d4cli.output.page import view_fragment

    hidden = Creature("Shade", (("Might", 2),), hp=3, side="shadows", hidden=True)
    party = _c("Aria", "party", 0)
    over = Encounter(creatures=(party, hidden))
    assert encounter_end(over) == FightEnd("shadows")  # the GM sees it is over
    view = public_view(over)
    assert view.fight_over is None and "shadows" not in repr(view)
    assert "fight is over" not in view_fragment(view).lower()
    shown = public_view(Encounter(creatures=(_c("Aria", "party", 3), _c("G", "foes", 0))))
    assert shown.fight_over == FightEnd("party")
    assert "The fight is over: party wins" in view_fragment(shown)
