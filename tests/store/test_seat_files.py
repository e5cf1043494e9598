"""``PATH.seats`` and ``PATH.requests``: mode 0600, never through a link, replaced atomically,
a damaged file named with its field (`d4cli.store.seats`, `d4cli.store.requests`)."""

from __future__ import annotations

import json
import os
import stat

import pytest
from _cli import fails, ok

from d4cli.rules.errors import FileError
from d4cli.store import seats as seat_file
from d4cli.store.requests import read_requests, requests_path
from d4cli.store.seats import MIN_TOKEN_CHARS, read_seats, seats_path, write_seats


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
    seats_path(encounter).write_text(text)
    for args in (("seat", "list"), ("seat", "add", "Aria"), ("seat", "reset")):
        line = fails(2, encounter, *args)
        assert "encounter.toml.seats" in line and named in line, line


def test_a_damaged_token_is_never_shown(encounter):
    token = "secret!" * 5
    seats_path(encounter).write_text(
        json.dumps({"version": 1, "seats": [{"creature": "Aria", "token": token}]})
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
    requests_path(encounter).write_text(json.dumps(value))
    line = fails(2, encounter, "requests")
    assert "encounter.toml.requests" in line and named in line, line


def test_find_compares_every_seat_and_misses_unknown_tokens():
    rows = (seat_file.SeatRow("Aria", "a" * 32), seat_file.SeatRow("Borin", "b" * 32))
    assert seat_file.find(rows, "b" * 32) == rows[1]
    assert seat_file.find(rows, "b" * 31) is None
    assert seat_file.find(rows, "") is None
    assert seat_file.find(rows, "\udcff" * 32) is None  # not even UTF-8: no match, no error
