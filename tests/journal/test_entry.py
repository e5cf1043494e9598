"""The journal entry's home: every kind written and read back typed through one table, the head
and its schema version, old entries read as they were written."""

from __future__ import annotations

import json

import pytest
from _cli import ok, ok_json
from _journal_v1 import DATA

from d4cli.fight import closed_sets as kinds
from d4cli.fight.actions import ActRequest, act
from d4cli.fight.encounter_state import Encounter, new_creature
from d4cli.fight.hitpoints import damage
from d4cli.fight.sides import FightEnd
from d4cli.fight.turns import add_creature, start_turn
from d4cli.journal import SCHEMA, SCHEMA_KEY
from d4cli.journal.acts import ActChange, CheckChange, TeamChange
from d4cli.journal.changes import HpChange, NoteChange, SetChange, TurnStartChange, ViewChange
from d4cli.journal.effect_facts import EffectChange
from d4cli.journal.entry import (
    KINDS,
    SERIALIZERS,
    InitChange,
    SeveralChange,
    journal_json,
    read_change,
    read_entry,
    read_head,
)
from d4cli.journal.heads import Change
from d4cli.rules.dice import ScriptedDice


def old_lines() -> list[dict]:
    """The fixture journal's lines, as today's main wrote them (no schema version)."""
    text = (DATA / "encounter.toml.journal").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def test_one_table_holds_every_kind_the_log_knows():
    assert set(KINDS) == set(kinds.LOG_KINDS)
    written = {record for kind in KINDS.values() for record in kind.records}
    assert written <= set(SERIALIZERS)


def test_every_entry_of_an_old_journal_reads_typed_with_its_kind_and_version_1():
    lines = old_lines()
    entries = [read_entry(line) for line in lines]
    assert [entry.seq for entry in entries] == list(range(1, 40))
    assert {entry.head.schema for entry in entries} == {1}
    assert all(SCHEMA_KEY not in line for line in lines)
    by_seq = {entry.seq: entry.change for entry in entries}
    assert isinstance(by_seq[1], InitChange) and by_seq[1].template == "skirmish"
    opening = by_seq[6]
    assert isinstance(opening, ActChange)
    assert (opening.actor, opening.target, opening.aspect_name, opening.action) == (
        "Aria",
        "Goblin Archer",
        "Finesse",
        "dagger",
    )
    assert (opening.pool_size, opening.dice, opening.total) == (4, (2, 2, 3, 4), 12)
    assert [(t.notation, t.dice) for t in opening.extra] == [("1d4", (1,))]
    assert (opening.hp_before, opening.hp_after, opening.load_before, opening.load_after) == (
        7,
        5,
        -1,
        0,
    )
    assert entries[5].head.note == "opening strike"
    team = by_seq[7]
    assert isinstance(team, TeamChange) and (team.target, team.grant) == ("Aria", "advantage")
    assert isinstance(by_seq[9], CheckChange) and by_seq[9].attribute_name == "Agility"
    several = by_seq[14]
    assert isinstance(several, SeveralChange) and several.names == ("Goblin Archer", "Goblin Brute")
    assert all(isinstance(part, HpChange) for part in several.parts)
    assert several.roll is not None and several.roll.expression == "1d4"
    assert isinstance(by_seq[13], SeveralChange) and all(
        isinstance(part, EffectChange) for part in by_seq[13].parts
    )
    assert isinstance(by_seq[21], NoteChange) and by_seq[21].set
    assert isinstance(by_seq[23], ViewChange) and by_seq[23].alias_after == "Big One"
    assert isinstance(by_seq[25], SetChange) and [c.field for c in by_seq[25].changes] == [
        "evasion"
    ]
    seat = entries[36]
    assert (seat.head.seat, seat.head.request) == ("Aria", 1)
    assert isinstance(by_seq[38], HpChange) and by_seq[38].down_after


def test_a_new_entry_carries_the_schema_version_that_the_log_never_shows(isolated_env):
    ok("init", "--from", "skirmish")
    ok("turn", "start")
    lines = (isolated_env / "encounter.toml.journal").read_text(encoding="utf-8").splitlines()
    written = [json.loads(line) for line in lines]
    assert [line[SCHEMA_KEY] for line in written] == [SCHEMA, SCHEMA]
    assert [read_head(line).schema for line in written] == [SCHEMA, SCHEMA]
    assert list(written[1])[:4] == ["seq", "time", SCHEMA_KEY, "kind"]
    assert all(SCHEMA_KEY not in entry for entry in ok_json("log")["entries"])
    assert isinstance(read_entry(written[1]).change, TurnStartChange)


def _fight() -> Encounter:
    encounter = Encounter(name="t")
    for name, side in (("A", "party"), ("B", "foes")):
        creature = new_creature(name, (("Might", 3),), hp=5, evasion=2)._replace(side=side)
        encounter, _ = add_creature(encounter, creature)
    encounter, _ = start_turn(encounter)
    return encounter


def test_a_record_written_then_read_back_keeps_its_values():
    encounter, record = act(
        _fight(), ActRequest("A", "Might", target="B"), ScriptedDice([4, 4, 4, 4])
    )
    change = read_change(journal_json(record))
    assert isinstance(change, ActChange)
    assert (change.actor, change.target, change.total, change.damage) == ("A", "B", 12, 10)
    assert (change.hp_before, change.hp_after, change.fight_over) == (5, 0, FightEnd("party"))
    assert change.facts == journal_json(record)
    _, event = damage(encounter, "A", 2)
    hurt = read_change(journal_json(event))
    assert isinstance(hurt, HpChange) and (hurt.amount, hurt.hp_after) == (2, 3)


@pytest.mark.parametrize(
    "facts",
    [
        {"kind": "from-the-future", "round": None, "actor": "A"},
        {"kind": "act", "round": "one", "actor": 7, "hp_before": "7", "sources": "none"},
        {},
    ],
)
def test_an_unknown_kind_or_a_hand_broken_value_reads_as_none_not_an_error(facts):
    change = read_change(facts)
    assert isinstance(change, Change) and change.round is None
    if isinstance(change, ActChange):
        assert (change.actor, change.hp_before, change.sources) == (None, None, ())


def test_an_old_act_whose_aspect_held_the_name_and_a_gm_call_known_by_the_gate():
    change = read_change({"kind": "act", "aspect": "Might", "gate_skipped": True})
    assert isinstance(change, ActChange)
    assert (change.aspect_name, change.aspect, change.gm_called) == ("Might", None, True)
