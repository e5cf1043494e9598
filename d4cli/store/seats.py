"""``PATH.seats``: each seat's creature and token (`d4cli.store.private`: mode 0600, no links).

The format (version 1)::

    {"version": 1, "seats": [{"creature": "Aria", "token": "<32+ url-safe characters>"}]}

A token is `secrets.token_urlsafe` of `TOKEN_BYTES` bytes (192 bits). It is kept here alone:
never in the encounter file, its journal, the players' view or a log. `find` compares a
token with every seat's in constant time (`hmac.compare_digest`).
"""

from __future__ import annotations

import hmac
import secrets
from pathlib import Path
from typing import NamedTuple

from d4cli.store.files import check_file
from d4cli.store.private import damaged, read_object, side_path, write_object

SEATS_SUFFIX = ".seats"
TOKEN_BYTES = 24
MIN_TOKEN_CHARS = 22  # 128 bits of url-safe base64
_TOKEN_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


class SeatRow(NamedTuple):
    """One seat as the file keeps it: its creature's name (as written in the encounter) and token."""

    creature: str
    token: str


def seats_path(path: Path) -> Path:
    return side_path(path, SEATS_SUFFIX)


def new_token() -> str:
    """A fresh token: `TOKEN_BYTES` random bytes from `secrets`, url-safe base64 (32 characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def read_seats(path: Path) -> tuple[SeatRow, ...]:
    """The seats of the encounter at *path*, in the order they were given; () without a file.

    Raises:
        FileError: no encounter file at *path*; a link or another's file; damaged: naming the file, the field and the value
            (two seats of one creature or with one token included).
    """
    check_file(path)  # side files without their encounter are no seats of it
    side = seats_path(path)
    value = read_object(side)
    if value is None:
        return ()
    if value.get("version") != 1:
        raise damaged(side, "version", value.get("version"), "must be 1")
    rows = value.get("seats")
    if not isinstance(rows, list):
        raise damaged(side, "seats", None, "must be a list")
    seats: list[SeatRow] = []
    for number, row in enumerate(rows, 1):
        seat = _row(side, number, row)
        if any(other.creature == seat.creature for other in seats):
            raise damaged(side, f"seats[{number}].creature", seat.creature, "has a seat already")
        if any(other.token == seat.token for other in seats):
            raise damaged(side, f"seats[{number}].token", None, "is another seat's token too")
        seats.append(seat)
    return tuple(seats)


def _row(side: Path, number: int, row: object) -> SeatRow:
    where = f"seats[{number}]"
    if not isinstance(row, dict) or set(row) != {"creature", "token"}:
        raise damaged(side, where, None, "must be an object with creature and token")
    creature, token = row["creature"], row["token"]
    if not isinstance(creature, str) or not creature.strip():
        raise damaged(side, f"{where}.creature", creature, "must be a creature's name")
    if (
        not isinstance(token, str)
        or len(token) < MIN_TOKEN_CHARS
        or not set(token) <= _TOKEN_ALPHABET
    ):
        # The token itself is never shown: it is a key.
        raise damaged(
            side, f"{where}.token", None, f"must be {MIN_TOKEN_CHARS}+ url-safe characters"
        )
    return SeatRow(creature, token)


def write_seats(path: Path, seats: tuple[SeatRow, ...]) -> None:
    """Replace ``PATH.seats`` with *seats* (atomically, mode 0600); call it under the encounter's lock.

    Raises:
        FileError: the side file is not d4cli's own, or the write failed.
    """
    rows = [{"creature": seat.creature, "token": seat.token} for seat in seats]
    write_object(seats_path(path), {"version": 1, "seats": rows}, path)


def find(seats: tuple[SeatRow, ...], token: str) -> SeatRow | None:
    """The seat whose token is *token*, else None; every seat is compared, in constant time each."""
    given = token.encode("utf-8", "replace")
    found = None
    for seat in seats:
        if hmac.compare_digest(seat.token.encode("utf-8"), given):
            found = seat
    return found
