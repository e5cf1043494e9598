"""``approve N`` re-judges a seat's request on the encounter as it stands: when its target went
down, the Load grew (so the pool shrank) or the turn moved since it was sent, it says what
changed and carries out nothing (exit 3, every file unchanged, the request still waiting) unless
``--yes``; with ``--json`` the refusal is one object naming each change."""

from __future__ import annotations

import json

import pytest
from _cli import fails, files, ok, run

from d4cli.api.encounter import Tracker
from d4cli.api.front_ends import SeatAction, SeatDesk, Seats


@pytest.fixture
def sent(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "encounter.toml"
    Tracker.init(path, template="skirmish")
    token = Seats(path).add("Aria").token
    SeatDesk(Tracker(path)).submit(token, SeatAction("Finesse", target="Goblin Archer"))
    return path


def test_approve_of_an_attack_whose_target_went_down_says_so_and_writes_nothing(sent):
    ok("damage", "Goblin Archer", "7")
    line = fails(3, sent, "approve", "1")
    assert "request 1: since it was sent, Goblin Archer is down now (R18)" in line
    assert "--yes" in line
    assert [row.number for row in SeatDesk(Tracker(sent)).pending()] == [1]


def test_the_refusal_in_json_names_each_change(sent):
    ok("act", "Aria", "Wits", "--cost", "2", "--seed", "1")  # Load -1 -> 1: the pool shrinks (R5)
    before = files(sent)
    out = run("approve", "1", "--json")
    assert out.exit_code == 3, str(out)
    assert files(sent) == before
    got = json.loads(out.stdout)
    assert got["kind"] == "request" and got["id"] == 1 and got["status"] == "pending"
    assert [(c["kind"], c["before"], c["after"]) for c in got["changed"]] == [
        ("load", -1, 1),
        ("pool", 4, 3),
    ]
    assert [c["text"] for c in got["changed"]] == ["Load -1 -> 1 (R8)", "pool 4d4 -> 3d4 (R5)"]


def test_approve_yes_carries_it_out_anyway(sent):
    ok("damage", "Goblin Archer", "7")
    journal = (sent.parent / "encounter.toml.journal").read_bytes()
    out = ok("approve", "1", "--yes", "--seed", "2", "--json")
    assert out.json()["request"] == 1 and out.json()["target"] == "Goblin Archer"
    assert (sent.parent / "encounter.toml.journal").read_bytes() != journal
    assert SeatDesk(Tracker(sent)).pending() == ()


def test_approve_of_a_request_nothing_changed_for_needs_no_yes(sent):
    out = ok("approve", "1", "--seed", "2", "--json")
    assert out.json()["request"] == 1


def test_the_turn_moving_on_is_a_change(sent):
    ok("turn", "start")
    line = fails(3, sent, "approve", "1")
    assert "the turn moved on: round 0 -> round 1 (R13)" in line
