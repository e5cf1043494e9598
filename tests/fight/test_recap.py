"""Recap figures: entries (read typed) and the encounter after each, in; plain numbers out (R2, R8, R16, R18)."""

from __future__ import annotations

from d4cli.api.recap import recap_figures
from d4cli.fight.recap_figures import can_act_at_cost_1, hp_lost, load_spent, rounds_between
from d4cli.fileformat.encounter_toml import bundled_examples, parse_encounter
from d4cli.journal.entry import read_entry


def duel():
    path = bundled_examples()["duel"]
    return parse_encounter(path.read_text(), path)


def with_hp(encounter, name, hp):
    return encounter._replace(
        creatures=tuple(c._replace(hp=hp) if c.name == name else c for c in encounter.creatures)
    )


def test_hp_lost_is_what_came_off_or_the_r7_damage_without_hp():
    assert hp_lost(7, 3, 9) == 4
    assert hp_lost(None, None, 5) == 5
    assert hp_lost(5, 0) == 5
    assert hp_lost(0, 4) == 0  # a heal takes nothing off
    assert hp_lost(None, None) == 0


def test_load_spent_is_what_the_load_grew_by_where_both_are_known():
    assert load_spent(-1, 0) == 1
    assert load_spent(2, 2) == 0  # a GM-called roll (R9)
    assert load_spent(None, 3) == 0


def test_cost_1_needs_headroom_and_hp():
    sera = duel().creatures[0]
    assert can_act_at_cost_1(sera)
    assert not can_act_at_cost_1(sera._replace(load=5))  # Finesse 5 - Load 5 < 1 (R2)
    assert not can_act_at_cost_1(sera._replace(hp=0))  # down (R18)


def test_rounds_count_the_round_running_at_the_start_as_one():
    start = duel()  # round 0: nothing running
    assert rounds_between(start, start._replace(round=2)) == 2
    running = start._replace(round=2, current="Sera")
    assert rounds_between(running, start._replace(round=3)) == 2


def test_a_recap_of_a_blow_and_the_gms_damage():
    start = duel()._replace(round=1, current="Sera")
    hit = with_hp(start, "The Masked Blade", 9)
    down = with_hp(hit, "The Masked Blade", 0)
    steps = [
        (
            {
                "seq": 3,
                "kind": "act",
                "round": 1,
                "actor": "Sera",
                "target": "The Masked Blade",
                "off_turn": False,
                "hp_before": 14,
                "hp_after": 9,
                "load_before": -1,
                "load_after": 0,
            },
            hit,
        ),
        (
            {
                "seq": 4,
                "kind": "damage",
                "round": 1,
                "actor": "The Masked Blade",
                "hp_before": 9,
                "hp_after": 0,
            },
            down,
        ),
    ]
    found = recap_figures(start, 2, [(read_entry(entry), after) for entry, after in steps])
    sera, blade = found.creatures
    assert (sera.damage_dealt, sera.actions_on_turn, sera.load_spent) == (5, 1, 1)
    assert (blade.damage_taken, blade.downs) == (14, [(1, "down", 4)])
    assert [(d.round, d.sides, d.other) for d in found.damage_per_round] == [
        (1, {"Sera": 5, "the Blade": 0}, 9)
    ]
    assert found.winner == "Sera" and (found.from_seq, found.to_seq, found.rounds) == (2, 4, 1)
    assert found.damage_by_side == {"Sera": 5, "the Blade": 0}
