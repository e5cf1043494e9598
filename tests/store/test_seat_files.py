"""``PATH.seats`` and ``PATH.requests``: mode 0600, never through a link, replaced atomically,
a damaged file named with its field (`d4cli.store.seat_files`)."""

from __future__ import annotations

import json
import os
import stat

import pytest
from _cli import fails, ok

from d4cli.rules.errors import FileError
from d4cli.store import seat_files as seat_file
from d4cli.store.private import read_object
from d4cli.store.seat_files import (
    MIN_TOKEN_CHARS,
    read_requests,
    read_seats,
    requests_path,
    seats_path,
    write_seats,
)


def write_private(path, text: str) -> None:
    """A hand-written side file, mode 0600 as d4cli keeps it."""
    path.write_text(text)
    path.chmod(0o600)


@pytest.fixture
def encounter(tmp_path):
    path = tmp_path / "encounter.toml"
    ok("init", "--from", "skirmish")
    return path


def test_a_seat_file_is_mode_0600_whatever_the_umask_and_the_encounter(encounter):
    os.chmod(encounter, 0o644)
    old = os.umask(0)
    try:
        ok("seat", "add", "Aria")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(seats_path(encounter)).st_mode) == 0o600


def test_a_token_has_at_least_128_bits_of_url_safe_characters(encounter):
    ok("seat", "add", "Aria")
    (row,) = read_seats(encounter)
    assert row.creature == "Aria"
    assert len(row.token) == 32 >= MIN_TOKEN_CHARS  # 24 bytes = 192 bits
    assert set(row.token) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def test_a_linked_seat_file_is_refused_and_its_target_untouched(encounter, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    seats_path(encounter).symlink_to(victim)
    line = fails(2, encounter, "seat", "add", "Aria")
    assert "encounter.toml.seats" in line and "symlink" in line
    assert victim.read_text() == "mine\n"
    assert seats_path(encounter).is_symlink()


def test_a_linked_requests_file_is_refused_on_reading(encounter, tmp_path):
    victim = tmp_path / "victim.json"
    victim.write_text('{"version": 1, "next": 1, "requests": []}')
    requests_path(encounter).symlink_to(victim)
    with pytest.raises(FileError, match="symlink"):
        read_requests(encounter)
    assert "symlink" in fails(2, encounter, "requests")


def test_a_failed_write_leaves_the_old_seats_file_whole(encounter, monkeypatch):
    ok("seat", "add", "Aria")
    before = seats_path(encounter).read_bytes()

    def broken(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(FileError, match="No space left"):
        write_seats(encounter, (seat_file.SeatRow("Borin", seat_file.new_token()),))
    assert seats_path(encounter).read_bytes() == before
    assert [p.name for p in encounter.parent.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("not json", "is not valid JSON"),
        ("[]", "must hold a JSON object"),
        ('{"version": 2, "seats": []}', "version: 2"),
        ('{"version": 1, "seats": {}}', "seats: must be a list"),
        ('{"version": 1, "seats": [{"creature": "Aria"}]}', "seats[1]"),
        ('{"version": 1, "seats": [{"creature": "Aria", "token": "short"}]}', "seats[1].token"),
        (
            '{"version": 1, "seats": [{"creature": 3, "token": "' + "a" * 32 + '"}]}',
            "seats[1].creature",
        ),
    ],
)
def test_a_damaged_seats_file_is_exit_2_naming_the_file_and_the_field(encounter, text, named):
    write_private(seats_path(encounter), text)
    for args in (("seat", "list"), ("seat", "add", "Aria"), ("seat", "reset")):
        line = fails(2, encounter, *args)
        assert "encounter.toml.seats" in line and named in line, line


def test_a_damaged_token_is_never_shown(encounter):
    token = "secret!" * 5
    write_private(
        seats_path(encounter),
        json.dumps({"version": 1, "seats": [{"creature": "Aria", "token": token}]}),
    )
    assert token not in fails(2, encounter, "seat", "list")


@pytest.mark.parametrize(
    ("value", "named"),
    [
        ({"version": 1, "next": 0, "requests": []}, "next: 0"),
        ({"version": 1, "next": 2, "requests": [{"number": 5}]}, "requests[1].number: 5"),
        (
            {
                "version": 1,
                "next": 2,
                "requests": [{"number": 1, "creature": "Aria", "time": "t", "act": {}}],
            },
            "requests[1].act",
        ),
    ],
)
def test_a_damaged_requests_file_is_exit_2_naming_the_field(encounter, value, named):
    write_private(requests_path(encounter), json.dumps(value))
    line = fails(2, encounter, "requests")
    assert "encounter.toml.requests" in line and named in line, line


def _request(number: int, **act: object) -> dict:
    stored = {"aspect": "Finesse", "cost": None, "advantage": [], "disadvantage": []}
    stored |= {"extra": [], "target": None, "faces": None} | act
    return {"number": number, "creature": "Aria", "time": "t", "act": stored, "status": "pending"}


@pytest.mark.parametrize(
    ("rows", "named"),
    [
        ([_request(1, cost=10**20)], "requests[1].act.cost: 100000000000000000000"),
        (
            [_request(1, cost=True)],
            "requests[1].act.cost: true: must be null or a whole number 0..1000",
        ),
        ([_request(1, advantage="zz")], "requests[1].act.advantage: must be a list of text"),
        ([_request(1, extra=[4])], "requests[1].act.extra: must be a list of text"),
        ([_request(1, faces="abc")], "requests[1].act.faces: must be null or a list"),
        ([_request(1, target=7)], "requests[1].act.target: 7"),
        ([_request(1, aspect=None)], "requests[1].act.aspect: must be text"),
        ([_request(1), _request(1)], "requests[2].number: 1: repeats another's"),
    ],
)
def test_a_hand_edited_request_of_the_wrong_shape_is_exit_2_naming_the_field(
    encounter, rows, named
):
    write_private(requests_path(encounter), json.dumps({"version": 1, "next": 3, "requests": rows}))
    for args in (("requests",), ("approve", "1"), ("deny", "1")):
        line = fails(2, encounter, *args)
        assert "encounter.toml.requests" in line and named in line, line


@pytest.mark.parametrize(
    ("rows", "named"),
    [
        ([["Aria", "a" * 32], ["Aria", "b" * 32]], "seats[2].creature: 'Aria': has a seat already"),
        ([["Aria", "a" * 32], ["Borin", "a" * 32]], "seats[2].token: is another seat's token too"),
    ],
)
def test_two_seats_of_one_creature_or_one_token_are_a_damaged_file(encounter, rows, named):
    seats = [{"creature": creature, "token": token} for creature, token in rows]
    write_private(seats_path(encounter), json.dumps({"version": 1, "seats": seats}))
    line = fails(2, encounter, "seat", "list")
    assert named in line and "a" * 32 not in line, line


def test_a_side_file_nested_past_any_json_depth_is_damaged_not_a_crash(encounter):
    write_private(seats_path(encounter), '{"version": 1, "seats": ' + "[" * 100_000 + "}")
    assert "encounter.toml.seats: is not valid JSON" in fails(2, encounter, "seat", "list")
    deep = '{"version": 1, "next": 1, "requests": ' + "[" * 100_000 + "]" * 100_000 + "}"
    write_private(requests_path(encounter), deep)
    assert "encounter.toml.requests: is not valid JSON" in fails(2, encounter, "requests")


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o666])
def test_a_side_file_other_users_may_read_is_refused_and_left_as_it_is(encounter, mode):
    ok("seat", "add", "Aria")
    seats_path(encounter).chmod(mode)
    for args in (("seat", "list"), ("seat", "add", "Borin"), ("seat", "reset")):
        line = fails(2, encounter, *args)
        assert f"encounter.toml.seats: is mode {mode:04o}: other users may read it" in line
        assert stat.S_IMODE(os.stat(seats_path(encounter)).st_mode) == mode
    seats_path(encounter).chmod(0o600)
    write_private(requests_path(encounter), '{"version": 1, "next": 1, "requests": []}')
    requests_path(encounter).chmod(mode)
    assert f"encounter.toml.requests: is mode {mode:04o}" in fails(2, encounter, "requests")


def test_find_compares_every_seat_and_misses_unknown_tokens():
    rows = (seat_file.SeatRow("Aria", "a" * 32), seat_file.SeatRow("Borin", "b" * 32))
    assert seat_file.find(rows, "b" * 32) == rows[1]
    assert seat_file.find(rows, "b" * 31) is None
    assert seat_file.find(rows, "") is None
    assert seat_file.find(rows, "\udcff" * 32) is None  # not even UTF-8: no match, no error


def test_seats_and_requests_without_their_encounter_file_are_exit_2(tmp_path):
    path = tmp_path / "encounter.toml"
    write_private(seats_path(path), json.dumps({"version": 1, "seats": []}))
    write_private(requests_path(path), '{"version": 1, "next": 1, "requests": []}')
    for args in (("seat", "list"), ("requests",), ("requests", "--all")):
        line = fails(2, path, *args)
        expected = f"no such encounter file (create it with 'd4cli init --file {path}')"
        assert line == f"d4cli: error: {path}: {expected}"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root")
def test_a_side_file_another_user_left_before_the_encounter_is_refused(tmp_path):
    path = tmp_path / "encounter.toml"
    planted = json.dumps({"version": 1, "seats": [{"creature": "Aria", "token": "A" * 29}]})
    write_private(seats_path(path), planted)
    os.chown(seats_path(path), 65534, 65534)  # another user, as in a shared /tmp folder
    with pytest.raises(FileError, match="belongs to .*, not to this user"):
        read_object(seats_path(path))
    ok("init", "--from", "skirmish")
    line = fails(2, path, "seat", "list")
    assert "encounter.toml.seats: belongs to" in line and "A" * 29 not in line
