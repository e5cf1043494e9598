"""`Seats` and `SeatDesk`: a seat acts for its own creature alone, its token is nowhere but
``PATH.seats``, requests are checked, queued, approved, denied or carried out at once."""

from __future__ import annotations

import json
import random

import pytest
from _cli import files, ok
from hypothesis import given, settings
from hypothesis import strategies as st

from d4cli.api import InputError
from d4cli.api.encounter import Tracker
from d4cli.api.rolls import ScriptedDice
from d4cli.api.seat_requests import SeatDesk
from d4cli.api.seats import SeatAction, Seats
from d4cli.store.seat_files import requests_path, seats_path

CREATURES = ("Aria", "Borin", "Goblin Archer", "Goblin Brute")


@pytest.fixture
def encounter(tmp_path):
    path = tmp_path / "encounter.toml"
    Tracker.init(path, template="skirmish")
    return path


def _desk(path, dice=()):
    return SeatDesk(Tracker(path, rng=ScriptedDice(dice)))


def _set_auto(path):
    Tracker(path).set_view({"seats": "auto"})


def test_a_seat_names_its_creature_and_its_join_path(encounter):
    seats = Seats(encounter)
    seat = seats.add("aria")  # N1: the name as the encounter writes it
    assert seat.creature == "Aria"
    assert seat.join_path == "/seat/" + seat.token
    assert seats.find(seat.token) == seat
    assert seats.list() == (seat,)


def test_remove_and_reset_revoke_the_old_tokens(encounter):
    seats = Seats(encounter)
    aria, borin = seats.add("Aria"), seats.add("Borin")
    assert seats.remove("ARIA") == aria
    assert seats.find(aria.token) is None
    (new,) = seats.reset()
    assert new.creature == "Borin" and new.token != borin.token
    assert seats.find(borin.token) is None and seats.find(new.token) == new
    with pytest.raises(InputError, match="NAME: 'Aria': has no seat"):
        seats.remove("Aria")


def test_a_seat_for_no_creature_or_twice_is_refused(encounter):
    seats = Seats(encounter)
    with pytest.raises(InputError, match="NAME: 'Nobody'"):
        seats.add("Nobody")
    seats.add("Aria")
    with pytest.raises(InputError, match="has a seat already"):
        seats.add("aria")


def test_a_request_is_queued_then_approved_as_act_would_do_it(encounter):
    token = Seats(encounter).add("Aria").token
    desk = _desk(encounter, [2, 2, 3, 4, 1])
    sent = desk.submit(token, SeatAction("Finesse", target="Goblin Archer", extra=("1d4",)))
    assert sent.change is None and sent.request.status == "pending" and sent.request.number == 1
    assert Tracker(encounter).status().find("Goblin Archer").hp == 7  # nothing done yet
    row, change = desk.approve(1)
    # 4d4 2+2+3+4 + 1d4 1 = 12 against Evasion 10: 2 damage (R7, R16)
    assert change.written and change.record.result.total == 12 and change.record.hp_after == 5
    assert row.status == "approved" and row.result["total"] == 12 and row.result["kind"] == "act"
    assert desk.request_of(token, 1) == row
    entry = Tracker(encounter).history().entries[-1]
    assert entry["seat"] == "Aria" and entry["request"] == 1
    assert entry["note"] == "from Aria's seat (request 1)"


def test_a_seat_action_is_undone_like_any_act(encounter):
    token = Seats(encounter).add("Aria").token
    before = encounter.read_bytes()
    desk = _desk(encounter, [1, 1, 1, 1])
    desk.submit(token, SeatAction("Finesse"))
    desk.approve(1)
    assert encounter.read_bytes() != before
    Tracker(encounter).undo()
    assert encounter.read_bytes() == before


def test_a_denied_request_is_read_with_its_reason(encounter):
    token = Seats(encounter).add("Aria").token
    desk = _desk(encounter)
    desk.submit(token, SeatAction("Wits"))
    before = encounter.read_bytes()
    row = desk.deny(1, "the bridge is out of reach")
    assert (row.status, row.reason) == ("denied", "the bridge is out of reach")
    assert desk.request_of(token, 1) == row
    assert encounter.read_bytes() == before
    with pytest.raises(InputError, match="number: 1: request 1 was denied already"):
        desk.approve(1)
    with pytest.raises(InputError, match="number: 9: no such request"):
        desk.deny(9)


def test_auto_carries_out_at_once_with_entered_faces(encounter):
    _set_auto(encounter)
    token = Seats(encounter).add("Aria").token
    sent = _desk(encounter).submit(token, SeatAction("Finesse", faces=(4, 4, 4, 4)))
    assert sent.request.status == "approved"
    assert sent.change is not None and sent.change.record.entered
    assert sent.change.record.result.total == 16 and sent.request.result["entered"] is True
    assert Tracker(encounter).status().find("Aria").load == 0  # Load -1 + Cost 1 (R8)


def test_approval_judges_the_encounter_as_it_stands(encounter):
    token = Seats(encounter).add("Aria").token
    desk = _desk(encounter, [1, 1, 1, 1])
    desk.submit(token, SeatAction("Might", cost=3))  # headroom 3: allowed now
    Tracker(encounter, rng=ScriptedDice([1, 1, 1, 1])).act("Aria", "Finesse")  # Load 0: headroom 2
    before = files(encounter)
    row, change = desk.approve(1)
    assert not change.written and not change.record.allowed  # the gate (R2)
    assert row.status == "pending"
    assert files(encounter) == before


@pytest.mark.parametrize(
    ("action", "field"),
    [
        (SeatAction("Finesse", creature="Borin"), "creature"),
        (SeatAction("Fly"), "aspect"),
        (SeatAction("Finesse", cost=9), "cost"),
        (SeatAction("Finesse", target="Nobody"), "target"),
        (SeatAction("Finesse", target="Sniper"), "target"),  # hidden below
        (SeatAction("Finesse", faces=(1, 2, 3)), "faces"),
        (SeatAction("Finesse", faces=(1, 2, 3, 4, 1)), "faces"),
        (SeatAction("Finesse", faces=(1, 2, 3, 5)), "faces"),
        (SeatAction("Finesse", extra=("0d4",)), "extra"),
    ],
)
def test_a_bad_request_names_its_field_and_writes_nothing(encounter, action, field):
    tracker = Tracker(encounter)
    tracker.alias("Goblin Archer", "Sniper")
    tracker.conceal("Goblin Archer")
    token = Seats(encounter).add("Aria").token
    before = files(encounter)
    with pytest.raises(InputError) as caught:
        _desk(encounter).submit(token, action)
    assert caught.value.field == field
    assert files(encounter) == before
    assert not requests_path(encounter).exists()


def test_a_short_count_of_faces_says_how_many_the_roll_takes(encounter):
    token = Seats(encounter).add("Aria").token
    with pytest.raises(InputError, match="faces: '1,2': 2 faces entered; the roll takes exactly 5"):
        _desk(encounter).submit(token, SeatAction("Finesse", extra=("1d6",), faces=(1, 2)))


def test_a_target_is_named_as_the_players_see_it(encounter):
    Tracker(encounter).alias("Goblin Archer", "Sniper")
    token = Seats(encounter).add("Aria").token
    desk = _desk(encounter, [4, 4, 4, 4])
    desk.submit(token, SeatAction("Finesse", target="sniper"))
    _, change = desk.approve(1)
    assert change.record.target == "Goblin Archer" and change.record.hp_after == 1


def test_an_unknown_token_finds_nothing_and_sends_nothing(encounter):
    Seats(encounter).add("Aria")
    desk = _desk(encounter)
    with pytest.raises(InputError, match="token: no such seat"):
        desk.submit("x" * 32, SeatAction("Finesse"))
    assert desk.requests_of("x" * 32) == ()
    assert desk.request_of("x" * 32, 1) is None


def test_a_seat_reads_its_own_requests_only(encounter):
    seats = Seats(encounter)
    aria, borin = seats.add("Aria"), seats.add("Borin")
    desk = _desk(encounter)
    desk.submit(aria.token, SeatAction("Wits"))
    desk.submit(borin.token, SeatAction("Might"))
    assert [r.number for r in desk.requests_of(aria.token)] == [1]
    assert desk.request_of(aria.token, 2) is None
    assert desk.request_of(borin.token, 2) is not None


@settings(max_examples=25, deadline=None)
@given(
    seat=st.sampled_from(CREATURES),
    other=st.sampled_from(CREATURES),
    seed=st.integers(0, 2**32),
    auto=st.booleans(),
)
def test_no_token_acts_for_another_creature_and_no_token_leaks(
    tmp_path_factory, seat, other, seed, auto
):
    path = tmp_path_factory.mktemp("seat") / "encounter.toml"
    Tracker.init(path, template="skirmish")
    if auto:
        _set_auto(path)
    seats = Seats(path)
    tokens = {name: seats.add(name).token for name in CREATURES}
    desk = SeatDesk(Tracker(path, rng=random.Random(seed)))
    aspect = Tracker(path).status().find(seat).aspects[0][0]
    if other != seat:
        with pytest.raises(InputError, match="creature"):
            desk.submit(tokens[seat], SeatAction(aspect, creature=other))
    sent = desk.submit(tokens[seat], SeatAction(aspect, creature=seat))
    assert sent.request.creature == seat
    if sent.change is None:
        _, change = desk.approve(sent.request.number)
    else:
        change = sent.change
    assert change.record.actor == seat
    # Every request of every seat's token acts for that seat's creature alone.
    for name, token in tokens.items():
        assert all(row.creature == name for row in desk.requests_of(token))
    # The tokens are in PATH.seats alone.
    log = ok("log", "--json", file=path).stdout + ok("log", file=path).stdout
    view = json.dumps(Tracker(path).view()._asdict(), default=str)
    board = ok("board", "--players", "--json", file=path).stdout
    written = [p.read_bytes().decode() for p in path.parent.iterdir() if p != seats_path(path)]
    for token in tokens.values():
        assert all(token not in text for text in (log, view, board, *written))
        assert token in seats_path(path).read_text()


def test_a_seat_may_keep_ten_requests_waiting_and_the_file_keeps_the_newest_answers(encounter):
    token = Seats(encounter).add("Aria").token
    desk = _desk(encounter)
    for _ in range(10):
        desk.submit(token, SeatAction("Finesse", cost=0))
    before = files(encounter)
    with pytest.raises(
        InputError,
        match=r"request: 10: requests of this seat wait for the GM already \(at most 10\)",
    ):
        desk.submit(token, SeatAction("Finesse", cost=0))
    assert files(encounter) == before  # nothing queued, nothing written
    other = Seats(encounter).add("Borin").token
    assert desk.submit(other, SeatAction("Might", cost=0)).request.number == 11  # Borin's own ten
    for number in range(1, 11):
        desk.deny(number)
    for _ in range(95):  # answered at once: only the newest 100 answers stay in the file
        desk.deny(desk.submit(token, SeatAction("Finesse", cost=0)).request.number)
    rows = json.loads(requests_path(encounter).read_text())["requests"]
    numbers = [row["number"] for row in rows]
    # 105 answered (1-10, 12-106): the oldest five go; Borin's waiting 11 stays.
    assert numbers == list(range(6, 107))
    assert [row["number"] for row in rows if row["status"] == "pending"] == [11]
    assert json.loads(requests_path(encounter).read_text())["next"] == 107


def test_a_seat_sends_at_most_twelve_extra_dice(encounter):
    token = Seats(encounter).add("Aria").token
    desk = _desk(encounter)
    before = files(encounter)
    with pytest.raises(InputError, match=r"extra: '13 dice': at most 12 extra dice from a seat"):
        desk.submit(token, SeatAction("Finesse", cost=0, extra=("1d4+6d6", "6d8")))
    assert files(encounter) == before
    assert (
        desk.submit(token, SeatAction("Finesse", cost=0, extra=("6d6", "6d8"))).request.number == 1
    )
