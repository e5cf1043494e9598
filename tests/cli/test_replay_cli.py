"""Replay: ``status --at SEQ`` and ``log --states --json`` rebuild past states from the journal's patches."""

from __future__ import annotations

import json

import pytest
from _cli import fails, ok, ok_json, run
from _width import at_width

FIGHT = [
    ("turn", "start"),
    ("act", "Aria", "dagger", "--target", "Goblin Archer", "--seed", "3"),
    ("team", "Borin", "Aria", "--adv", "--aspect", "Wits"),
    ("act", "Goblin Brute", "club", "--target", "Aria", "--seed", "4"),
    ("turn", "end"),
    ("turn", "start"),
    ("act", "Borin", "axe", "--target", "Goblin Brute", "--seed", "5"),
    ("damage", "Goblin Archer", "2"),
    ("effect", "add", "Goblin Brute", "dazed", "--dis", "--rounds", "1"),
    ("turn", "end"),
]


@pytest.fixture
def fought(isolated_env):
    """The skirmish after a scripted round, with what ``status --json`` printed after each entry."""
    path = isolated_env / "encounter.toml"
    ok("init", "--from", "skirmish")
    printed = {1: ok_json("status")}
    for number, args in enumerate(FIGHT, start=2):
        ok(*args)
        printed[number] = ok_json("status")
    return path, printed


def test_status_at_each_seq_equals_what_status_printed_then(fought):
    path, printed = fought
    assert len(printed) == len(FIGHT) + 1
    for seq, state in printed.items():
        assert ok_json("status", "--at", str(seq)) == state, seq
    assert ok_json("status", "--at", "5") == printed[5]
    assert printed[5] != printed[len(printed)]


def test_status_at_is_read_only(fought):
    path, _ = fought
    before = {p.name: p.read_bytes() for p in path.parent.iterdir() if p.is_file()}
    ok("status", "--at", "3")
    ok("status", "Aria", "--at", "3", "--json")
    ok("log", "--states", "--json")
    after = {p.name: p.read_bytes() for p in path.parent.iterdir() if p.is_file()}
    assert {k: v for k, v in after.items() if not k.endswith(".lock")} == {
        k: v for k, v in before.items() if not k.endswith(".lock")
    }


def test_status_name_at_seq_shows_that_sheet_then(fought):
    _, printed = fought
    sheet = ok_json("status", "Goblin Archer", "--at", "3")
    archer = next(c for c in printed[3]["creatures"] if c["name"] == "Goblin Archer")
    assert sheet["hp"] == archer["hp"] < 7


def test_log_states_streams_seq_entry_and_state(fought):
    _, printed = fought
    result = ok("log", "--states", "--json")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    log = ok_json("log")["entries"]
    assert [line["seq"] for line in lines] == list(range(1, len(FIGHT) + 2))
    assert [line["entry"] for line in lines] == log
    assert all(line["state"] == printed[line["seq"]] for line in lines)
    assert all(set(line) == {"seq", "entry", "state"} for line in lines)


def test_log_states_keeps_the_filters(fought):
    result = ok("log", "--states", "--json", "--kind", "act", "--last", "7")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["seq"] for line in lines] == [5, 8]  # of entries 5..11, the acts
    assert [line["entry"]["actor"] for line in lines] == ["Goblin Brute", "Borin"]


def test_undone_changes_are_not_replayed(fought):
    _, printed = fought
    ok("undo")
    ok("undo")
    last = len(printed) - 2
    assert ok_json("status", "--at", str(last)) == printed[last]
    assert "past the newest entry (#9)" in fails(2, fought[0], "status", "--at", str(last + 1))
    lines = ok("log", "--states", "--json").stdout.splitlines()
    assert len(lines) == last


def test_a_new_init_starts_a_new_history(fought):
    path, _ = fought
    ok("init", "--force", "--name", "Fresh")
    entries = ok_json("log")["entries"]
    message = fails(2, path, "status", "--at", str(entries[0]["seq"] - 1))
    assert "before the init" in message
    assert ok_json("status", "--at", str(entries[0]["seq"]))["name"] == "Fresh"


def test_a_hand_edit_after_the_journal_still_replays_the_journal(fought):
    path, printed = fought
    path.write_text(path.read_text().replace("hp = 16", "hp = 15", 1))
    assert ok_json("status", "--at", "4") == printed[4]
    assert ok_json("status", "--at", "11") == printed[11]


@pytest.mark.parametrize(
    ("at", "needle"),
    [
        ("12", "--at: 12: is past the newest entry (#11)"),
        ("0", "--at: 0: is before the init (#1)"),
        ("-1", "--at: -1: must be within 0.."),
        ("3.0", "--at: '3.0'"),
        ("x", "--at: 'x'"),
    ],
)
def test_bad_at_is_one_line_exit_2(fought, at, needle):
    path, _ = fought
    assert needle in fails(2, path, "status", "--at", at)
    assert needle in fails(2, path, "status", "--at", at, "--json")


def test_at_without_a_journal_is_bad_input(isolated_env):
    path = isolated_env / "encounter.toml"
    ok("init")
    path.with_name("encounter.toml.journal").unlink()
    assert "no journal to replay" in fails(2, path, "status", "--at", "1")


def test_log_states_needs_json(fought):
    assert (
        fails(2, fought[0], "log", "--states")
        == "d4cli: error: --states: streams JSON Lines: add --json"
    )


@pytest.mark.parametrize("width", [80, 120])
def test_status_at_human_output(fought, snapshot, monkeypatch, width):
    at_width(monkeypatch, width)
    result = run("status", "--at", "5")
    assert result.exit_code == 0
    assert result.stdout == snapshot
