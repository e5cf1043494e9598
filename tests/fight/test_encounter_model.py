"""The pure encounter model (d4cli.fight.encounter_state): every ruling R1-R17 and N1 with a worked example.

Dice are scripted (`ScriptedDice`): a test that rolls more dice than it expects fails.
"""

from __future__ import annotations

import pytest

from d4cli.fight.actions import ActRequest, act
from d4cli.fight.effects import Pending, team_grant_effects
from d4cli.fight.encounter_state import Creature, Encounter, new_creature
from d4cli.fight.team import TeamRequest, team
from d4cli.fight.turns import add_creature, end_turn, remove_creature, set_exhaustion, start_turn
from d4cli.journal.entry import journal_json
from d4cli.output.serialize.encounter_json import status_json
from d4cli.rules.dice import ExtraDice, ScriptedDice
from d4cli.rules.errors import InputError


def creature(
    name: str,
    *,
    load: int = 0,
    buffer: int = 1,
    exhaustion: int = 0,
    evasion: int = 0,
    hp: int | None = None,
    pending: Pending = Pending(),
    **aspects: int,
) -> Creature:
    return Creature(
        name,
        tuple(aspects.items()),
        buffer,
        exhaustion,
        load,
        evasion,
        hp,
        effects=team_grant_effects((), pending),
    )


def party(mode: str = "turn") -> Encounter:
    return Encounter(
        name="Test",
        mode=mode,
        creatures=(
            creature("Aria", load=0, buffer=1, evasion=11, hp=12, Finesse=4, Might=2),
            creature("Borin", load=0, buffer=2, evasion=12, hp=16, Might=4),
            creature("Goblin Archer", load=0, buffer=1, evasion=10, hp=7, Finesse=3),
        ),
    )


def no_dice() -> ScriptedDice:
    return ScriptedDice([])


def by_name(encounter: Encounter, name: str) -> Creature:
    return encounter.find(name)


# --- R1 turn reset -------------------------------------------------------------------------


def test_r1_buffer_1_no_exhaustion_resets_to_minus_1():
    encounter, event = start_turn(party())
    assert by_name(encounter, "Aria").load == -1
    assert journal_json(event)["resets"] == [{"name": "Aria", "load_before": 0, "load_after": -1}]


def test_r1_exhaustion_2_buffer_1_resets_to_1():
    encounter = party()
    encounter, _ = set_exhaustion(encounter, "Aria", 2)
    encounter, _ = start_turn(encounter)
    assert by_name(encounter, "Aria").load == 1


def test_r1_new_creature_starts_at_its_reset_value():
    fresh = new_creature("Cleric", (("Spirit", 3),), load_buffer=2, exhaustion=1)
    assert fresh.load == -1


# --- R2 gate, R3 costs ------------------------------------------------------------------------


def test_r2_refused_action_rolls_nothing_and_changes_nothing():
    encounter = party()
    # Might 2 - Load 0 = headroom 2 < Cost 3: short by 1.
    after, record = act(encounter, ActRequest("Aria", "Might", cost=3), no_dice())
    assert after is encounter
    assert not record.allowed
    assert record.result.plan.gate.shortfall == 1
    assert record.result.dice == () and record.result.total is None
    assert record.load_after == 0
    assert record.outcome == "refused"


def test_r2_advantage_never_opens_the_gate():
    encounter = party()
    after, record = act(
        encounter, ActRequest("Aria", "Might", cost=3, advantage=("torch", "advice")), no_dice()
    )
    assert not record.allowed and after is encounter


def test_r3_cost_0_allowed_at_headroom_0_refused_below():
    encounter = Encounter(creatures=(creature("Aria", load=2, Might=2),))
    after, record = act(encounter, ActRequest("Aria", "Might", cost=0), ScriptedDice([3]))
    assert record.allowed and record.result.total == 3
    assert by_name(after, "Aria").load == 2
    encounter = Encounter(creatures=(creature("Aria", load=3, Might=2),))
    after, record = act(encounter, ActRequest("Aria", "Might", cost=0), no_dice())
    assert not record.allowed and after is encounter


# --- R4 Net Advantage, R5 pool size, R6 extra dice, R7 total ---------------------------------


def test_r4_trap_example_sources_fold_and_count_once():
    # Finesse 4, Load 0: base 4d4; darkness -1, torch +1, advice +1 ("Torch " repeats torch): 5d4.
    encounter = Encounter(creatures=(creature("Aria", load=0, Finesse=4),))
    request = ActRequest(
        "Aria", "Finesse", advantage=("torch", "advice", "Torch "), disadvantage=("darkness",)
    )
    after, record = act(encounter, request, ScriptedDice([1, 2, 3, 4, 1]))
    plan = record.result.plan
    assert plan.advantage == ("torch", "advice")
    assert plan.net_advantage == 1
    assert plan.size.size == 5
    assert record.result.total == 11


def test_r5_negative_load_never_enlarges_the_pool_and_minimum_is_1d4():
    encounter = Encounter(creatures=(creature("Aria", load=-1, Finesse=4, Weak=-2),))
    _, record = act(encounter, ActRequest("Aria", "Finesse"), ScriptedDice([1, 1, 1, 1]))
    assert record.result.plan.size.size == 4
    # A negative Aspect: Weak -2 - Load -3 = headroom 1 >= Cost 0; pool max(1, -2 - 0) = 1d4.
    encounter = Encounter(creatures=(creature("Aria", load=-3, Weak=-2),))
    _, record = act(encounter, ActRequest("Aria", "Weak", cost=0), ScriptedDice([2]))
    assert record.allowed and record.result.plan.size.size == 1 and record.result.total == 2


def test_r6_r7_dagger_example():
    # Finesse 6, Load 2, a dagger's 1d4: 4d4 + 1d4 = 14 against Evasion 11 deals 3 damage.
    encounter = Encounter(
        creatures=(creature("Aria", load=2, Finesse=6), creature("Orc", evasion=11, Might=1))
    )
    request = ActRequest("Aria", "Finesse", extra=(ExtraDice(1, 4),), target="Orc")
    after, record = act(encounter, request, ScriptedDice([4, 4, 3, 1, 2]))
    assert record.result.plan.size.size == 4
    assert record.result.total == 14
    assert record.result.damage == 3
    assert record.outcome == "damage"
    assert by_name(after, "Aria").load == 3
    assert record.hp_after is None  # the Orc has no hp: damage only reported (R16)


def test_r7_dc_met_exactly_succeeds():
    encounter = Encounter(creatures=(creature("Aria", Wits=2),))
    _, record = act(encounter, ActRequest("Aria", "Wits", dc=5), ScriptedDice([4, 1]))
    assert record.result.success is True and record.outcome == "success"
    _, record = act(encounter, ActRequest("Aria", "Wits", dc=6), ScriptedDice([4, 1]))
    assert record.result.success is False and record.outcome == "failure"


def test_r7_bare_evasion_without_a_target():
    encounter = Encounter(creatures=(creature("Aria", Might=1),))
    _, record = act(encounter, ActRequest("Aria", "Might", evasion=5), ScriptedDice([2]))
    assert record.result.damage == 0 and record.outcome == "no-damage" and record.target is None


def test_r7_only_one_of_dc_target_evasion():
    with pytest.raises(InputError, match="at most one"):
        act(party(), ActRequest("Aria", "Might", dc=5, target="Borin"), no_dice())


# --- R8 Load after --------------------------------------------------------------------------


def test_r8_failed_roll_still_adds_the_cost():
    encounter = Encounter(creatures=(creature("Aria", load=-1, Might=2),))
    after, record = act(
        encounter, ActRequest("Aria", "Might", cost=2, dc=100), ScriptedDice([1, 1])
    )
    assert record.result.success is False
    assert (record.load_before, record.load_after) == (-1, 1)
    assert by_name(after, "Aria").load == 1


# --- R9: GM-called rolls are `roll pool --gm`; an act always passes the gate ------------------


def test_r9_act_never_skips_the_gate():
    encounter = Encounter(creatures=(creature("Aria", load=5, Might=2),))
    _, record = act(encounter, ActRequest("Aria", "Might"), no_dice())
    assert not record.result.plan.gate.skipped and not record.allowed


# --- R10 off-turn actions ---------------------------------------------------------------------


def test_r10_reactions_use_current_load_same_gate_no_limit():
    encounter, _ = start_turn(party())  # Aria's turn
    assert encounter.current == "Aria"
    # Borin (Load 0, Might 4) reacts three times at Cost 1, then his gate closes at Load 4.
    loads = []
    for _ in range(4):
        encounter, record = act(encounter, ActRequest("borin", "might"), ScriptedDice([1] * 4))
        assert record.off_turn and record.allowed
        loads.append(record.load_after)
    assert loads == [1, 2, 3, 4]
    after, record = act(encounter, ActRequest("Borin", "Might"), no_dice())
    assert not record.allowed and after is encounter
    # Aria on her own turn is not off-turn.
    _, record = act(encounter, ActRequest("Aria", "Finesse"), ScriptedDice([1] * 5))
    assert record.off_turn is False


def test_r10_acting_between_turns_is_off_turn():
    _, record = act(party(), ActRequest("Aria", "Might"), ScriptedDice([1, 1]))
    assert record.off_turn is True


# --- R11 Team Action --------------------------------------------------------------------------


def test_r11_goblin_example_team_disadvantage():
    # A goblin attacks; Borin (Load 1) uses a Team Action (Cost 1) to impose Disadvantage.
    encounter = party()
    encounter = encounter.with_creature(1, creature("Borin", load=1, Might=4))
    encounter, record = team(encounter, TeamRequest("Borin", "Goblin Archer", "disadvantage"))
    assert record.allowed and record.aspect == "Might"  # his only Aspect
    assert (record.load_before, record.load_after) == (1, 2)
    assert by_name(encounter, "Goblin Archer").grants == Pending(disadvantage=("team action",))
    # The goblin's next roll (Finesse 3, Load 0): 3d4 - 1 = 2d4, and the grant is used up.
    encounter, shot = act(
        encounter, ActRequest("Goblin Archer", "Finesse", target="Aria"), ScriptedDice([4, 4])
    )
    assert shot.result.plan.size.size == 2
    assert shot.result.plan.disadvantage == ("team action",)
    assert shot.grants_used == Pending(disadvantage=("team action",))
    assert by_name(encounter, "Goblin Archer").grants == Pending()
    # Its next roll has no grant left (Load 1 now: 3 - 1 = 2d4, no Disadvantage).
    _, again = act(encounter, ActRequest("Goblin Archer", "Finesse"), ScriptedDice([1, 1]))
    assert again.result.plan.disadvantage == ()


def test_r11_two_grants_of_one_name_count_once_and_with_a_named_source():
    encounter = party()
    encounter, _ = team(
        encounter, TeamRequest("Borin", "Aria", "advantage", source="Watch My Back")
    )
    encounter, _ = team(
        encounter, TeamRequest("Goblin Archer", "Aria", "advantage", source="watch  my back")
    )
    assert by_name(encounter, "Aria").grants.advantage == ("Watch My Back",)
    _, record = act(
        encounter,
        ActRequest("Aria", "Might", advantage=("WATCH MY BACK",)),
        ScriptedDice([1, 1, 1]),
    )
    assert record.result.plan.net_advantage == 1
    assert record.result.plan.size.size == 3


def test_r11_refused_team_action_changes_nothing():
    encounter = party().with_creature(1, creature("Borin", load=4, Might=4))
    after, record = team(encounter, TeamRequest("Borin", "Aria", "advantage"))
    assert not record.allowed and after is encounter
    assert record.gate.shortfall == 1


def test_r11_errors_self_grant_missing_aspect_unknown_aspect():
    with pytest.raises(InputError, match="not the actor itself") as caught:
        team(party(), TeamRequest("Aria", "aria", "advantage", aspect="Might"))
    assert caught.value.field == "TARGET"
    with pytest.raises(InputError, match="several Aspects") as caught:
        team(party(), TeamRequest("Aria", "Borin", "advantage"))
    assert caught.value.field == "aspect"
    with pytest.raises(InputError, match="no such Aspect") as caught:
        team(party(), TeamRequest("Aria", "Borin", "advantage", aspect="Charm"))
    assert caught.value.value == "Charm"
    with pytest.raises(InputError):
        team(party(), TeamRequest("Aria", "Borin", "advantage", aspect="Might", source="  "))


def test_r11_refused_act_keeps_the_grant():
    encounter, _ = team(party(), TeamRequest("Borin", "Aria", "advantage"))
    heavy = ActRequest("Aria", "Might", cost=3)
    after, record = act(encounter, heavy, no_dice())
    assert not record.allowed and by_name(after, "Aria").grants.advantage == ("team action",)


# --- R12 reset modes --------------------------------------------------------------------------


def test_r12_turn_mode_resets_only_the_creature_whose_turn_starts():
    encounter, event = start_turn(party("turn"))
    assert [c.load for c in encounter.creatures] == [-1, 0, 0]
    encounter, _ = start_turn(encounter)
    assert [c.load for c in encounter.creatures] == [-1, -2, 0]


def test_r12_round_mode_resets_everyone_at_each_round_and_nobody_at_a_turn():
    encounter, event = start_turn(party("round"))
    assert encounter.round == 1 and event.new_round
    assert [c.load for c in encounter.creatures] == [-1, -2, -1]
    encounter, _ = act(encounter, ActRequest("Borin", "Might"), ScriptedDice([1] * 4))
    encounter, event = start_turn(encounter)  # Borin's turn: no reset
    assert event.resets == ()
    assert by_name(encounter, "Borin").load == -1
    encounter, _ = start_turn(encounter)  # Goblin Archer
    encounter, event = start_turn(encounter)  # wraps: round 2 resets everyone
    assert encounter.round == 2 and encounter.current == "Aria"
    assert [c.load for c in encounter.creatures] == [-1, -2, -1]


# --- R13 turn order ---------------------------------------------------------------------------


def test_r13_order_wrap_out_of_order_and_ending_a_running_turn():
    encounter = party()
    assert encounter.round == 0
    encounter, _ = start_turn(encounter)
    assert (encounter.round, encounter.current, encounter.next_turn) == (1, "Aria", "Borin")
    encounter, event = start_turn(encounter)  # ends Aria's turn first
    assert event.ended == "Aria"
    assert (encounter.round, encounter.current) == (1, "Borin")
    # Out of order: the Goblin Archer now; the default next follows it.
    encounter, event = start_turn(encounter, "goblin archer")
    assert encounter.current == "Goblin Archer" and event.out_of_order is False
    assert encounter.next_turn is None  # it is last: the next turn starts round 2
    encounter, _ = end_turn(encounter)
    encounter, event = start_turn(encounter)
    assert (encounter.round, encounter.current) == (2, "Aria") and event.new_round


def test_r19_out_of_order_start_mid_round_costs_nobody_a_turn():
    encounter, _ = start_turn(party())  # Aria
    encounter, event = start_turn(encounter, "Goblin Archer")
    assert event.out_of_order is True and encounter.round == 1
    encounter, event = end_turn(encounter)
    assert event.round_over is False and event.next == "Borin"
    encounter, _ = start_turn(encounter)  # wraps past Aria (had her turn) to Borin
    assert (encounter.round, encounter.current) == (1, "Borin")
    encounter, _ = start_turn(encounter)
    assert (encounter.round, encounter.current) == (2, "Aria")


def test_r13_unknown_name_and_empty_encounter():
    with pytest.raises(InputError, match="no such creature") as caught:
        start_turn(party(), "Zed")
    assert caught.value.value == "Zed"
    with pytest.raises(InputError, match="no creatures"):
        start_turn(Encounter())


def test_r13_creature_added_during_the_last_turn_follows_it_this_round():
    encounter, _ = start_turn(party(), "Goblin Archer")
    encounter, _ = add_creature(encounter, new_creature("Cleric", (("Spirit", 3),)))
    assert encounter.next_turn == "Cleric"
    encounter, _ = start_turn(encounter)
    assert (encounter.round, encounter.current) == (1, "Cleric")


# --- R14 ending a turn ------------------------------------------------------------------------


def test_r14_ending_a_turn_keeps_the_load():
    encounter, _ = start_turn(party())
    encounter, _ = act(encounter, ActRequest("Aria", "Finesse"), ScriptedDice([1] * 4))
    encounter, event = end_turn(encounter)
    assert encounter.current is None and by_name(encounter, "Aria").load == 0
    assert (event.load_after, event.next, event.round_over) == (0, "Borin", False)
    with pytest.raises(InputError, match="no turn is running"):
        end_turn(encounter)


# --- R15 Exhaustion ---------------------------------------------------------------------------


def test_r15_exhaustion_changes_only_the_reset_value():
    encounter, event = set_exhaustion(party(), "Aria", 3)
    aria = by_name(encounter, "Aria")
    assert (aria.exhaustion, aria.load, aria.reset_value) == (3, 0, 2)
    assert event.exhaustion_before == 0
    encounter, _ = start_turn(encounter)
    assert by_name(encounter, "Aria").load == 2


# --- R16 hit points ---------------------------------------------------------------------------


def test_r16_damage_comes_off_hp_never_below_0():
    encounter = party()
    request = ActRequest("Borin", "Might", extra=(ExtraDice(1, 8),), target="Goblin Archer")
    encounter, record = act(encounter, request, ScriptedDice([4, 4, 4, 4, 8]))
    # 24 - Evasion 10 = 14 damage; 7 hp -> 0.
    assert record.result.damage == 14
    assert (record.hp_before, record.hp_after, record.hp_zero) == (7, 0, True)
    assert by_name(encounter, "Goblin Archer").hp == 0


def test_r16_partial_damage_and_a_target_without_hp():
    encounter = party()
    encounter, record = act(
        encounter, ActRequest("Aria", "Finesse", target="Goblin Archer"), ScriptedDice([4, 4, 3, 1])
    )
    assert (record.result.damage, record.hp_after, record.hp_zero) == (2, 5, False)
    no_hp = Encounter(creatures=(creature("Aria", Finesse=4), creature("Door", evasion=3, Might=0)))
    after, record = act(
        no_hp, ActRequest("Aria", "Finesse", target="door"), ScriptedDice([4, 4, 4, 4])
    )
    assert (
        record.result.damage == 13 and record.hp_after is None and by_name(after, "Door").hp is None
    )


def test_r16_unknown_target_is_an_input_error_naming_it():
    with pytest.raises(InputError) as caught:
        act(party(), ActRequest("Aria", "Finesse", target="Nobody"), no_dice())
    assert caught.value.field == "target" and caught.value.value == "Nobody"


# --- R17 removal ------------------------------------------------------------------------------


def test_r17_removing_the_current_creature_ends_its_turn_next_goes_to_its_follower():
    encounter, _ = start_turn(party())  # Aria
    encounter, event = remove_creature(encounter, "Aria")
    assert encounter.current is None and event.ended_turn is True
    assert [c.name for c in encounter.creatures] == ["Borin", "Goblin Archer"]
    encounter, _ = start_turn(encounter)
    assert (encounter.round, encounter.current) == (1, "Borin")


def test_r17_removing_someone_else_keeps_the_current_creature():
    encounter, _ = start_turn(party())  # Aria, next Borin
    encounter, _ = remove_creature(encounter, "Borin")
    assert encounter.current == "Aria" and encounter.next_turn == "Goblin Archer"
    encounter, _ = remove_creature(encounter, "Goblin Archer")
    assert encounter.current == "Aria" and encounter.next_turn is None


def test_r17_removing_the_last_current_creature_ends_its_turn_the_others_keep_theirs():
    encounter, _ = start_turn(party(), "Goblin Archer")
    encounter, _ = remove_creature(encounter, "Goblin Archer")
    assert encounter.current is None and encounter.next_turn == "Aria"
    encounter, _ = start_turn(encounter)
    assert (encounter.round, encounter.current) == (
        1,
        "Aria",
    )  # R19: Aria and Borin keep their turns
    encounter, _ = start_turn(encounter)
    encounter, _ = start_turn(encounter)
    assert (encounter.round, encounter.current) == (2, "Aria")


def test_r17_order_is_never_sorted():
    encounter = Encounter(
        creatures=(creature("Zed", A=1), creature("Amy", A=1), creature("Max", A=1))
    )
    encounter, _ = remove_creature(encounter, "Amy")
    assert [c.name for c in encounter.creatures] == ["Zed", "Max"]


# --- N1 names ---------------------------------------------------------------------------------


def test_n1_names_match_folded_and_duplicates_are_refused():
    encounter = party()
    assert encounter.find("  goblin   ARCHER ").name == "Goblin Archer"
    with pytest.raises(InputError, match="already has 'Goblin Archer'"):
        add_creature(encounter, new_creature("goblin  archer", (("Might", 1),)))
    with pytest.raises(InputError, match="no such creature") as caught:
        encounter.find("Goblin")  # no prefix matching
    assert caught.value.value == "Goblin"


def test_n1_aspects_match_folded_unknown_names_the_value():
    _, record = act(party(), ActRequest("ARIA", " finesse "), ScriptedDice([1] * 4))
    assert record.aspect == "Finesse" and record.actor == "Aria"
    with pytest.raises(InputError, match="no such Aspect") as caught:
        act(party(), ActRequest("Aria", "Fin"), no_dice())
    assert caught.value.field == "ASPECT" and caught.value.value == "Fin"


def test_new_creature_validation():
    with pytest.raises(InputError, match="cannot be empty"):
        new_creature("  ", (("Might", 1),))
    with pytest.raises(InputError, match="at least one Aspect"):
        new_creature("Aria", ())
    with pytest.raises(InputError, match="same Aspect"):
        new_creature("Aria", (("Might", 1), ("MIGHT", 2)))


def test_status_json_shape():
    encounter, _ = start_turn(party())
    obj = status_json(encounter)
    assert (obj["round"], obj["mode"], obj["current"]) == (1, "turn", "Aria")
    aria = obj["creatures"][0]
    assert aria == {
        "name": "Aria",
        "aspects": {"Finesse": 4, "Might": 2},
        "load": -1,
        "buffer": 1,
        "load_buffer": 1,
        "exhaustion": 0,
        "evasion": 11,
        "hp": 12,
        "headroom": {"Finesse": 5, "Might": 3},
        "pending": {"advantage": [], "disadvantage": []},
        "effects": [],
        "reset_value": -1,
        "had_turn": True,
        "down": False,
        "max_hp": None,
        "hidden": False,
        "alias": None,
        "side": None,
        "attributes": {},
        "proficiencies": {},
        "specializations": {},
        "actions": [],
        "notes": "",
    }
    assert obj["round_reset"] == "buffer" and obj["creatures"][1]["had_turn"] is False


def test_act_log_entry_has_the_history_fields():
    encounter, _ = start_turn(party())
    _, record = act(
        encounter,
        ActRequest("Aria", "Finesse", extra=(ExtraDice(1, 4),), target="Goblin Archer"),
        ScriptedDice([4, 4, 4, 4, 2]),
    )
    entry = journal_json(record)
    assert entry["kind"] == "act" and entry["round"] == 1 and entry["turn"] == "Aria"
    assert entry["dice"] == [4, 4, 4, 4] and entry["extra"] == [
        {"notation": "1d4", "dice": [2], "modifier": 0}
    ]
    assert (entry["total"], entry["evasion"], entry["damage"], entry["hp_after"]) == (18, 10, 8, 0)
    assert (entry["load_before"], entry["load_after"], entry["cost"]) == (-1, 0, 1)
