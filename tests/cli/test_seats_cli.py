"""``seat``, ``requests``, ``approve``, ``deny`` and ``--faces`` on the command line: exit codes,
JSON, files byte for byte unchanged on every error, human output at 80 and 120 columns."""

from __future__ import annotations

import json

import pytest
from _cli import fails, files, ok, ok_json, run
from _width import at_width

from d4cli.api.encounter import Tracker
from d4cli.api.seat_board import SeatBoard
from d4cli.api.seat_requests import SeatDesk
from d4cli.api.seats import SeatAction
from d4cli.cli.play_session import Session
from d4cli.store.seat_files import SeatRow, write_seats

ARIA = "A" * 30 + "ar"
BORIN = "B" * 30 + "bo"


@pytest.fixture
def encounter(tmp_path):
    path = tmp_path / "encounter.toml"
    ok("init", "--from", "skirmish")
    return path


@pytest.fixture
def seated(encounter):
    """Aria and Borin seated with fixed tokens (snapshots), two requests sent."""
    write_seats(encounter, (SeatRow("Aria", ARIA), SeatRow("Borin", BORIN)))
    desk = SeatDesk(Tracker(encounter))
    desk.submit(ARIA, SeatAction("Finesse", target="Goblin Archer", extra=("1d4",)))
    desk.submit(BORIN, SeatAction("Might", cost=2, advantage=("flank",), faces=(4, 3, 2, 1, 1)))
    return encounter


def test_seat_add_list_remove_reset_as_json(encounter):
    added = ok_json("seat", "add", "aria")
    assert added["kind"] == "seat" and added["creature"] == "Aria"
    token = added["path"].removeprefix("/seat/")
    assert len(token) == 32
    listed = ok_json("seat", "list")
    assert listed == {"kind": "seats", "seats": [{"creature": "Aria", "path": "/seat/" + token}]}
    (reset,) = ok_json("seat", "reset")["seats"]
    assert reset["creature"] == "Aria" and reset["path"] != "/seat/" + token
    assert ok_json("seat", "remove", "Aria") == {
        "kind": "seat",
        "creature": "Aria",
        "path": None,
        "removed": True,
    }
    assert ok_json("seat", "list")["seats"] == []


def test_seat_errors_are_exit_2_and_change_nothing(encounter):
    ok("seat", "add", "Aria")
    assert "NAME: 'Nobody'" in fails(2, encounter, "seat", "add", "Nobody")
    assert "has a seat already" in fails(2, encounter, "seat", "add", "Aria")
    assert "has no seat" in fails(2, encounter, "seat", "remove", "Borin")


def test_the_token_is_not_in_the_encounter_nor_its_journal(encounter):
    token = ok_json("seat", "add", "Aria")["path"].removeprefix("/seat/")
    assert token not in encounter.read_text()
    assert token not in (encounter.parent / "encounter.toml.journal").read_text()
    assert token not in ok("log", "--json").stdout


@pytest.mark.parametrize("width", [80, 120])
def test_seat_list_and_requests_human_output(seated, snapshot, monkeypatch, width):
    at_width(monkeypatch, width)
    assert ok("seat", "list").stdout == snapshot
    assert ok("requests").stdout == snapshot
    ok("deny", "2", "--reason", "Borin is across the river")
    assert ok("requests", "--all").stdout == snapshot


def test_requests_json_and_approve_and_deny(seated):
    pending = ok_json("requests")["requests"]
    assert [(r["id"], r["creature"], r["status"]) for r in pending] == [
        (1, "Aria", "pending"),
        (2, "Borin", "pending"),
    ]
    assert pending[1]["act"] == {
        "aspect": "Might",
        "cost": 2,
        "advantage": ["flank"],
        "disadvantage": [],
        "extra": [],
        "target": None,
        "faces": [4, 3, 2, 1, 1],
    }
    approved = ok_json("approve", "2")
    # Might 4, Load -2, +1 Advantage: pool 5d4 of entered faces 4+3+2+1+1 = 11 (R5, R7)
    assert approved["kind"] == ok_json("act", "Aria", "Wits", "--dry-run")["kind"]
    assert approved["request"] == 2 and approved["seat"] == "Borin"
    assert approved["entered"] is True and approved["dice"] == [4, 3, 2, 1, 1]
    assert approved["total"] == 11 and approved["load_after"] == 0
    denied = ok_json("deny", "1", "--reason", "not now")
    assert denied["status"] == "denied" and denied["reason"] == "not now"
    assert ok_json("requests")["requests"] == []
    every = ok_json("requests", "--all")["requests"]
    assert [r["status"] for r in every] == ["denied", "approved"]
    assert every[1]["result"]["total"] == 11
    assert "from Borin's seat (request 2)" in ok("log", "--last", "1").stdout


def test_approve_and_deny_errors_are_exit_2_and_change_nothing(seated):
    ok("deny", "1")
    assert "N: 1: request 1 was denied already" in fails(2, seated, "approve", "1")
    assert "N: 7: no such request" in fails(2, seated, "approve", "7")
    assert "N: 7: no such request" in fails(2, seated, "deny", "7")
    assert "N: 'x'" in fails(2, seated, "approve", "x")
    assert "--reason" in fails(2, seated, "deny", "2", "--reason", "bad\x07bell")


def test_an_approval_that_no_longer_fits_names_the_requests_field_not_an_option(seated):
    ok("conceal", "Goblin Archer")  # request 1's target is now unknown to the players
    line = fails(2, seated, "approve", "1")
    assert line.startswith("d4cli: error: target: 'Goblin Archer': ") and "--target" not in line
    ok("reveal", "Goblin Archer")
    assert "--target" in fails(2, seated, "act", "Aria", "Finesse", "--target", "Nobody")


def test_a_refused_approval_is_exit_3_and_the_request_waits(seated):
    for _ in range(3):  # Borin's Load climbs: Might headroom 6 -> 0 (R8)
        ok("act", "Borin", "Might", "--cost", "2", "--seed", "1")
    before = files(seated)
    out = run("approve", "2")
    assert out.exit_code == 3 and "refused by the gate (R2)" in out.stderr
    assert files(seated) == before
    assert ok_json("requests")["requests"][1]["status"] == "pending"


def test_undo_takes_back_an_approved_request(seated):
    before = seated.read_bytes()
    ok("approve", "1", "--seed", "4")
    assert seated.read_bytes() != before
    ok("undo")
    assert seated.read_bytes() == before


def test_board_says_requests_wait(seated):
    assert "2 requests from seats wait" in ok("board", "--once").stdout


def test_the_gms_board_shows_the_action_a_seat_is_building_and_the_players_do_not(seated):
    SeatBoard(Tracker(seated)).preview(
        BORIN, SeatAction("Might", cost=2, target="Goblin Archer", extra=("1d8",))
    )
    board = ok("board", "--once", env={"COLUMNS": "120"}).stdout
    # Might 4, Load -2: headroom 6 >= Cost 2 (R2); 4 - max(0, -2) = 4d4 (R5)
    line = "Borin's seat builds: Might, Cost 2 at Goblin Archer: pool 4d4 + 1 extra die, the gate allows it (R2)"
    assert line in board
    assert "builds" not in ok("board", "--players", "--once").stdout


# --- --faces -----------------------------------------------------------------------------


def test_act_with_faces_uses_them_in_order_and_says_entered(encounter):
    obj = ok_json(
        "act",
        "Aria",
        "Finesse",
        "--extra",
        "1d6",
        "--target",
        "Goblin Archer",
        "--faces",
        "4,3,2,1,6",
    )
    # 4d4 4+3+2+1 = 10, 1d6 6: 16 against Evasion 10: 6 damage (R6, R7, R16)
    assert obj["dice"] == [4, 3, 2, 1] and obj["extra"][0]["dice"] == [6]
    assert obj["total"] == 16 and obj["damage"] == 6 and obj["entered"] is True
    assert ok_json("log", "--last", "1")["entries"][0]["entered"] is True
    text = ok("act", "Aria", "Wits", "--faces", "1,1,1", "--dry-run").stdout
    assert "entered 1 + 1 + 1 = 3" in text  # Wits 3, Load 0: 3d4 (R5)


def test_roll_pool_and_check_with_faces(encounter):
    pool = ok_json("roll", "pool", "4", "--extra", "1d6+1", "--faces", "3,1,4,2,6")
    assert pool["dice"] == [3, 1, 4, 2] and pool["total"] == 17 and pool["entered"] is True
    assert ok_json("roll", "pool", "4")["entered"] is False
    check = ok_json("roll", "check", "--advantage", "2", "--faces", "20,5,6,3")
    # natural 20, Advantage d6s 5 and 6 (+6), critical d6 3: 29 (C1, C3, C5)
    assert (check["natural"], check["advantage_dice"], check["crit_die"]) == (20, [5, 6], 3)
    assert check["total"] == 29 and check["entered"] is True
    text = ok("roll", "check", "--faces", "7").stdout
    assert "entered 7" in text


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (
            ("roll", "pool", "4", "--faces", "3,1,4"),
            "--faces: '3,1,4': 3 faces entered; the roll takes exactly 4",
        ),
        (
            ("roll", "pool", "4", "--faces", "3,1,4,2,1"),
            "--faces: '3,1,4,2,1': 5 faces entered; the roll takes exactly 4",
        ),
        (
            ("roll", "pool", "4", "--faces", "3,1,4,5"),
            "--faces: 5: face 4 must be within 1..4 (a d4)",
        ),
        (("roll", "pool", "4", "--faces", "3,x"), "--faces: '3,x': 'x' is not a face"),
        # L3: a padded number is no whole number, in a list of faces too
        (("roll", "pool", "3", "--faces", " 1, 2,3 "), "--faces: ' 1, 2,3 ': ' 1' is not a face"),
        (
            ("roll", "pool", "4", "--faces", "1,1,1,1", "--times", "2"),
            "give --faces without --times",
        ),
        (("roll", "check", "--faces", "21"), "--faces: 21: face 1 must be within 1..20 (a d20)"),
        (("roll", "check", "--faces", "20"), "--faces: '20': 1 faces entered; the roll needs more"),
        (
            ("roll", "check", "--faces", "5,1"),
            "--faces: '5,1': 2 faces entered; the roll takes exactly 1",
        ),
        (
            ("act", "Aria", "Finesse", "--faces", "0,1,1,1"),
            "--faces: 0: face 1 must be within 1..4",
        ),
        (
            ("act", "Aria", "Finesse", "--extra", "1d6", "--faces", "1,1,1,1,7"),
            "--faces: 7: face 5 must be within 1..6 (a d6)",
        ),
        (
            ("act", "Aria", "Finesse", "--faces", "1,1,1"),
            "--faces: '1,1,1': 3 faces entered; the roll takes exactly 4",
        ),
    ],
)
def test_bad_faces_are_exit_2_naming_faces_and_writing_nothing(encounter, args, problem):
    assert problem in fails(2, encounter, *args)


def test_a_refused_act_with_faces_is_the_refusal(encounter):
    before = files(encounter)
    out = run("act", "Aria", "Finesse", "--cost", "9", "--faces", "1")
    assert out.exit_code == 3 and "refused by the gate (R2)" in out.stderr
    assert files(encounter) == before


def test_plays_prompt_counts_the_waiting_requests(seated):
    session = Session(str(seated))
    assert session.prompt() == "[not started, 2 requests] d4cli> "
    ok("deny", "1")
    assert session.prompt() == "[not started, 1 request] d4cli> "
    ok("deny", "2")
    assert session.prompt() == "[not started] d4cli> "


def test_seat_list_says_which_seats_creature_is_gone(encounter):
    token = ok_json("seat", "add", "Aria")["path"].removeprefix("/seat/")
    ok("remove", "Aria")
    out = ok("seat", "list", "--json")
    assert out.stderr == (
        "d4cli: note: Aria is not in the encounter: its seat finds nothing until a creature of "
        "that name is added ('d4cli seat remove Aria' revokes it)\n"
    )
    assert json.loads(out.stdout)["seats"] == [{"creature": "Aria", "path": "/seat/" + token}]
    ok("seat", "remove", "Aria")
    assert ok("seat", "list").stderr == ""
