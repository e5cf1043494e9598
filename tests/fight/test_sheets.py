"""Creature sheets: stored stats, `check NAME` (C8), named actions, sides, `status NAME`.

conftest's autouse fixture points D4CLI_FILE at a temp folder, so no test touches real files.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from _cli import fails, files, ok, ok_json, run

from d4cli.fight.effect_transitions import add_effect, make_effect
from d4cli.fight.effects import Pending, team_grant_effects
from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.sheet_check import SheetCheckRequest, Source, sheet_check
from d4cli.fileformat.encounter_toml import bundled_examples, dump_encounter, parse_encounter
from d4cli.rules.dice import ScriptedDice
from d4cli.rules.errors import FileError, InputError


@pytest.fixture
def sheet_file(isolated_env) -> Path:
    path = Path(os.environ["D4CLI_FILE"])
    ok("init", "--name", "Sheets")
    ok(
        "add",
        "Aldric",
        "--aspect",
        "Might=3",
        "--attribute",
        "Willpower=2",
        "--proficiency",
        "Discipline=1",
        "--specialization",
        "Courage=2",
        "--side",
        "party",
    )
    ok("add", "Aria", "--aspect", "Finesse=4", "--aspect", "Might=2", "--side", "party")
    ok(
        "add",
        "Goblin Archer",
        "--aspect",
        "Finesse=3",
        "--evasion",
        "2",
        "--hp",
        "20",
        "--side",
        "foes",
    )
    ok("action", "add", "Aria", "dagger", "--aspect", "Finesse", "--cost", "1", "--extra", "1d4")
    return path


# --- the done-when checks -----------------------------------------------------------------


def test_check_with_a_disadvantage_source_lowers_the_level_and_undo_removes_it(sheet_file):
    ok("team", "Aria", "Aldric", "--dis", "--aspect", "Finesse", "--source", "shaken")
    before = sheet_file.read_bytes()
    obj = ok_json(
        "check",
        "Aldric",
        "--attribute",
        "Willpower",
        "--proficiency",
        "Discipline",
        "--dc",
        "hard",
        "--advantage",
        "1",
        "--seed",
        "3",
    )
    assert obj["kind"] == "check" and obj["actor"] == "Aldric"
    assert (obj["advantage_level"], obj["disadvantage"], obj["effective_level"]) == (1, 1, 0)
    assert (obj["attribute"], obj["attribute_name"]) == (2, "Willpower")
    assert (obj["proficiency"], obj["proficiency_name"]) == (1, "Discipline")
    assert obj["specialization_name"] is None and obj["dc"] == 18
    assert obj["sources"] == [
        {
            "name": "shaken",
            "grant": "disadvantage",
            "origin": "team action",
            "level": 1,
            "counted": True,
        }
    ]
    assert obj["total"] == obj["natural"] + 3 and obj["advantage_dice"] == []
    log = ok_json("log")["entries"]
    assert log[-1]["kind"] == "check" and log[-1]["attribute_name"] == "Willpower"
    status = ok_json("status", "Aldric")
    assert status["pending"] == {"advantage": [], "disadvantage": []}  # the grant was used (R11)
    assert status["load"] == -1  # a check never changes Load (C8)
    undone = ok_json("undo")
    assert undone["undone"]["kind"] == "check"
    assert sheet_file.read_bytes() == before
    assert ok_json("log")["entries"][-1]["kind"] == "team"


def test_check_quiet_prints_only_the_total(sheet_file):
    args = (
        "check",
        "Aldric",
        "--attribute",
        "Willpower",
        "--dc",
        "hard",
        "--seed",
        "3",
        "--dry-run",
    )
    total = ok_json(*args)["total"]
    quiet = ok(*args, "--quiet")
    assert quiet.stdout == f"{total}\n"
    assert ok(*args, "-q").stdout == f"{total}\n"


def test_a_lasting_effect_counts_on_a_check_and_a_second_disadvantage_makes_it_impossible(
    sheet_file,
):
    ok("effect", "add", "Aldric", "shaken", "--dis")
    obj = ok_json(
        "check",
        "Aldric",
        "--attribute",
        "Willpower",
        "--proficiency",
        "Discipline",
        "--dc",
        "hard",
        "--advantage",
        "1",
        "--seed",
        "3",
    )
    assert (obj["advantage_level"], obj["disadvantage"], obj["effective_level"]) == (1, 1, 0)
    assert (obj["attribute"], obj["proficiency"]) == (2, 1)
    assert obj["sources"] == [
        {"name": "shaken", "grant": "disadvantage", "origin": "effect", "level": 1, "counted": True}
    ]
    before = sheet_file.read_bytes()
    refused = run("check", "Aldric", "--attribute", "Willpower", "--dis", "dread", "--json")
    assert refused.exit_code == 3 and json.loads(refused.stdout)["impossible"] is True
    assert sheet_file.read_bytes() == before


def test_a_second_disadvantage_source_makes_the_check_impossible_and_changes_nothing(sheet_file):
    ok("team", "Aria", "Aldric", "--dis", "--aspect", "Finesse", "--source", "shaken")
    line = fails(
        3,
        sheet_file,
        "check",
        "Aldric",
        "--attribute",
        "Willpower",
        "--dc",
        "hard",
        "--advantage",
        "1",
        "--dis",
        "darkness",
    )
    assert "impossible (C4)" in line
    result = run("check", "Aldric", "--attribute", "Willpower", "--dis", "darkness", "--json")
    assert result.exit_code == 3
    obj = json.loads(result.stdout)
    assert obj["impossible"] is True and obj["natural"] is None and obj["disadvantage"] == 2


def test_same_source_twice_counts_once_and_advantage_sources_raise_the_level(sheet_file):
    obj = ok_json(
        "check",
        "Aldric",
        "--attribute",
        "Willpower",
        "--adv",
        "Bless",
        "--adv",
        " bless ",
        "--adv",
        "torch",
        "--advantage",
        "4",
        "--seed",
        "1",
    )
    assert obj["advantage_level"] == 5  # 4 + 2 distinct sources, capped at 5 (C8)
    assert [s["counted"] for s in obj["sources"]] == [True, False, True]
    assert len(obj["advantage_dice"]) == 5


def test_act_uses_a_named_action_and_options_override_it(sheet_file):
    obj = ok_json("act", "Aria", "dagger", "--target", "Goblin Archer", "--seed", "1")
    assert (obj["aspect_name"], obj["cost"], obj["target"]) == ("Finesse", 1, "Goblin Archer")
    assert [extra["notation"] for extra in obj["extra"]] == ["1d4"]
    obj = ok_json("act", "Aria", "dagger", "--cost", "2", "--seed", "1")
    assert obj["cost"] == 2 and [extra["notation"] for extra in obj["extra"]] == ["1d4"]
    obj = ok_json("act", "Aria", "DAGGER", "--extra", "1d8", "--dry-run", "--seed", "1")
    assert [extra["notation"] for extra in obj["extra"]] == ["1d8"]
    obj = ok_json("act", "Aria", "Might", "--cost", "0", "--seed", "1")  # an Aspect keeps working
    assert (obj["aspect_name"], obj["cost"], obj["extra"]) == ("Might", 0, [])


def test_stored_check_odds_equal_roll_check_odds(sheet_file):
    stored = ok_json(
        "check",
        "Aldric",
        "--attribute",
        "Willpower",
        "--proficiency",
        "Discipline",
        "--specialization",
        "Courage",
        "--dc",
        "hard",
        "--advantage",
        "2",
        "--odds",
        "--dry-run",
        "--seed",
        "1",
    )
    plain = ok_json(
        "roll",
        "check",
        "--attribute",
        "2",
        "--proficiency",
        "1",
        "--specialization",
        "2",
        "--dc",
        "hard",
        "--advantage",
        "2",
        "--odds",
        "--seed",
        "1",
    )
    assert stored["odds"] == plain["odds"] and stored["odds"] is not None
    assert stored["total"] == plain["total"] and stored["dry_run"] is True


def test_dry_run_writes_nothing(sheet_file):
    before = files(sheet_file)
    ok("check", "Aldric", "--attribute", "Willpower", "--dry-run", "--seed", "1")
    assert files(sheet_file) == before


# --- bad input: one line naming the creature and the field, exit 2, nothing changed -------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ("check", "Aldric", "--attribute", "Strength"),
            ["Aldric", "--attribute", "Strength", "it has: Willpower"],
        ),
        (
            ("check", "Aldric", "--proficiency", "Willpower"),
            ["Aldric", "--proficiency", "it has: Discipline"],
        ),
        (("check", "Aldric", "--advantage", "6"), ["Aldric", "--advantage", "6"]),
        (("check", "Aldric", "--dc", "tough"), ["Aldric", "--dc", "tough"]),
        (("check", "Aldric", "--dc", "3.5"), ["Aldric", "--dc", "3.5"]),
        (
            ("add", "Bob", "--aspect", "Might=1", "--attribute", "Strength=1.5"),
            ["Bob", "--attribute", "Strength=1.5"],
        ),
        (
            ("add", "Bob", "--aspect", "Might=1", "--attribute", "Strength=1001"),
            ["Bob", "--attribute", "-1000..1000"],
        ),
        (
            ("add", "Bob", "--aspect", "Might=1", "--proficiency", "Melee"),
            ["Bob", "--proficiency", "NAME=N"],
        ),
        (("action", "add", "Aria", "bow", "--aspect", "Wits"), ["Aria", "--aspect", "Wits"]),
        (
            ("action", "add", "Aria", "bow", "--aspect", "Finesse", "--extra", "0d8"),
            ["Aria", "--extra", "0d8"],
        ),
        (
            ("action", "add", "Aria", "bow", "--aspect", "Finesse", "--cost", "-1"),
            ["Aria", "--cost", "-1"],
        ),
        (("action", "add", "Aria", "finesse", "--aspect", "Finesse"), ["Aria", "ACTION", "Aspect"]),
        (("action", "remove", "Aria", "bow"), ["ACTION", "bow", "dagger"]),
        (("act", "Aria", "bow"), ["ASPECT", "bow", "dagger"]),
    ],
)
def test_bad_input_names_creature_and_field(sheet_file, args, words):
    line = fails(2, sheet_file, *args)
    for word in words:
        assert word in line


BASE = """schema_version = 2
mode = "turn"
round = 0

[[creature]]
name = "Aldric"
load_buffer = 1
exhaustion = 0
load = -1
aspects = { Might = 3 }
"""


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ("attributes = { Willpower = 2.5 }\n", ["Aldric", "attributes.Willpower", "whole"]),
        ("attributes = { Willpower = 1001 }\n", ["Aldric", "attributes.Willpower", "-1000..1000"]),
        ("attributes = { Willpower = true }\n", ["attributes.Willpower", "whole"]),
        ("atributes = { Willpower = 1 }\n", ["atributes", "did you mean 'attributes'"]),
        (
            '[[creature.actions]]\nname = "swing"\naspect = "Wits"\n',
            ["Aldric", "actions.swing.aspect", "Wits"],
        ),
        (
            '[[creature.actions]]\nname = "swing"\naspect = "Might"\ncost = -1\n',
            ["actions.swing.cost"],
        ),
        (
            '[[creature.actions]]\nname = "swing"\naspect = "Might"\nextra = ["1d8x"]\n',
            ["actions.swing.extra", "1d8x"],
        ),
        (
            '[[creature.actions]]\nname = "MIGHT"\naspect = "Might"\n',
            ["actions.MIGHT.name", "Aspect"],
        ),
        (
            '[[creature.actions]]\nname = "swing"\naspect = "Might"\ncots = 1\n',
            ["actions.swing.cots", "did you mean 'cost'"],
        ),
    ],
)
def test_file_sheet_errors_name_creature_and_field(extra, words):
    with pytest.raises(FileError) as caught:
        parse_encounter(BASE + extra, "e.toml")
    for word in words:
        assert word in str(caught.value)


def test_files_without_sheets_load_unchanged_and_sheets_round_trip():
    plain = parse_encounter(BASE, "e.toml")
    assert (
        plain.creatures[0].attributes == ()
        and plain.creatures[0].actions == ()
        and plain.creatures[0].side == ""
    )
    assert "attributes" not in dump_encounter(plain) and "side" not in dump_encounter(plain)
    full = parse_encounter(
        BASE
        + 'side = "party"\nattributes = { Willpower = 2 }\n[[creature.actions]]\nname = "swing"\n'
        'aspect = "might"\ncost = 2\nextra = ["1d8+1"]\ndc = 12\nadvantage = ["reach"]\n',
        "e.toml",
    )
    action = full.creatures[0].actions[0]
    assert (action.aspect, action.cost, action.extra, action.dc, action.advantage) == (
        "Might",
        2,
        ("1d8+1",),
        12,
        ("reach",),
    )
    assert parse_encounter(dump_encounter(full), "e.toml") == full


def test_bundled_skirmish_has_sheets_on_two_sides():
    path = bundled_examples()["skirmish"]
    encounter = parse_encounter(path.read_text(encoding="utf-8"), path)
    assert {creature.side for creature in encounter.creatures} == {"party", "foes"}
    for creature in encounter.creatures:
        assert creature.hp is not None and creature.attributes and len(creature.actions) >= 2


# --- the pure transition and its hook -----------------------------------------------------


def test_sheet_check_is_pure_and_counts_lasting_effects():
    aldric = Creature(
        "Aldric",
        (("Might", 3),),
        attributes=(("Willpower", 2),),
        effects=team_grant_effects((), Pending(advantage=("help",))),
    )
    encounter = Encounter(creatures=(aldric,))
    request = SheetCheckRequest("aldric", attribute="willpower", dc=10)
    new, record = sheet_check(encounter, request, ScriptedDice([10, 4]))
    assert record.result.total == 10 + 2 + 4 and record.result.request.advantage_level == 1
    assert new.creatures[0].grants == Pending() and new.creatures[0].load == aldric.load
    shaken = make_effect(encounter, "shaken", "disadvantage")
    with_effect, _ = add_effect(encounter, "Aldric", shaken)
    _, record = sheet_check(with_effect, request, ScriptedDice([10]))
    assert record.result.levels.effective_level == 0 and record.result.total == 12
    assert Source("shaken", "disadvantage", "effect") in record.counted
    with pytest.raises(InputError, match="no such Proficiency"):
        sheet_check(encounter, SheetCheckRequest("Aldric", proficiency="Melee"), ScriptedDice([]))


# --- human output -------------------------------------------------------------------------


def test_check_and_sheet_output(sheet_file, snapshot):
    ok("team", "Aria", "Aldric", "--adv", "--aspect", "Finesse", "--source", "inspired")
    check = ok(
        "check",
        "Aldric",
        "--attribute",
        "Willpower",
        "--proficiency",
        "Discipline",
        "--dc",
        "medium",
        "--advantage",
        "1",
        "--adv",
        "Inspired",
        "--seed",
        "4",
    ).stdout
    sheet = ok("status", "Aria").stdout
    log = re.sub(r"(?m)^(#\d+ +)\d\d:\d\d", r"\g<1>00:00", ok("log", "--last", "2").stdout)
    assert check + sheet + log == snapshot


def test_completion_offers_the_typed_creatures_sheet_names(sheet_file):
    from types import SimpleNamespace

    from d4cli.cli.completion.sheet_names import (
        complete_action,
        complete_aspect_or_action,
        complete_attribute,
    )

    ctx = SimpleNamespace(params={"name": "aldric"}, parent=None, command=None)
    assert complete_attribute(ctx, "will") == ["Willpower"]
    aria = SimpleNamespace(params={"name": "Aria"}, parent=None, command=None)
    assert complete_action(aria, "") == ["dagger"]
    assert complete_aspect_or_action(aria, "") == ["Finesse", "Might", "dagger"]


def test_action_remove_and_redo_of_a_check(sheet_file):
    obj = ok_json("action", "remove", "Aria", "DAGGER")
    assert obj["kind"] == "action-remove" and obj["action"] == {
        "name": "dagger",
        "aspect": "Finesse",
        "cost": 1,
        "extra": ["1d4"],
    }
    assert ok_json("status", "Aria")["actions"] == []
    ok("check", "Aldric", "--attribute", "Willpower", "--note", "resists the dread", "--seed", "2")
    after = sheet_file.read_bytes()
    ok("undo")
    redone = ok_json("redo")["redone"]
    assert redone["kind"] == "check" and redone["note"] == "resists the dread"
    assert sheet_file.read_bytes() == after


def test_status_name_shows_hp_down_turn_and_lasting_effects(isolated_env):
    ok("init", "--from", "skirmish", "--force")
    ok("turn", "start")
    ok("effect", "add", "Borin", "blessed", "--adv", "--rounds", "2")
    sheet = ok("status", "Borin").stdout
    assert "16/16" in sheet and "not yet this round (R19)" in sheet
    assert "blessed +1d4, 2 rounds left (until the end of round 2)" in sheet
    ok("damage", "Goblin Archer", "20")
    downed = ok("status", "Goblin Archer").stdout
    assert "0/7: down, cannot act (R18)" in downed
    assert "down: skipped until healed above 0 (R18, R19)" in downed and "not yet" not in downed
    assert "its turn now (R19)" in ok("status", "Aria").stdout
    ok("turn", "start")
    assert "had its turn this round (R19)" in ok("status", "Aria").stdout


def test_the_file_reader_knows_every_sheet_key():
    # A creature row with none of these keys is read without the sheet rules (start-up).
    from d4cli.fight.sheets import SHEET_KEYS
    from d4cli.fileformat.creature_toml import CREATURE_KEYS
    from d4cli.fileformat.creature_toml import SHEET_KEYS as READ

    assert set(READ) == set(SHEET_KEYS) and set(READ) <= set(CREATURE_KEYS)
