"""One door: a seat's act (carried out at once, or queued and approved) and the GM's act
(`Tracker.act`, ``d4cli act``) go through the same write path and write the same journal
entry for the same act and the same dice, apart from the seat's ``seat`` and ``request``
facts and the note."""

from __future__ import annotations

import json
import random
import shutil
from datetime import datetime, timezone

import pytest
from _cli import ok

from d4cli.api.encounter import Tracker
from d4cli.api.rolls import ScriptedDice
from d4cli.api.seat_requests import SeatDesk
from d4cli.api.seats import SeatAction, Seats

DICE = (2, 2, 3, 4, 1)  # 4d4 then the 1d4
NOW = datetime(2026, 12, 5, 9, 0, tzinfo=timezone.utc)
SEAT_ONLY = ("seat", "request", "note")


def _entries(path):
    journal = path.with_name(path.name + ".journal")
    return [json.loads(line) for line in journal.read_text().splitlines()]


def _without_seat(entry):
    return {key: value for key, value in entry.items() if key not in SEAT_ONLY}


def _copy(source, folder):
    """The encounter file and its journal, as they are, in *folder*."""
    folder.mkdir()
    for suffix in ("", ".journal"):
        shutil.copyfile(f"{source}{suffix}", folder / f"encounter.toml{suffix}")
    return folder / "encounter.toml"


@pytest.fixture
def table(tmp_path):
    """The skirmish, the Goblin Archer shown to the players as "Goblin 2"."""
    path = tmp_path / "start" / "encounter.toml"
    path.parent.mkdir()
    Tracker.init(path, template="skirmish", clock=lambda: NOW)
    Tracker(path, clock=lambda: NOW).alias("Goblin Archer", "Goblin 2")
    return path


def _gm_act(path, dice):
    return Tracker(path, rng=dice, clock=lambda: NOW).act(
        "Aria", "Finesse", extra=["1d4"], target="Goblin Archer"
    )


SEAT_ACTION = SeatAction("Finesse", extra=("1d4",), target="Goblin 2")


@pytest.mark.parametrize("mode", ["approve", "auto"])
def test_a_seat_and_the_gm_write_the_same_entry_for_the_same_act(table, tmp_path, mode):
    if mode == "auto":
        Tracker(table, clock=lambda: NOW).set_view({"seats": "auto"})
    gm, seat = _copy(table, tmp_path / "gm"), _copy(table, tmp_path / "seat")
    gm_change = _gm_act(gm, ScriptedDice(DICE))
    desk = SeatDesk(Tracker(seat, rng=ScriptedDice(DICE), clock=lambda: NOW))
    sent = desk.submit(Seats(seat).add("Aria").token, SEAT_ACTION)
    if mode == "auto":
        seat_change = sent.change
    else:
        assert sent.change is None
        _, seat_change = desk.approve(sent.request.number)
    assert seat_change is not None and seat_change.written
    assert seat_change.record == gm_change.record
    assert seat_change.encounter == gm_change.encounter
    gm_entry, seat_entry = _entries(gm)[-1], _entries(seat)[-1]
    assert seat_entry["seat"] == "Aria" and seat_entry["request"] == 1
    assert seat_entry["note"] == "from Aria's seat (request 1)"
    assert "seat" not in gm_entry and "request" not in gm_entry and "note" not in gm_entry
    assert _without_seat(seat_entry) == gm_entry
    assert gm_entry["total"] == 12 and gm_entry["kind"] == "act"  # 2+2+3+4 + 1
    assert seat.read_bytes() == gm.read_bytes()


def test_the_command_line_act_writes_the_seats_entry_too(table, tmp_path):
    Tracker(table, clock=lambda: NOW).set_view({"seats": "auto"})
    cli, seat = _copy(table, tmp_path / "cli"), _copy(table, tmp_path / "seat")
    ok(
        "act",
        "Aria",
        "Finesse",
        "--extra",
        "1d4",
        "--target",
        "Goblin Archer",
        "--seed",
        "7",
        "--file",
        str(cli),
    )
    desk = SeatDesk(Tracker(seat, rng=random.Random(7)))  # what --seed 7 rolls with
    desk.submit(Seats(seat).add("Aria").token, SEAT_ACTION)
    cli_entry, seat_entry = _entries(cli)[-1], _entries(seat)[-1]
    del cli_entry["time"], seat_entry["time"]  # the command's clock is the machine's
    assert _without_seat(seat_entry) == cli_entry
    assert seat.read_bytes() == cli.read_bytes()
