"""One effect per source name on a creature (R4, R11, R20) and GM-called rolls (R9, R18), pure:
the model's records and the journal facts they become."""

from __future__ import annotations

import pytest

from d4cli.api.recap import recap_figures
from d4cli.fight.actions import ActRequest, act
from d4cli.fight.closed_sets import GrantKind
from d4cli.fight.effect_transitions import add_effect, make_effect
from d4cli.fight.encounter_state import Encounter, new_creature
from d4cli.fight.hitpoints import damage
from d4cli.fight.team import TeamRequest, team
from d4cli.fight.turns import add_creature, start_turn
from d4cli.journal.acts import ActChange
from d4cli.journal.entry import journal_json, read_entry
from d4cli.output.render import plain
from d4cli.output.render.act_lines import act_summary
from d4cli.rules.dice import ScriptedDice
from d4cli.rules.errors import InputError


def trio() -> Encounter:
    """A, B, C with Might 3 (Load -1) and hp 5; round 1, A's turn."""
    encounter = Encounter(name="t")
    for name in ("A", "B", "C"):
        encounter, _ = add_creature(encounter, new_creature(name, (("Might", 3),), hp=5))
    encounter, _ = start_turn(encounter)
    return encounter


def granted(grant: GrantKind = GrantKind.ADVANTAGE) -> Encounter:
    """`trio` after B paid a Team Action: A's next roll has ``team action`` of *grant* (R11)."""
    encounter, record = team(trio(), TeamRequest("B", "A", grant))
    assert record.allowed
    return encounter


# --- e. R20: adding an effect under a name the creature has --------------------------------------


def test_r20_an_effect_of_the_other_grant_under_a_paid_grants_name_is_an_input_error():
    encounter = granted()
    with pytest.raises(InputError) as caught:
        add_effect(encounter, "A", make_effect(encounter, "team action", "disadvantage"))
    assert (caught.value.field, caught.value.value) == ("SOURCE", "team action")
    assert "A already has 'team action' (advantage, a Team Action grant)" in caught.value.problem


def test_r20_an_effect_of_the_same_grant_replaces_the_one_of_that_name():
    encounter = granted()
    new, event = add_effect(
        encounter, "A", make_effect(encounter, "Team  Action", "advantage", rounds=2)
    )
    assert event.replaced is not None and event.replaced.origin == "team"
    assert [(e.source, e.grant, e.ends) for e in new.find("A").effects] == [
        ("Team  Action", "advantage", "rounds")
    ]


@pytest.mark.parametrize("first_against", [True, False])
def test_r20_the_other_grant_under_a_name_is_refused_for_against_effects_too(first_against):
    encounter = trio()
    encounter, _ = add_effect(
        encounter, "A", make_effect(encounter, "prone", "advantage", against=first_against)
    )
    with pytest.raises(InputError) as caught:
        add_effect(
            encounter,
            "A",
            make_effect(encounter, "PRONE", "disadvantage", against=not first_against),
        )
    against = ", against" if first_against else ""
    assert f"A already has 'prone' (advantage{against})" in caught.value.problem


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (GrantKind.ADVANTAGE, GrantKind.DISADVANTAGE),
        (GrantKind.DISADVANTAGE, GrantKind.ADVANTAGE),
    ],
)
def test_r11_r20_a_team_grant_of_the_other_kind_under_an_existing_name_is_an_input_error(
    first, second
):
    encounter = granted(first)
    with pytest.raises(InputError) as caught:
        team(encounter, TeamRequest("C", "A", second))
    assert (caught.value.field, caught.value.value) == ("source", "team action")
    assert f"A already has 'team action' ({first}, a Team Action grant)" in caught.value.problem


def test_r11_r20_a_team_grant_of_the_other_kind_than_a_lasting_effect_of_that_name_is_refused():
    encounter = trio()
    encounter, _ = add_effect(encounter, "A", make_effect(encounter, "flanking", "disadvantage"))
    with pytest.raises(InputError) as caught:
        team(encounter, TeamRequest("B", "A", GrantKind.ADVANTAGE, source="Flanking"))
    assert "A already has 'flanking' (disadvantage)" in caught.value.problem


def test_r11_two_team_grants_of_one_name_and_kind_still_count_once():
    encounter = granted()
    encounter, record = team(encounter, TeamRequest("C", "A", GrantKind.ADVANTAGE))
    assert record.allowed and encounter.find("C").load == 0  # paid (R8)
    assert [(e.source, e.grant) for e in encounter.find("A").effects] == [
        ("team action", "advantage")
    ]


# --- f. R9, R18: a down creature may be called to roll --------------------------------------------


def test_r9_r18_a_gm_called_roll_of_a_down_creature_is_rolled_and_costs_nothing():
    encounter, _ = damage(trio(), "B", 5)
    after, record = act(encounter, ActRequest("B", "Might", gm=True, dc=6), ScriptedDice([4, 3, 2]))
    assert record.allowed and not record.actor_down
    assert (record.result.dice, record.result.total, record.result.success) == ((4, 3, 2), 9, True)
    assert (record.load_before, record.load_after, after.find("B").load) == (-1, -1, -1)


def test_r18_a_down_creature_acting_of_its_own_is_still_refused():
    encounter, _ = damage(trio(), "B", 5)
    after, record = act(encounter, ActRequest("B", "Might"), ScriptedDice([]))
    assert (record.allowed, record.actor_down, after) == (False, True, encounter)


# --- 8. R9: a GM-called roll is neither a turn's action nor a reaction --------------------------


@pytest.mark.parametrize("actor", ["A", "B"])  # A's own turn, B off its turn
def test_r9_a_gm_called_roll_is_gm_called_never_off_turn_and_pays_no_cost(actor):
    _, record = act(trio(), ActRequest(actor, "Might", gm=True), ScriptedDice([1, 2, 3]))
    assert (record.result.plan.request.gm, record.off_turn) == (True, False)
    assert record.result.plan.request.cost == 0 and record.load_after == record.load_before
    entry = journal_json(record)
    assert (entry["gm_called"], entry["off_turn"], entry["cost"]) == (True, False, 0)
    line = plain(act_summary(ActChange.read(entry)))
    assert line.startswith(f"{actor} Might (GM-called R9, no Cost): 3d4 (1 2 3) = 6")
    assert "off-turn" not in line and "Cost 1" not in line


def test_r10_an_act_off_its_turn_is_still_a_reaction():
    _, record = act(trio(), ActRequest("B", "Might"), ScriptedDice([1, 2, 3]))
    assert (record.result.plan.request.gm, record.off_turn, record.load_after) == (False, True, 0)
    assert "(Cost 1, off-turn R10)" in plain(act_summary(ActChange.read(journal_json(record))))


def test_r9_an_older_journals_gm_called_entry_reads_as_gm_called():
    entry = {"kind": "act", "actor": "B", "aspect_name": "Might", "cost": 1, "off_turn": True}
    entry |= {"gate_skipped": True, "pool_size": 1, "dice": [2], "extra": [], "total": 2}
    assert plain(act_summary(ActChange.read(entry))).startswith(
        "B Might (GM-called R9, no Cost): 1d4 (2) = 2"
    )


def test_r9_the_recap_counts_gm_called_rolls_apart_from_actions():
    start = trio()
    steps = []
    encounter = start
    for seq, request in enumerate(
        [
            ActRequest("A", "Might"),  # A's turn
            ActRequest("A", "Might", gm=True),
            ActRequest("B", "Might", gm=True),
            ActRequest("B", "Might"),  # off B's turn: a reaction
        ],
        start=3,
    ):
        encounter, record = act(encounter, request, ScriptedDice([1, 1, 1, 1]))
        steps.append((read_entry({**journal_json(record), "seq": seq}), encounter))
    found = {c.name: c for c in recap_figures(start, 2, steps).creatures}
    figures = {
        name: (c.actions_on_turn, c.actions_off_turn, c.gm_called, c.load_spent)
        for name, c in found.items()
    }
    assert figures == {"A": (1, 0, 1, 1), "B": (0, 1, 1, 1), "C": (0, 0, 0, 0)}
