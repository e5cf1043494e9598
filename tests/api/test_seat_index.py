"""A seat's requests are found by number through the index ``PATH.requests`` keeps with each
change, never by reading the journal through: a seat's reads, submissions and approvals read
as many journal lines in a long fight as in a short one. The crash story holds: an entry
written before a crash kept the requests file from saying so is never carried out twice and
reads ``approved``; an undone entry reads ``undone``."""

from __future__ import annotations

import json

import pytest

from d4cli.api import InputError
from d4cli.api.encounter import Tracker
from d4cli.api.rolls import ScriptedDice
from d4cli.api.seat_requests import SeatDesk
from d4cli.api.seats import SeatAction, Seats
from d4cli.store import journal
from d4cli.store.seat_files import read_requests, requests_path, write_requests


@pytest.fixture
def encounter(tmp_path):
    path = tmp_path / "encounter.toml"
    Tracker.init(path, template="skirmish")
    return path


def _desk(path, dice=(1,) * 40):
    return SeatDesk(Tracker(path, rng=ScriptedDice(dice)))


def _lines_parsed(monkeypatch, call):
    """How many journal lines *call* parses."""
    count = [0]
    real = journal.parse_line

    def counted(start, raw):  # type: ignore[no-untyped-def]
        count[0] += 1
        return real(start, raw)

    monkeypatch.setattr(journal, "parse_line", counted)
    try:
        call()
    finally:
        monkeypatch.setattr(journal, "parse_line", real)
    return count[0]


def _fight(path, changes, monkeypatch):
    """*changes* GM changes, then a seat's request approved and one waiting: the journal lines
    the seat's reads, a submission and an approval parse."""
    tracker = Tracker(path)
    for number in range(changes):
        tracker.note(None, f"note {number}")
    token = Seats(path).add("Aria").token
    desk = _desk(path)
    desk.approve(desk.submit(token, SeatAction("Finesse", cost=0)).request.number)
    waiting = desk.submit(token, SeatAction("Might", cost=0)).request.number
    return (
        _lines_parsed(monkeypatch, lambda: desk.requests_of(token)),
        _lines_parsed(monkeypatch, lambda: desk.submit(token, SeatAction("Wits", cost=0))),
        _lines_parsed(monkeypatch, lambda: desk.approve(waiting)),
        _lines_parsed(monkeypatch, lambda: desk.requests_of(token)),
    )


def test_a_seats_reads_and_writes_do_not_grow_with_the_fight(tmp_path, monkeypatch):
    short, long = tmp_path / "short", tmp_path / "long"
    for folder in (short, long):
        folder.mkdir()
        Tracker.init(folder / "encounter.toml", template="skirmish")
    counts = _fight(short / "encounter.toml", 2, monkeypatch)
    assert counts == _fight(long / "encounter.toml", 300, monkeypatch)
    assert max(counts) < 20


def test_the_index_maps_each_carried_out_request_to_its_entry(encounter):
    token = Seats(encounter).add("Aria").token
    desk = _desk(encounter)
    desk.approve(desk.submit(token, SeatAction("Finesse", cost=0)).request.number)
    kept = json.loads(requests_path(encounter).read_text())
    newest = Tracker(encounter).history().entries[-1]
    assert newest["request"] == 1 and kept["carried"]["1"]["seq"] == newest["seq"]
    assert kept["journal"] == kept["carried"]["1"]


def test_a_crash_before_the_requests_file_reads_approved_and_the_next_write_indexes_it(encounter):
    token = Seats(encounter).add("Aria").token
    desk = _desk(encounter)
    number = desk.submit(token, SeatAction("Finesse", cost=0)).request.number
    pending = read_requests(encounter)
    desk.approve(number)
    write_requests(encounter, pending)  # the crash: the entry stands, the file says pending
    assert desk.request_of(token, number).status == "approved"
    desk.submit(token, SeatAction("Might", cost=0))  # the next write indexes it
    rows = {row.number: row for row in read_requests(encounter).rows}
    assert rows[number].status == "approved" and rows[number].result["aspect"] == 4
    assert number in read_requests(encounter).carried
    with pytest.raises(InputError, match="was approved already"):
        desk.approve(number)


def test_an_entry_undone_then_another_in_its_place_is_neither_read_as_the_other(encounter):
    token = Seats(encounter).add("Aria").token
    desk = _desk(encounter)
    first = desk.submit(token, SeatAction("Finesse", cost=0)).request.number
    second = desk.submit(token, SeatAction("Might", cost=0)).request.number
    desk.approve(first)
    Tracker(encounter).undo()  # the first's entry goes; the second's takes its seq and place
    before = read_requests(encounter)
    _, change = desk.approve(second)
    assert change.written
    write_requests(encounter, before)  # the crash, after the second's entry
    assert desk.request_of(token, first).status == "undone"
    assert desk.request_of(token, second).status == "approved"
    journal_bytes = encounter.with_name("encounter.toml.journal").read_bytes()
    with pytest.raises(InputError, match="carried out already"):
        desk.approve(second)
    assert encounter.with_name("encounter.toml.journal").read_bytes() == journal_bytes
    assert read_requests(encounter).rows[1].status == "approved"


def test_an_undone_request_reads_approved_again_once_redone(encounter):
    token = Seats(encounter).add("Aria").token
    desk = _desk(encounter)
    number = desk.submit(token, SeatAction("Finesse", cost=0)).request.number
    desk.approve(number)
    Tracker(encounter).undo()
    assert desk.request_of(token, number).status == "undone"
    Tracker(encounter).redo()
    assert desk.request_of(token, number).status == "approved"
