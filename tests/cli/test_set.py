"""``d4cli set``: a creature's fields (and the [player_view] table) changed mid-fight.

One journaled change, checked as a read of the file checks it; bad input is exit 2 with
the file and its journal byte for byte as they were. conftest's autouse fixture points
D4CLI_FILE at a temp folder and chdirs there.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from _cli import fails, files, ok, ok_json

from d4cli.api import InputError
from d4cli.api.encounter import Tracker

FILE = Path("encounter.toml")


def _creature(name: str) -> dict:
    data = tomllib.loads(FILE.read_text(encoding="utf-8"))
    return next(row for row in data["creature"] if row["name"] == name)


def test_set_changes_several_fields_in_one_entry_and_one_undo():
    ok("init", "--from", "skirmish")
    before = files(FILE)
    done = ok_json("set", "Goblin Archer", "hp=4", "max_hp=9", "aspect.Might=2", "--note", "hurt")
    assert done == {
        "kind": "set",
        "round": 0,
        "turn": None,
        "actor": "Goblin Archer",
        "changes": [
            {"field": "hp", "before": 7, "after": 4},
            {"field": "max_hp", "before": 7, "after": 9},
            {"field": "aspect.Might", "before": 1, "after": 2},
        ],
    }
    row = _creature("Goblin Archer")
    assert (row["hp"], row["max_hp"], row["aspects"]["Might"]) == (4, 9, 2)
    entries = ok_json("log")["entries"]
    assert [entry["kind"] for entry in entries] == ["init", "set"]
    assert entries[-1]["note"] == "hurt"
    assert entries[-1]["changes"][0] == {"field": "hp", "before": 7, "after": 4}
    ok("undo")
    assert files(FILE)[FILE.name] == before[FILE.name]


def test_set_prints_what_changed_and_log_shows_the_same_line():
    ok("init", "--from", "skirmish")
    line = ok("set", "Aria", "side=foes", "evasion_shown=true", "attribute.Agility=2").stdout
    assert line == (
        "Aria: side party -> foes, evasion_shown (none) -> true, attribute.Agility 3 -> 2 (set)\n"
    )
    assert ok("log", "--last", "1").stdout.endswith(line)
    row = _creature("Aria")
    assert (row["side"], row["evasion_shown"], row["attributes"]["Agility"]) == ("foes", True, 2)


def test_a_stat_named_by_folding_keeps_its_spelling_and_a_new_one_is_added():
    ok("init", "--from", "skirmish")
    ok("set", "aria", "aspect.might=5", "specialization.Archery=1")
    row = _creature("Aria")
    assert row["aspects"]["Might"] == 5 and "might" not in row["aspects"]
    assert row["specializations"]["Archery"] == 1


def test_values_it_already_holds_change_nothing():
    ok("init", "--from", "skirmish")
    before = files(FILE)
    line = ok("set", "Aria", "hp=12", "evasion=11").stdout
    assert line == (
        "Aria: every field given already holds that value; nothing changed: nothing written or logged\n"
    )
    assert files(FILE) == before


def test_set_view_changes_the_player_view_table():
    ok("init", "--from", "skirmish")
    done = ok_json("set", "--view", "party_hp=label", "others_hp=none")
    assert done["actor"] is None
    assert done["changes"] == [
        {"field": "party_hp", "before": "exact", "after": "label"},
        {"field": "others_hp", "before": "label", "after": "none"},
    ]
    view = tomllib.loads(FILE.read_text(encoding="utf-8"))["player_view"]
    assert (view["party_hp"], view["others_hp"]) == ("label", "none")
    frame = ok_json("board", "--players", "--once", "--json")
    aria = next(row for row in frame["creatures"] if row["name"] == "Aria")
    assert aria["hp"] is None and aria["hp_label"] == "Healthy"


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["Aria", "hp=20"], "creature 'Aria': hp: 20: is above max_hp 12 (R18)"),
        (["Aria", "evasion=-1"], "creature 'Aria': evasion: -1: must be within 0..100000"),
        (["Aria", "hp=1.5"], "d4cli: error: hp: '1.5': must be a whole number"),
        (["Aria", "hpp=3"], "field: 'hpp': unknown field; did you mean 'hp'?"),
        (
            ["Aria", "aspects.Might=3"],
            "field: 'aspects.Might': unknown field; did you mean 'aspect'?",
        ),
        (
            ["Aria", "hp_shown=labels"],
            "creature 'Aria': hp_shown: 'labels': must be one of: exact, label, none",
        ),
        (
            ["Aria", "evasion_shown=yes"],
            "d4cli: error: evasion_shown: 'yes': must be true or false",
        ),
        (["Aria", "max_hp=x"], "d4cli: error: max_hp: 'x': must be a whole number"),
        (
            ["Aria", "side=a\tb"],
            "creature 'Aria': side: 'a\\x09b': holds an invisible or control character",
        ),
        (["Aria", "hp"], "FIELD=VALUE: 'hp': must be FIELD=VALUE, such as hp=5"),
        (["Aria", "=3"], "FIELD=VALUE: '=3': must be FIELD=VALUE, such as hp=5"),
        (["Aria", "hp=3", "hp=4"], "FIELD=VALUE: 'hp=4': sets hp twice"),
        (["Aria"], "FIELD=VALUE: give the creature, then at least one FIELD=VALUE"),
        (["Nobody", "hp=3"], "NAME: 'Nobody': no such creature in the encounter"),
        (
            ["--view", "party_hp=some"],
            "player_view.party_hp: 'some': must be one of: exact, label, none",
        ),
        (["--view", "hp=3"], "field: 'hp': unknown [player_view] field"),
    ],
)
def test_bad_input_names_the_field_and_the_value_and_changes_nothing(args, error):
    ok("init", "--from", "skirmish")
    ok("damage", "Aria", "1")  # a journal to keep unchanged too
    line = fails(2, FILE, "set", *args)
    assert error in line


def test_the_library_sets_fields_from_typed_values_and_names_the_field(tmp_path: Path):
    path = tmp_path / "fight.toml"
    tracker = Tracker.init(path, template="duel")
    name = tracker.status().creatures[0].name
    assert name == "Sera"
    change = tracker.set(name, {"evasion": 3, "evasion_shown": True})
    assert change.written
    assert [tuple(item) for item in change.record.changes] == [
        ("evasion", 11, 3),
        ("evasion_shown", None, True),
    ]
    assert tracker.status().creatures[0].evasion == 3
    with pytest.raises(InputError) as raised:
        tracker.set(name, {"load_buffer": 5000})
    assert raised.value.field == f"creature {name!r}: load_buffer"
    assert raised.value.value == 5000


def test_set_load_is_one_journaled_change_that_undo_takes_back():
    ok("init", "--from", "skirmish")
    before = files(FILE)
    done = ok_json("set", "Aria", "load=2")
    assert done["changes"] == [{"field": "load", "before": -1, "after": 2}]
    assert _creature("Aria")["load"] == 2
    assert ok_json("status", "Aria")["load"] == 2
    assert ok_json("log")["entries"][-1]["changes"] == done["changes"]
    # A negative Load is what R1's reset gives: allowed, as any whole number of L1's range.
    assert ok("set", "Aria", "load=-3").stdout == "Aria: load 2 -> -3 (set)\n"
    ok("undo")
    ok("undo")
    assert files(FILE)[FILE.name] == before[FILE.name]


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("1001", "d4cli: error: creature 'Aria': load: 1001: must be within -1000..1000"),
        ("-1001", "d4cli: error: creature 'Aria': load: -1001: must be within -1000..1000"),
        ("2.5", "d4cli: error: load: '2.5': must be a whole number"),
        ("two", "d4cli: error: load: 'two': must be a whole number"),
    ],
)
def test_a_load_out_of_l1_is_refused_and_nothing_is_written(value: str, says: str):
    ok("init", "--from", "skirmish")
    assert fails(2, FILE, "set", "Aria", f"load={value}") == says
