"""The round's last moments, each from its minimal case: a down creature's skipped turn (D1, R20),
an effect lasting to the round's end after its last turn end (D2, R19/R20), a creature added or
healed after that turn end (D3, R19), every creature down (R21), and a Team Action's input errors
before the gate and against a grant the receiver already has (R2, R11)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _cli import fails, files, ok, ok_json

from d4cli.fight.actions import ActRequest, act
from d4cli.fight.effect_transitions import add_effect, make_effect
from d4cli.fight.encounter_state import Encounter, new_creature
from d4cli.fight.hitpoints import damage, heal
from d4cli.fight.sides import FightEnd, encounter_end
from d4cli.fight.team import TeamRequest, team
from d4cli.fight.turns import add_creature, end_turn, start_turn
from d4cli.rules.errors import InputError


class Dice:
    def randint(self, low: int, high: int) -> int:
        return high


def roster(*names: str, hp: int = 5) -> Encounter:
    encounter = Encounter(name="t")
    for name in names:
        encounter, _ = add_creature(encounter, new_creature(name, (("Might", 2),), hp=hp))
    return encounter


def sources(encounter: Encounter, name: str) -> list[str]:
    return [effect.source for effect in encounter.find(name).effects]


# --- D1 (R20): a down creature's "start of its next turn" comes when it is back ------------------------


def test_d1_until_start_of_a_down_creature_lasts_while_it_is_skipped():
    encounter = roster("A", "B")
    effect = make_effect(encounter, "marked", "disadvantage", start_of="B")
    encounter, _ = add_effect(encounter, "A", effect)
    encounter, _ = damage(encounter, "B", 5)  # B down
    encounter, first = start_turn(encounter)  # A, round 1
    encounter, second = start_turn(encounter)  # B skipped: A again, round 2
    assert (second.round, second.actor, second.skipped) == (2, "A", ())
    assert first.effects_ended == () and second.effects_ended == ()
    assert sources(encounter, "A") == ["marked"]
    encounter, _ = heal(encounter, "B", 2)
    encounter, back = start_turn(encounter)  # B is back: its turn starts
    assert (back.round, back.actor) == (2, "B")
    assert [(g.creature, g.effect.source, g.why) for g in back.effects_ended] == [
        ("A", "marked", "turn_start")
    ]


def test_d1_cli_the_effect_stays_through_two_turn_starts(isolated_env):
    ok("init")
    ok("add", "A", "--aspect", "Might=2", "--hp", "5")
    ok("add", "B", "--aspect", "Might=2", "--hp", "5")
    ok("effect", "add", "A", "marked", "--dis", "--until-start-of", "B")
    ok("damage", "B", "5")
    for _ in range(2):
        assert ok_json("turn", "start")["effects_ended"] == []
    status = ok_json("status")["creatures"][0]
    assert [e["source"] for e in status["effects"]] == ["marked"]


# --- D2 (R19, R20): --rounds 1 lasts to the turn start that begins round 2 ------------------------------


def test_d2_rounds_1_still_counts_after_the_last_turn_end_and_ends_with_round_2s_start():
    encounter = roster("A", "B")
    encounter, _ = start_turn(encounter)  # A, round 1
    encounter, _ = add_effect(
        encounter, "A", make_effect(encounter, "hasted", "advantage", rounds=1)
    )
    encounter, _ = start_turn(encounter)  # B
    encounter, ended = end_turn(encounter)  # the last turn of round 1
    assert ended.round_over and ended.effects_ended == ()
    encounter, rolled = act(encounter, ActRequest("A", "Might", cost=0), Dice())
    # Might 2, Load 0 after its reset (Buffer 1: -1, never enlarging, R5) + hasted = 3 d4s.
    assert rolled.result.plan.advantage == ("hasted",) and rolled.result.plan.size.size == 3
    encounter, started = start_turn(encounter)
    assert (started.round, started.actor) == (2, "A")
    assert [(g.effect.source, g.why, g.round) for g in started.effects_ended] == [
        ("hasted", "round_end", 1)
    ]


def test_d2_cli_act_after_the_last_turn_end_has_the_advantage(isolated_env):
    ok("init")
    ok("add", "A", "--aspect", "Might=2")
    ok("add", "B", "--aspect", "Might=2")
    ok("turn", "start")
    ok("effect", "add", "A", "hasted", "--adv", "--rounds", "1")
    ok("turn", "start")
    assert ok_json("turn", "end")["effects_ended"] == []
    rolled = ok_json("act", "A", "Might", "--seed", "1", "--dry-run")
    assert (rolled["advantage"], rolled["pool_size"]) == (["hasted"], 3)
    started = ok_json("turn", "start")
    assert started["round"] == 2
    assert [e["source"] for e in started["effects_ended"]] == ["hasted"]


# --- D3 (R19): the last turn end closes nothing -------------------------------------------------------


def test_d3_a_creature_added_after_the_last_turn_end_has_its_turn_in_round_1():
    encounter = roster("A", "B")
    encounter, _ = start_turn(encounter)
    encounter, _ = start_turn(encounter)
    encounter, _ = end_turn(encounter)
    encounter, _ = add_creature(encounter, new_creature("C", (("Might", 1),), hp=3))
    assert encounter.find("C").had_turn is False and encounter.next_turn == "C"
    encounter, started = start_turn(encounter)
    assert (started.round, started.actor, started.new_round) == (1, "C", False)
    encounter, started = start_turn(encounter)
    assert (started.round, started.actor, started.new_round) == (2, "A", True)


def test_d3_a_creature_healed_after_the_last_turn_end_has_its_turn_in_round_1():
    encounter = roster("A", "B", "C")
    encounter, _ = start_turn(encounter)
    encounter, _ = start_turn(encounter)
    encounter, _ = damage(encounter, "C", 5)
    encounter, ended = end_turn(encounter)
    assert ended.round_over and encounter.find("C").had_turn is False
    encounter, _ = heal(encounter, "C", 2)
    encounter, started = start_turn(encounter)
    assert (started.round, started.actor) == (1, "C")


def test_d3_cli_both_cases(isolated_env):
    ok("init")
    ok("add", "A", "--aspect", "Might=2")
    ok("add", "B", "--aspect", "Might=2")
    ok("turn", "start")
    ok("turn", "start")
    ok("turn", "end")
    ok("add", "C", "--aspect", "Might=1", "--hp", "3")
    c = ok_json("status")["creatures"][2]
    assert c["had_turn"] is False
    started = ok_json("turn", "start")
    assert (started["round"], started["actor"]) == (1, "C")
    started = ok_json("turn", "start")
    assert (started["round"], started["actor"]) == (2, "A")


def test_d3_cli_healed(isolated_env):
    ok("init")
    for name in ("A", "B", "C"):
        ok("add", name, "--aspect", "Might=2", "--hp", "5")
    ok("turn", "start")
    ok("turn", "start")
    ok("damage", "C", "5")
    ok("turn", "end")
    ok("heal", "C", "2")
    started = ok_json("turn", "start")
    assert (started["round"], started["actor"]) == (1, "C")


# --- R21: every creature down: over, no winner (already so; held here) ---------------------------------


def test_r21_every_creature_down_is_over_with_no_winner(isolated_env):
    encounter = Encounter(name="t")
    for name, side in (("A", "party"), ("B", "foes")):
        creature = new_creature(name, (("Might", 2),), hp=2)._replace(side=side)
        encounter, _ = add_creature(encounter, creature)
    encounter, _ = damage(encounter, "A", 2)
    assert encounter_end(encounter) == FightEnd("foes")
    encounter, last = damage(encounter, "B", 2)
    assert last.fight_over == FightEnd(None)
    ok("init")
    ok("add", "A", "--aspect", "Might=2", "--hp", "2", "--side", "party")
    ok("add", "B", "--aspect", "Might=2", "--hp", "2", "--side", "foes")
    assert ok_json("damage", "A", "2")["fight_over"] == {"winner": "foes"}
    assert ok_json("damage", "B", "2")["fight_over"] == {"winner": None}
    assert ok_json("status")["fight_over"] == {"winner": None}


# --- R2, R11: a Team Action's input errors come before the gate -----------------------------------------


def test_r2_a_team_action_clashing_with_an_effect_and_refused_is_an_input_error():
    encounter = roster("A", "B")
    encounter, _ = add_effect(encounter, "B", make_effect(encounter, "blessed", "advantage"))
    refused = TeamRequest("A", "B", "advantage", source="blessed", aspect="Might", cost=5)
    with pytest.raises(InputError) as caught:
        team(encounter, refused)
    assert caught.value.field == "source" and "'blessed'" in str(caught.value)
    # the other kind under that name: also an input error, not the gate's refusal
    refused = TeamRequest("A", "B", "disadvantage", source="blessed", aspect="Might", cost=5)
    with pytest.raises(InputError):
        team(encounter, refused)


def test_r2_r11_a_down_actor_and_a_clashing_name_is_an_input_error():
    encounter = roster("A", "B")
    encounter, _ = add_effect(
        encounter, "B", make_effect(encounter, "prone", "advantage", against=True)
    )
    encounter, _ = damage(encounter, "A", 5)  # A down: refused like the gate (R18)
    with pytest.raises(InputError) as caught:
        team(encounter, TeamRequest("A", "B", "advantage", source="Prone", aspect="Might"))
    assert caught.value.field == "source" and "'prone' (advantage, against)" in str(caught.value)


def test_r2_r11_cli_exit_2_naming_the_effect_and_nothing_written(isolated_env):
    path = Path(os.environ["D4CLI_FILE"])
    ok("init")
    ok("add", "A", "--aspect", "Might=1", "--hp", "2")
    ok("add", "B", "--aspect", "Might=2")
    ok("effect", "add", "B", "blessed", "--adv")
    before = files(path)
    line = fails(2, path, "team", "A", "B", "--adv", "--cost", "5", "--source", "Blessed")
    assert line == (
        "d4cli: error: --source: 'Blessed': B already has the lasting effect 'blessed' (advantage); "
        "a grant of the same name would count once (R4) and add nothing: name the grant otherwise "
        "with --source"
    )
    ok("damage", "A", "2")
    before = files(path)
    line = fails(2, path, "team", "A", "B", "--adv", "--source", "blessed")
    assert line.startswith("d4cli: error: --source: 'blessed': B already has the lasting effect")
    assert files(path) == before
