"""Lasting effects (R20): the duration table, sources under R4, the commands and their bad input."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from _cli import ok, run

from d4cli.fight.actions import ActRequest, act
from d4cli.fight.effect_transitions import add_effect, make_effect, sources_for
from d4cli.fight.effects import (
    Effect,
    RoundEnd,
    TurnEnd,
    TurnStart,
    Used,
    ended_at,
)
from d4cli.fight.encounter_state import Encounter, new_creature
from d4cli.fight.team import TeamRequest, team
from d4cli.fight.turns import add_creature, end_turn, remove_creature, start_turn
from d4cli.fileformat.encounter_toml import dump_encounter, parse_encounter
from d4cli.journal.effect_facts import effect_json, end_reason
from d4cli.output.effecttext import describe


class Dice:
    def randint(self, low: int, high: int) -> int:
        return high


def trio(mode: str) -> Encounter:
    encounter = Encounter(name="t", mode=mode)
    for name in ("Aria", "Borin", "Cyra"):
        encounter, _ = add_creature(encounter, new_creature(name, (("Might", 3),)))
    return encounter


def setup(encounter: Encounter, when: str) -> Encounter:
    """Bring the trio to *when*: ``before`` (round 0), ``own`` (Aria's turn), ``reaction``
    (Borin's turn), ``third`` (Cyra's turn), all in round 1."""
    turns = {"before": 0, "own": 1, "reaction": 2, "third": 3}[when]
    for _ in range(turns):
        encounter, _ = start_turn(encounter)
    return encounter


def first_ending(encounter: Encounter, source: str) -> tuple[str, str, int, str] | None:
    """Run whole turns (end, start, ...) for four rounds; the first change that ended *source*:
    ``(kind, whose turn, round, reason)``."""
    for _ in range(30):
        if encounter.current is not None:
            encounter, event = end_turn(encounter)
        else:
            encounter, event = start_turn(encounter)
        for gone in event.effects_ended:
            if gone.effect.source == source:
                return event.kind, event.actor, event.round, end_reason(gone)
    return None


CASES = [
    # (when applied, duration options, expected ending)
    ("own", {"start_of": "Borin"}, ("turn-start", "Borin", 1, "start of Borin's turn")),
    ("own", {"start_of": "Aria"}, ("turn-start", "Aria", 2, "start of Aria's turn")),
    (
        "reaction",
        {"start_of": "Aria"},
        ("turn-start", "Aria", 2, "start of Aria's turn"),
    ),  # not a round later
    ("reaction", {"start_of": "Borin"}, ("turn-start", "Borin", 2, "start of Borin's turn")),
    (
        "third",
        {"start_of": "Cyra"},
        ("turn-start", "Cyra", 2, "start of Cyra's turn"),
    ),  # third creature, one round later
    ("before", {"start_of": "Cyra"}, ("turn-start", "Cyra", 1, "start of Cyra's turn")),
    ("own", {"end_of": "Aria"}, ("turn-end", "Aria", 1, "end of Aria's turn")),  # the running turn
    ("reaction", {"end_of": "Aria"}, ("turn-end", "Aria", 2, "end of Aria's turn")),  # its next
    ("reaction", {"end_of": "Borin"}, ("turn-end", "Borin", 1, "end of Borin's turn")),
    ("before", {"end_of": "Aria"}, ("turn-end", "Aria", 1, "end of Aria's turn")),
    ("own", {"rounds": 1}, ("turn-start", "Aria", 2, "end of round 1")),
    ("own", {"rounds": 2}, ("turn-start", "Aria", 3, "end of round 2")),
    ("reaction", {"rounds": 1}, ("turn-start", "Aria", 2, "end of round 1")),
    ("third", {"rounds": 3}, ("turn-start", "Aria", 4, "end of round 3")),
    ("before", {"rounds": 1}, ("turn-start", "Aria", 2, "end of round 1")),
    ("before", {"rounds": 2}, ("turn-start", "Aria", 3, "end of round 2")),
    ("own", {}, None),
    ("reaction", {}, None),
    ("before", {}, None),
    ("own", {"uses": 1}, None),  # turns never end a count of rolls
    ("reaction", {"uses": 2}, None),
    ("before", {"uses": 3}, None),
]


@pytest.mark.parametrize("mode", ["turn", "round"])
@pytest.mark.parametrize(("when", "duration", "expected"), CASES)
def test_r20_an_effect_ends_at_the_exact_turn(mode, when, duration, expected):
    encounter = setup(trio(mode), when)
    effect = make_effect(encounter, "blinded", "disadvantage", **duration)
    encounter, _ = add_effect(encounter, "Aria", effect)
    assert first_ending(encounter, "blinded") == expected


@pytest.mark.parametrize("mode", ["turn", "round"])
@pytest.mark.parametrize("when", ["before", "own", "reaction"])
def test_r20_uses_end_after_that_many_rolls_it_applied_to(mode, when):
    encounter = setup(trio(mode), when)
    encounter, _ = add_effect(
        encounter, "Aria", make_effect(encounter, "bless", "advantage", uses=2)
    )
    encounter, _ = add_effect(
        encounter, "Borin", make_effect(encounter, "prone", "advantage", against=True, uses=1)
    )
    encounter, first = act(encounter, ActRequest("Aria", "Might", cost=0), Dice())
    assert first.result.plan.advantage == ("bless",) and first.effects_ended == ()
    encounter, _ = act(encounter, ActRequest("Borin", "Might", cost=0), Dice())  # neither applies
    encounter, second = act(encounter, ActRequest("Aria", "Might", cost=0, target="Borin"), Dice())
    assert second.result.plan.advantage == ("bless", "prone")
    assert [(g.creature, g.effect.source, end_reason(g)) for g in second.effects_ended] == [
        ("Aria", "bless", "used up"),
        ("Borin", "prone", "used up"),
    ]
    assert encounter.find("Aria").effects == () and encounter.find("Borin").effects == ()


def test_r20_rounds_end_at_a_new_round_when_no_turn_was_ended():
    encounter = trio("turn")
    encounter, _ = add_effect(
        encounter, "Aria", make_effect(encounter, "haste", "advantage", rounds=1)
    )
    for _ in range(3):
        encounter, event = start_turn(encounter)
        assert event.effects_ended == ()
    encounter, event = start_turn(encounter)
    assert (event.round, event.actor) == (2, "Aria")
    assert [end_reason(g) for g in event.effects_ended] == ["end of round 1"]


def test_r20_applied_after_the_last_turn_end_counts_in_the_running_round():
    """R19/R20 as amended: after the last turn end of round 1 the round is still 1, so
    ``--rounds 1`` lasts to its end, the turn start that begins round 2."""
    encounter = setup(trio("turn"), "third")
    encounter, _ = end_turn(encounter)  # everyone has had a turn; round 1 still open
    encounter, _ = add_effect(
        encounter, "Aria", make_effect(encounter, "haste", "advantage", rounds=1)
    )
    assert encounter.find("Aria").effects[0].last_round == 1
    assert first_ending(encounter, "haste") == ("turn-start", "Aria", 2, "end of round 1")


def test_r20_starting_a_turn_ends_the_running_one_first():
    encounter = setup(trio("turn"), "own")
    encounter, _ = add_effect(
        encounter, "Borin", make_effect(encounter, "guard", "advantage", end_of="Aria")
    )
    encounter, event = start_turn(encounter, "Cyra")
    assert [end_reason(g) for g in event.effects_ended] == ["end of Aria's turn"]


def test_r17_r20_removed_creature_effects_go_and_timed_ones_end_with_the_removal():
    encounter = setup(trio("turn"), "own")
    encounter, _ = add_effect(
        encounter, "Aria", make_effect(encounter, "mark", "disadvantage", start_of="Borin")
    )
    encounter, _ = add_effect(encounter, "Borin", make_effect(encounter, "shield", "advantage"))
    encounter, event = remove_creature(encounter, "Borin")
    assert [(g.creature, g.effect.source, end_reason(g)) for g in event.effects_ended] == [
        ("Borin", "shield", "Borin removed"),
        ("Aria", "mark", "Borin removed, and its turn with it (R17)"),
    ]
    assert encounter.find("Aria").effects == ()
    assert first_ending(encounter, "mark") is None


def test_ended_at_is_pure_and_keeps_order():
    effects = (
        Effect("a", ends="start", creature="Borin"),
        Effect("b", ends="end", creature="borin"),
        Effect("c", ends="rounds", last_round=2),
        Effect("d"),
    )
    assert ended_at(effects, TurnStart("BORIN", 1)) == (effects[1:], effects[:1])
    assert ended_at(effects, TurnEnd("Borin", 1)) == (
        (effects[0], effects[2], effects[3]),
        (effects[1],),
    )
    assert ended_at(effects, RoundEnd(1)) == (effects, ())
    assert ended_at(effects, RoundEnd(2))[1] == (effects[2],)
    counted = (
        Effect("x", ends="uses", uses=2),
        Effect("y", ends="uses", uses=1),
        Effect("z", on="against", ends="uses", uses=1),
    )
    assert ended_at(counted, Used("own")) == (
        (Effect("x", ends="uses", uses=1), counted[2]),
        (counted[1],),
    )


def test_r4_r20_an_effect_and_the_same_source_on_the_command_line_count_once():
    encounter = trio("turn")
    encounter, _ = add_effect(encounter, "Aria", make_effect(encounter, "Darkness", "disadvantage"))
    _, record = act(encounter, ActRequest("Aria", "Might", disadvantage=("darkness",)), Dice())
    plan = record.result.plan
    assert plan.disadvantage == ("darkness",) and plan.net_advantage == -1 and plan.size.size == 2
    assert record.sources == (
        ("darkness", "disadvantage", "command"),
        ("Darkness", "disadvantage", "effect"),
    )


def test_sources_for_own_and_against_with_their_origins():
    encounter = trio("turn")
    encounter, _ = add_effect(encounter, "Aria", make_effect(encounter, "torch", "advantage"))
    encounter, _ = add_effect(
        encounter, "Aria", make_effect(encounter, "prone", "advantage", against=True)
    )
    encounter, _ = add_effect(
        encounter, "Borin", make_effect(encounter, "dodge", "disadvantage", against=True)
    )
    encounter, _ = team(encounter, TeamRequest("Cyra", "Aria", "advantage", source="Watch My Back"))
    assert sources_for(encounter, "Aria") == [
        ("torch", "advantage", "effect"),
        ("Watch My Back", "advantage", "team"),
    ]
    assert sources_for(encounter, "Aria", "Borin")[-1] == ("dodge", "disadvantage", "effect")
    assert sources_for(encounter, "Borin", "Aria") == [("prone", "advantage", "effect")]


def test_r11_a_team_grant_is_a_one_roll_effect_and_old_pending_files_load():
    encounter, _ = team(trio("turn"), TeamRequest("Cyra", "Aria", "disadvantage"))
    assert encounter.find("Aria").effects == (
        Effect("team action", "disadvantage", "own", "uses", uses=1, origin="team"),
    )
    old = dump_encounter(trio("turn")).replace(
        '[[creature]]\nname = "Borin"',
        '[[creature]]\nname = "Borin"\npending = { advantage = ["help"] }',
        1,
    )
    loaded = parse_encounter(old, "old.toml")
    assert loaded.find("Borin").effects == (
        Effect("help", "advantage", "own", "uses", uses=1, origin="team"),
    )
    assert (
        "pending" not in dump_encounter(loaded)
        and parse_encounter(dump_encounter(loaded), "x") == loaded
    )


def test_status_words():
    assert (
        describe(effect_json(Effect("darkness", "disadvantage")), 1)
        == "darkness -1d4, until removed"
    )
    assert (
        describe(effect_json(Effect("blessed", ends="rounds", last_round=3)), 2)
        == "blessed +1d4, 2 rounds left (until the end of round 3)"
    )
    prone = Effect("prone", on="against", ends="start", creature="Aria")
    assert (
        describe(effect_json(prone), 1)
        == "prone, attacks against it +1d4, until the start of Aria's turn"
    )


# --- the commands ------------------------------------------------------------------------------


@pytest.fixture
def fight(isolated_env) -> Path:
    path = Path(os.environ["D4CLI_FILE"])
    ok("init")
    for name in ("Aria", "Goblin Archer", "Borin"):
        ok("add", name, "--aspect", "Might=3")
    return path


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["Aria", "x", "--adv", "--dis"], "--adv/--dis"),
        (["Aria", "x"], "--adv/--dis"),
        (["Aria", "x", "--adv", "--rounds", "1", "--uses", "2"], "--rounds/--uses"),
        (
            ["Aria", "x", "--adv", "--until-start-of", "Aria", "--until-end-of", "Aria"],
            "--until-start-of/--until-end-of",
        ),
        (["Aria", "x", "--adv", "--rounds", "0"], "--rounds"),
        (["Aria", "x", "--adv", "--uses", "0"], "--uses"),
        (["Aria", "x", "--adv", "--until-start-of", "Nobody"], "--until-start-of"),
        (["Aria", "x", "--adv", "--until-end-of", "Nobody"], "--until-end-of"),
        (["Aria", "  ", "--adv"], "SOURCE"),
        (["Aria", "a\x01b", "--adv"], "SOURCE"),
        (["Nobody", "x", "--adv"], "NAME"),
    ],
)
def test_effect_add_bad_input_is_one_line_exit_2_nothing_changed(fight, args, field):
    before = fight.read_bytes()
    result = run("effect", "add", *args)
    assert result.exit_code == 2, result.stdout
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"d4cli: error: {field}")
    assert fight.read_bytes() == before


def test_effect_remove_of_a_source_it_lacks(fight):
    ok("effect", "add", "Aria", "torch", "--adv")
    before = fight.read_bytes()
    result = run("effect", "remove", "Aria", "darkness")
    assert result.exit_code == 2 and "has no such effect (it has: torch)" in result.stderr
    assert fight.read_bytes() == before
    ok("effect", "remove", "Aria", "  TORCH ")
    assert json.loads(ok("effect", "list", "--json").stdout)["effects"] == []


def test_adding_the_same_folded_source_replaces_its_duration_and_says_so(fight):
    ok("effect", "add", "Aria", "Blessed", "--adv", "--rounds", "2")
    result = ok("effect", "add", "Aria", "blessed", "--adv", "--uses", "1")
    assert "replaced the same source" in result.stdout
    obj = json.loads(ok("effect", "add", "Aria", "BLESSED", "--adv", "--json").stdout)
    assert obj["replaced"]["ends"] == {
        "kind": "uses",
        "creature": None,
        "last_round": None,
        "uses": 1,
    }
    effects = json.loads(ok("status", "--json").stdout)["creatures"][0]["effects"]
    assert effects == [
        {
            "source": "BLESSED",
            "grant": "advantage",
            "on": "own",
            "ends": {"kind": "removed", "creature": None, "last_round": None, "uses": None},
            "origin": "effect",
            "level": 1,
        }
    ]


def test_act_counts_an_effect_and_the_command_line_source_once(fight):
    ok("effect", "add", "Aria", "Darkness", "--dis")
    obj = json.loads(
        ok("act", "Aria", "Might", "--dis", "darkness", "--seed", "1", "--json").stdout
    )
    assert (
        obj["disadvantage"] == ["darkness"] and obj["net_advantage"] == -1 and obj["pool_size"] == 2
    )
    assert obj["sources"] == [
        {"source": "darkness", "grant": "disadvantage", "origin": "command-line"},
        {"source": "Darkness", "grant": "disadvantage", "origin": "effect"},
    ]
    text = ok("act", "Aria", "Might", "--dry-run", "--seed", "1", "--odds").stdout
    assert "-Darkness (effect)" in text and "Sources" in text


def test_undo_of_a_turn_start_that_ended_two_effects_brings_both_back(fight):
    ok("turn", "start")
    ok("effect", "add", "Aria", "blinded", "--dis", "--until-start-of", "Goblin Archer")
    ok("effect", "add", "Borin", "prone", "--adv", "--against", "--until-start-of", "Goblin Archer")
    before = fight.read_bytes()
    result = ok("turn", "start")
    assert "blinded on Aria ended: start of Goblin Archer's turn" in result.stdout
    assert "prone on Borin ended: start of Goblin Archer's turn" in result.stdout
    after = fight.read_bytes()
    assert b"blinded" not in after and b"prone" not in after
    entry = json.loads(ok("log", "--json").stdout)["entries"][-1]
    assert [gone["source"] for gone in entry["effects_ended"]] == ["blinded", "prone"]
    ok("undo")
    assert fight.read_bytes() == before
    ok("redo")
    assert fight.read_bytes() == after


def test_status_lists_effects_with_what_is_left(fight):
    ok("effect", "add", "Aria", "darkness", "--dis")
    ok("effect", "add", "Goblin Archer", "prone", "--adv", "--against", "--until-start-of", "Aria")
    ok("effect", "add", "Borin", "blessed", "--adv", "--rounds", "2")
    text = ok("status").stdout
    assert "darkness -1d4, until removed" in text
    assert "blessed +1d4, 2 rounds left" in text
    assert "prone, attacks against it +1d4, until the start of Aria's" in text


def test_completion_of_effect_sources_and_duration_names(fight):
    from types import SimpleNamespace

    from d4cli.cli.completion.creatures import complete_creature, complete_effect_source

    ok("effect", "add", "Goblin Archer", "Blinded", "--dis")
    ok("effect", "add", "Goblin Archer", "bless", "--adv")
    ctx = SimpleNamespace(
        params={"file": str(fight), "name": "goblin archer"}, parent=None, command=None
    )
    assert complete_effect_source(ctx, "") == ["Blinded", "bless"]
    assert complete_effect_source(ctx, "bli") == ["Blinded"]
    nobody = SimpleNamespace(
        params={"file": str(fight), "name": "Nobody"}, parent=None, command=None
    )
    assert complete_effect_source(nobody, "") == []
    assert complete_creature(
        SimpleNamespace(params={"file": str(fight)}, parent=None, command=None), "go"
    ) == ["Goblin Archer"]


def test_every_reason_an_effect_ends_has_its_words():
    from d4cli.fight import effects
    from d4cli.journal import effect_facts as journal_effects

    assert set(journal_effects.END_REASONS) == set(effects.END_REASONS)
    gone = effects.Ended("Aria", effects.Effect("bless"), effects.TURN_SKIPPED, "Bram", 2)
    assert end_reason(gone) == "end of round 2, Bram is down and its turn was skipped (R18)"
