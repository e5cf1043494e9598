"""The last turn end closes nothing (R19); effects timed to a down creature's turn last until it is back (R20);
a Team Action named as an existing lasting effect (R4, R11); no level on an ``against`` effect (C8)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _cli import fails, files, ok, ok_json

from d4cli.fight.effect_transitions import end_removed, make_effect
from d4cli.fight.effects import Effect, RoundEnd, ends_at
from d4cli.fight.encounter_state import Encounter, new_creature
from d4cli.fight.hitpoints import damage, heal
from d4cli.fight.turns import add_creature, end_turn, start_turn
from d4cli.fileformat.encounter_toml import dump_encounter, parse_encounter
from d4cli.rules.errors import FileError

BRUTE = "Goblin Brute"


@pytest.fixture
def skirmish(isolated_env) -> Path:
    """The bundled skirmish (Aria, Borin, Goblin Archer, Goblin Brute with hp 10), round 1 running: Aria's turn."""
    ok("init", "--from", "skirmish")
    ok("turn", "start")
    return Path(os.environ["D4CLI_FILE"])


def _had_turn() -> dict[str, bool]:
    return {c["name"]: c["had_turn"] for c in ok_json("status")["creatures"]}


def _ended(record: dict) -> list[tuple[str, str, str]]:
    return [(e["creature"], e["source"], e["reason"]) for e in record["effects_ended"]]


# --- R19: the last turn end closes nothing -------------------------------------------


def test_r19_a_creature_healed_after_the_last_turn_end_has_its_turn_in_that_round(skirmish):
    """R19 as amended: the last turn end closes nothing; a creature healed before the next
    turn start has its turn in the running round, and effects timed to it last till then (R20)."""
    ok("damage", BRUTE, "10")
    ok("effect", "add", BRUTE, "rage", "--adv", "--rounds", "1")
    ok("effect", "add", "Aria", "marked", "--dis", "--until-end-of", BRUTE)
    ok("turn", "start")
    ok("turn", "start")
    ended = ok_json("turn", "end")
    assert (ended["round"], ended["next"], ended["round_over"]) == (1, None, True)
    assert _ended(ended) == []
    assert _had_turn() == {"Aria": True, "Borin": True, "Goblin Archer": True, BRUTE: False}
    healed = ok_json("heal", BRUTE, "5")
    assert (healed["hp_after"], healed["down_after"], healed["next_round"]) == (5, False, False)
    assert ok_json("status")["next"] == BRUTE
    started = ok_json("turn", "start")
    assert (started["round"], started["new_round"], started["actor"]) == (1, False, BRUTE)
    assert _ended(ok_json("turn", "end")) == [("Aria", "marked", "end of Goblin Brute's turn")]
    started = ok_json("turn", "start")
    assert (started["round"], started["actor"]) == (2, "Aria")
    assert _ended(started) == [(BRUTE, "rage", "end of round 1")]


def test_r19_a_creature_healed_before_the_round_ends_has_its_turn_in_it(skirmish):
    ok("damage", BRUTE, "10")
    ok("turn", "start")
    ok("turn", "start")  # the Archer's turn: the Brute's turn is not over yet
    assert ok_json("heal", BRUTE, "5")["next_round"] is False
    assert ok("heal", BRUTE, "1").stdout.strip() == "Goblin Brute heals 1: HP 5 -> 6 of 10 (R18)"
    ended = ok_json("turn", "end")
    assert (ended["next"], ended["round_over"]) == (BRUTE, False)
    started = ok_json("turn", "start")
    assert (started["round"], started["actor"], started["new_round"], started["again"]) == (
        1,
        BRUTE,
        False,
        False,
    )
    assert ok_json("turn", "end")["round_over"] is True


def test_r19_damage_between_turns_that_leaves_nobody_to_go_closes_the_round_at_the_next_turn_start(
    skirmish,
):
    ok("turn", "start")
    ok("turn", "start")
    assert ok_json("turn", "end")["next"] == BRUTE
    ok("effect", "add", "Aria", "rage", "--adv", "--rounds", "1")
    ok("damage", BRUTE, "10")  # nobody left to go, but no turn end has ended the round yet
    assert _had_turn()[BRUTE] is False and ok_json("status")["next"] is None
    started = ok_json("turn", "start")
    assert (started["round"], started["new_round"], started["actor"]) == (2, True, "Aria")
    assert _ended(started) == [("Aria", "rage", "end of round 1")]


def test_r19_damage_between_turns_then_a_heal_before_the_next_turn_start_keeps_its_turn(skirmish):
    ok("turn", "start")
    ok("turn", "start")
    ok("turn", "end")
    ok("damage", BRUTE, "10")
    ok("heal", BRUTE, "3")
    assert ok_json("status")["next"] == BRUTE
    started = ok_json("turn", "start")
    assert (started["round"], started["actor"]) == (1, BRUTE)


def test_r19_a_creature_added_after_the_last_turn_end_has_its_turn_in_that_round(skirmish):
    ok("turn", "start")
    ok("turn", "start")
    ok("turn", "start")
    assert ok_json("turn", "end")["round_over"] is True
    added = ok_json("add", "Scout", "--aspect", "Wits=2")
    assert added["next"] == "Scout"
    assert _had_turn()["Scout"] is False
    started = ok_json("turn", "start")
    assert (started["round"], started["actor"]) == (1, "Scout")
    actors = [ok_json("turn", "start")["actor"] for _ in range(5)]
    assert actors == ["Aria", "Borin", "Goblin Archer", BRUTE, "Scout"]


def test_r19_a_creature_added_during_a_round_still_has_its_turn_in_it(skirmish):
    ok("add", "Scout", "--aspect", "Wits=2")
    assert _had_turn()["Scout"] is False
    actors = [ok_json("turn", "start")["actor"] for _ in range(4)]
    assert actors == ["Borin", "Goblin Archer", BRUTE, "Scout"]
    assert ok_json("turn", "end")["round_over"] is True


def _three() -> Encounter:
    encounter = Encounter(name="t")
    for name, hp in (("Aria", None), ("Bram", 4), ("Cora", None)):
        encounter, _ = add_creature(encounter, new_creature(name, (("Might", 2),), hp=hp))
    return encounter


def test_r19_end_turn_marks_no_skipped_creature_as_having_had_its_turn():
    encounter, _ = start_turn(_three())  # Aria
    encounter, _ = damage(encounter, "Bram", 4)
    encounter, _ = start_turn(encounter)  # Cora: Bram skipped
    encounter, event = end_turn(encounter)
    assert event.round_over and [c.had_turn for c in encounter.creatures] == [True, False, True]
    encounter, _ = heal(encounter, "Bram", 2)
    assert encounter.next_turn == "Bram"
    encounter, started = start_turn(encounter)
    assert (started.round, started.actor, started.new_round) == (1, "Bram", False)


def test_r19_end_turn_changes_nothing_else_when_nobody_is_down():
    encounter = _three()
    for _ in range(3):
        encounter, _ = start_turn(encounter)
    before = encounter
    encounter, event = end_turn(encounter)
    assert event.round_over
    assert (
        encounter.creatures == before.creatures
        and encounter.last_turn == "Cora"
        and encounter.current is None
    )


# --- R20: an effect timed to a down creature's turn, added after the round is over ----------------------


def _round_one_over_with_the_brute_down() -> None:
    ok("damage", BRUTE, "10")
    ok("turn", "start")
    ok("turn", "start")
    assert ok_json("turn", "end")["round_over"] is True


def test_r20_an_effect_timed_to_a_down_creature_lasts_through_the_rounds_it_misses(skirmish):
    _round_one_over_with_the_brute_down()
    ok("effect", "add", "Aria", "marked", "--dis", "--until-end-of", BRUTE)
    ok("effect", "add", "Aria", "hexed", "--dis", "--until-start-of", BRUTE)
    started = ok_json("turn", "start")
    assert (started["round"], started["effects_ended"]) == (2, [])
    rolled = ok_json("act", "Aria", "Might", "--seed", "1", "--dry-run")
    assert rolled["net_advantage"] == -2
    ok("turn", "start")
    ok("turn", "start")
    ended = ok_json("turn", "end")
    assert ended["round_over"] is True and _ended(ended) == []
    assert _ended(ok_json("turn", "start")) == []  # round 3: the Brute is still down
    assert [e["source"] for e in ok_json("status")["creatures"][0]["effects"]] == [
        "marked",
        "hexed",
    ]


def test_r20_an_effect_added_after_the_last_turn_end_ends_at_the_turn_of_the_healed_creature(
    skirmish,
):
    _round_one_over_with_the_brute_down()
    ok("effect", "add", "Aria", "marked", "--dis", "--until-end-of", BRUTE)
    ok("heal", BRUTE, "5")
    started = ok_json("turn", "start")
    assert (started["round"], started["actor"], started["effects_ended"]) == (1, BRUTE, [])
    assert _ended(ok_json("turn", "end")) == [("Aria", "marked", "end of Goblin Brute's turn")]


def test_r19_r20_damage_that_leaves_nobody_to_go_leaves_the_round_running_for_every_command(
    skirmish,
):
    ok("turn", "start")
    ok("turn", "start")
    ok("turn", "end")
    ok("damage", BRUTE, "10")  # nobody left to go: the next turn start ends round 1
    added = ok_json("effect", "add", "Aria", "marked", "--dis", "--until-end-of", BRUTE)
    assert added["counts_from"] == 1
    assert "from_round" not in skirmish.read_text()
    assert ok_json("effect", "add", "Aria", "brief", "--adv", "--rounds", "1")["counts_from"] == 1
    assert (
        ok_json("add", "Wolf", "--aspect", "Might=2", "--hp", "4")["next"] == "Wolf"
    )  # a turn this round, as a heal gives
    assert ok_json("turn", "start")["round"] == 1  # Wolf's turn
    ended = ok_json("turn", "end")  # the last to go: it closes nothing (R19)
    assert ended["round_over"] is True and _ended(ended) == []
    started = ok_json("turn", "start")
    assert started["round"] == 2
    assert _ended(started) == [("Aria", "brief", "end of round 1")]  # marked: the Brute is down


def test_r19_r20_without_an_addition_the_next_turn_start_ends_the_round_not_the_turn_effects(
    skirmish,
):
    ok("turn", "start")
    ok("turn", "start")
    ok("turn", "end")
    ok("damage", BRUTE, "10")
    ok("effect", "add", "Aria", "marked", "--dis", "--until-end-of", BRUTE)
    ok("effect", "add", "Aria", "brief", "--adv", "--rounds", "1")
    started = ok_json("turn", "start")
    assert started["round"] == 2
    assert _ended(started) == [("Aria", "brief", "end of round 1")]


def test_r20_a_round_end_never_ends_an_effect_timed_to_a_turn():
    encounter, _ = start_turn(_three())
    encounter, _ = damage(encounter, "Bram", 4)
    effect = make_effect(encounter, "marked", "disadvantage", end_of="Bram")
    assert effect.from_round is None
    assert not ends_at(effect, RoundEnd(1))
    assert ends_at(make_effect(encounter, "r", "advantage", rounds=1), RoundEnd(1))


def test_r20_after_the_last_turn_end_an_effect_counts_from_the_running_round():
    encounter = _three()
    assert (
        make_effect(encounter, "m", "advantage", end_of="Bram").from_round is None
    )  # before round 1
    for _ in range(3):
        encounter, _ = start_turn(encounter)
    encounter, _ = end_turn(encounter)
    assert make_effect(encounter, "m", "advantage", start_of="Bram").from_round is None
    assert make_effect(encounter, "r", "advantage", rounds=1).last_round == 1


def test_r20_removing_the_creature_ends_late_and_on_time_effects_timed_to_its_turn():
    late = Effect("marked", "disadvantage", "own", "end", creature="Bram", from_round=3)
    on_time = Effect("hexed", "disadvantage", "own", "start", creature="Bram")
    kept = Effect("blessed", "advantage", "own", "rounds", last_round=2)
    encounter = _three()
    encounter = encounter._replace(
        round=2, creatures=(encounter.creatures[0]._replace(effects=(late, kept, on_time)),)
    )
    after, ended = end_removed(encounter, "Bram", ())
    assert after.creatures[0].effects == (kept,)
    assert [(g.creature, g.effect.source, g.why, g.who) for g in ended] == [
        ("Aria", "marked", "turn_removed", "Bram"),
        ("Aria", "hexed", "turn_removed", "Bram"),
    ]


def test_the_file_keeps_from_round_and_refuses_a_bad_one():
    """``from_round`` comes from files whose last turn end closed the round (before R19's
    amendment): they still read and write it."""
    encounter = _three()
    for _ in range(3):
        encounter, _ = start_turn(encounter)
    encounter, _ = end_turn(encounter)
    late = Effect("marked", "disadvantage", "own", "end", creature="Bram", from_round=2)
    from d4cli.fight.effect_transitions import add_effect

    encounter, _ = add_effect(encounter, "Aria", late)
    text = dump_encounter(encounter)
    assert 'ends = "end"\ncreature = "Bram"\nfrom_round = 2\n' in text
    assert parse_encounter(text, Path("x.toml")).creatures[0].effects == (late,)
    for bad, problem in (("0", "must be within"), ('"2"', "must be a whole number")):
        with pytest.raises(FileError) as caught:
            parse_encounter(text.replace("from_round = 2", f"from_round = {bad}"), Path("x.toml"))
        assert "effects #1.from_round" in str(caught.value) and problem in str(caught.value)


# --- R11 and R4: a grant named as a lasting effect the target has ----------------------------------------


def test_r11_a_grant_named_as_a_lasting_effect_of_the_same_kind_is_refused(skirmish):
    ok("effect", "add", "Aria", "blessed", "--adv")
    line = fails(
        2, skirmish, "team", "Borin", "Aria", "--adv", "--aspect", "Might", "--source", "Blessed"
    )
    assert line == (
        "d4cli: error: --source: 'Blessed': Aria already has the lasting effect 'blessed' (advantage); a grant of "
        "the same name would count once (R4) and add nothing: name the grant otherwise with --source"
    )
    assert fails(
        2,
        skirmish,
        "team",
        "Borin",
        "Aria",
        "--adv",
        "--aspect",
        "Might",
        "--source",
        "  BLESSED ",
        "--dry-run",
    ).startswith("d4cli: error: --source: '  BLESSED ':")
    assert ok_json("status")["creatures"][1]["load"] == -2  # Borin paid nothing


def test_r11_a_grant_of_another_name_is_still_given(skirmish):
    ok("effect", "add", "Aria", "blessed", "--adv")
    given = ok_json("team", "Borin", "Aria", "--dis", "--aspect", "Might", "--source", "cursed")
    assert (given["load_after"], given["source"]) == (-1, "cursed")
    ok_json("team", "Borin", "Aria", "--adv", "--aspect", "Might")
    assert ok_json("status")["creatures"][0]["pending"] == {
        "advantage": ["team action"],
        "disadvantage": ["cursed"],
    }
    # Of the other kind under a name Aria holds it is refused (R20): one effect per source name.
    line = fails(2, skirmish, "team", "Borin", "Aria", "--dis", "--aspect", "Might")
    assert line.startswith(
        "d4cli: error: --source: 'team action': Aria already has 'team action' (advantage, a Team "
        "Action grant); a creature holds one effect per source name (R4, R20)"
    )


def test_r11_a_grant_named_as_an_against_effect_is_refused_with_its_own_reason(skirmish):
    ok("effect", "add", "Aria", "Prone", "--adv", "--against")
    before = files(skirmish)
    line = fails(
        2, skirmish, "team", "Borin", "Aria", "--adv", "--aspect", "Might", "--source", "prone"
    )
    assert line == (
        "d4cli: error: --source: 'prone': Aria already has the lasting effect 'Prone' (advantage, against); a "
        "creature holds one effect per source name (R20), so the grant could not be kept: name the grant "
        "otherwise with --source"
    )
    assert files(skirmish) == before  # Borin paid nothing, no grant was dropped


def test_r11_two_grants_of_one_name_still_count_once_and_both_are_paid(skirmish):
    ok("team", "Borin", "Aria", "--adv", "--aspect", "Might", "--source", "flank")
    before = files(skirmish)
    given = ok_json(
        "team", "Goblin Archer", "Aria", "--adv", "--aspect", "Finesse", "--source", "Flank"
    )
    assert given["load_after"] == given["load_before"] + 1 and files(skirmish) != before
    assert ok_json("status")["creatures"][0]["pending"] == {
        "advantage": ["flank"],
        "disadvantage": [],
    }


# --- C8: no level on an `against` effect ----------------------------------------------------------------


def test_c8_level_on_an_against_effect_is_refused(skirmish):
    line = fails(
        2, skirmish, "effect", "add", "Goblin Archer", "prone", "--adv", "--level", "4", "--against"
    )
    assert line == (
        "d4cli: error: --level: '4': an --against effect has no level: it counts on pool rolls only, "
        "never on checks (C8)"
    )
    ok("effect", "add", "Goblin Archer", "prone", "--adv", "--against")


def test_c8_the_file_refuses_a_level_on_an_against_effect():
    from d4cli.fight.effect_transitions import add_effect

    encounter, _ = add_effect(_three(), "Aria", Effect("prone", on="against"))
    text = dump_encounter(encounter).replace('on = "against"\n', 'on = "against"\nlevel = 2\n')
    with pytest.raises(FileError) as caught:
        parse_encounter(text, Path("x.toml"))
    assert (
        "effects #1.level: 2: an 'against' effect has no level: it never counts on checks (C8)"
        in str(caught.value)
    )
