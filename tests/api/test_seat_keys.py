"""Exactly once: a seat's request sent again with its key (a double tap, a retry after a lost
answer or a 503) finds the first request and never queues or carries out a second; a key given
to another request asking something else is refused naming ``key``, nothing written."""

from __future__ import annotations

import pytest
from _cli import files

from d4cli.api import InputError
from d4cli.api.encounter import Tracker
from d4cli.api.front_ends import SeatAction, SeatDesk, Seats
from d4cli.api.rolls import ScriptedDice
from d4cli.store.seat_files import read_requests

KEY = "k3Yq-9_aZ0xw"


@pytest.fixture
def encounter(tmp_path):
    path = tmp_path / "encounter.toml"
    Tracker.init(path, template="skirmish")
    return path


def _desk(path, dice=()):
    return SeatDesk(Tracker(path, rng=ScriptedDice(dice)))


def test_the_same_key_again_finds_the_first_request_and_writes_nothing(encounter):
    token = Seats(encounter).add("Aria").token
    action = SeatAction("Finesse", target="Goblin Archer", key=KEY)
    first = _desk(encounter).submit(token, action)
    assert first.request.number == 1 and not first.again and first.request.key == KEY
    before = files(encounter)
    again = _desk(encounter).submit(token, action)
    assert again.again and again.request == first.request and again.change is None
    assert files(encounter) == before
    assert [row.number for row in read_requests(encounter).rows] == [1]
    # A new key is a new request.
    assert _desk(encounter).submit(token, action._replace(key=KEY + "2")).request.number == 2


def test_in_auto_mode_a_key_sent_again_is_carried_out_once(encounter):
    Tracker(encounter).set_view({"seats": "auto"})
    token = Seats(encounter).add("Aria").token
    action = SeatAction("Finesse", cost=0, key=KEY)
    first = _desk(encounter, [4, 4, 4, 4, 4]).submit(token, action)
    assert first.change is not None and first.request.status == "approved" and first.auto
    journal = (encounter.parent / "encounter.toml.journal").read_bytes()
    again = _desk(encounter, [1, 1, 1, 1, 1]).submit(token, action)
    assert again.again and again.change is None and again.auto
    assert again.request.result == first.request.result  # the first roll, not a second one
    assert (encounter.parent / "encounter.toml.journal").read_bytes() == journal


def test_a_key_given_to_another_request_is_refused_naming_key(encounter):
    token = Seats(encounter).add("Aria").token
    _desk(encounter).submit(token, SeatAction("Finesse", key=KEY))
    before = files(encounter)
    with pytest.raises(InputError) as caught:
        _desk(encounter).submit(token, SeatAction("Might", key=KEY))
    assert caught.value.field == "key" and "another request's key" in str(caught.value)
    assert files(encounter) == before


@pytest.mark.parametrize("key", ["short", "has space in it", "x" * 129, "ünïcode-key"])
def test_a_key_that_is_not_8_to_128_url_safe_characters_is_refused(encounter, key):
    token = Seats(encounter).add("Aria").token
    before = files(encounter)
    with pytest.raises(InputError) as caught:
        _desk(encounter).submit(token, SeatAction("Finesse", key=key))
    assert caught.value.field == "key"
    assert files(encounter) == before


def test_each_seat_has_its_own_keys(encounter):
    seats = Seats(encounter)
    aria, borin = seats.add("Aria").token, seats.add("Borin").token
    one = _desk(encounter).submit(aria, SeatAction("Finesse", key=KEY))
    two = _desk(encounter).submit(borin, SeatAction("Might", key=KEY))
    assert (one.request.number, two.request.number) == (1, 2) and not two.again


def test_a_key_sent_again_after_the_gm_answered_gets_the_answer(encounter):
    token = Seats(encounter).add("Aria").token
    action = SeatAction("Finesse", key=KEY)
    _desk(encounter).submit(token, action)
    _desk(encounter).deny(1, "not now")
    again = _desk(encounter).submit(token, action)
    assert again.again and again.request.status == "denied" and again.request.reason == "not now"
    # Ten requests wait at most; a retry of one of them is no eleventh.
    for n in range(9):
        _desk(encounter).submit(token, SeatAction("Finesse", key=f"{KEY}-{n}"))
    _desk(encounter).submit(token, SeatAction("Wits", key="last-one-key"))
    assert _desk(encounter).submit(token, SeatAction("Wits", key="last-one-key")).again
