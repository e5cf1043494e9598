"""The seats' side files beside an encounter: ``PATH.seats`` (each seat's creature and token),
``PATH.requests`` (the action requests seats sent, with their answers and the index of the
journal entries that carried them out) and ``PATH.drafts`` (the action each seat is building).

All three are private side files (`d4cli.store.private`: mode 0600, never a link, replaced
whole and atomically under the encounter's lock, read without it); a damaged one is named,
field and value, never a crash. None holds anything of the encounter file or its journal but
the index's marks (`d4cli.store.history.Mark`).

``PATH.seats`` (version 1)::

    {"version": 1, "seats": [{"creature": "Aria", "token": "<32+ url-safe characters>"}]}

A token is `secrets.token_urlsafe` of `TOKEN_BYTES` bytes (192 bits). It is kept here alone:
never in the encounter file, its journal, the players' view or a log. `find` compares a
token with every seat's in constant time (`hmac.compare_digest`).

``PATH.requests`` (version 1)::

    {"version": 1, "next": 3, "requests": [
      {"number": 1, "creature": "Aria", "time": "2026-12-04T01:02:03+00:00",
       "act": {"aspect": "Finesse", "cost": 1, "advantage": [], "disadvantage": [],
               "extra": ["1d4"], "target": "Goblin", "faces": null},
       "status": "approved", "reason": null, "result": {...the act's JSON...},
       "key": "<the page's key>", "seen": {"round": 1, "turn": "Aria", "load": 0,
               "pool": 5, "effects": [["blessed", "advantage"]], "target_is_down": false}}],
     "carried": {"1": {"seq": 7, "at": 5120, "line": "<16 hex digits>"}},
     "journal": {"seq": 7, "at": 5120, "line": "<16 hex digits>"}}

``status`` is ``pending``, ``approved`` or ``denied``; ``reason`` the GM's words for a
denial; ``result`` the ``act`` object once carried out. ``carried`` is the index: each
carried-out request's number and the mark of its journal entry, written in the same change
(so a request is found by number, never by reading the journal); ``journal`` the mark of the
newest journal entry when the file was written. Both are optional (files written before them
read as an empty index). ``key`` is the key the seat's page gave the request (its sender's
exactly-once key: the same key again finds this request, never a second one), ``seen`` what
the player saw of it when sending (`d4cli.fight.request_sight.Seen`: ``approve`` compares it
with the encounter then); both optional, null in files written before them. No token is ever
kept here.

``PATH.drafts`` (version 1)::

    {"version": 1, "drafts": [{"creature": "Aria", "time": "2026-12-04T01:02:03+00:00",
      "aspect": "Finesse", "cost": 1, "target": "Goblin 2", "pool": 4, "extra": 1,
      "allowed": true}]}

One row per creature, its newest preview; it holds nothing the GM does not see on the board.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple, TypeGuard

from d4cli.rules.errors import FileError
from d4cli.rules.limits import COST
from d4cli.store.files import check_file
from d4cli.store.history import Mark, entries_since
from d4cli.store.private import damaged, read_object, side_path, write_object

SEATS_SUFFIX = ".seats"
REQUESTS_SUFFIX = ".requests"
DRAFTS_SUFFIX = ".drafts"
TOKEN_BYTES = 24
MIN_TOKEN_CHARS = 22  # 128 bits of url-safe base64
_TOKEN_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
STATUSES = ("pending", "approved", "denied")
ACT_KEYS = ("aspect", "cost", "advantage", "disadvantage", "extra", "target", "faces")
_DRAFT_KEYS = ("creature", "time", "aspect", "cost", "target", "pool", "extra", "allowed")


def seats_path(path: Path) -> Path:
    return side_path(path, SEATS_SUFFIX)


def requests_path(path: Path) -> Path:
    return side_path(path, REQUESTS_SUFFIX)


def drafts_path(path: Path) -> Path:
    return side_path(path, DRAFTS_SUFFIX)


def side_paths(path: Path) -> tuple[Path, ...]:
    """The seats' side files of the encounter *path*: ``PATH.seats``, ``.requests``, ``.drafts``."""
    return (seats_path(path), requests_path(path), drafts_path(path))


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# --- PATH.seats ---------------------------------------------------------------------------


class SeatRow(NamedTuple):
    """One seat as the file keeps it: its creature's name (as written in the encounter) and token."""

    creature: str
    token: str


def new_token() -> str:
    """A fresh token: `TOKEN_BYTES` random bytes from `secrets`, url-safe base64 (32 characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def read_seats(path: Path) -> tuple[SeatRow, ...]:
    """The seats of the encounter at *path*, in the order they were given; () without a file.

    Raises:
        FileError: no encounter file at *path*; a link or another's file; damaged: naming the
            file, the field and the value (two seats of one creature or with one token included).
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
        seat = _seat_row(side, number, row)
        if any(other.creature == seat.creature for other in seats):
            raise damaged(side, f"seats[{number}].creature", seat.creature, "has a seat already")
        if any(other.token == seat.token for other in seats):
            raise damaged(side, f"seats[{number}].token", None, "is another seat's token too")
        seats.append(seat)
    return tuple(seats)


def _seat_row(side: Path, number: int, row: object) -> SeatRow:
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


# --- PATH.requests --------------------------------------------------------------------------


class RequestRow(NamedTuple):
    """One request as the file keeps it (plain JSON values)."""

    number: int
    creature: str
    time: str
    act: dict[str, Any]
    status: str = "pending"
    reason: str | None = None
    result: dict[str, Any] | None = None
    key: str | None = None
    seen: dict[str, Any] | None = None


class Requests(NamedTuple):
    """The whole file: the next request's number, every request (oldest first), the index of
    the carried-out ones (number -> the mark of their journal entry) and the mark of the
    newest journal entry when the file was written (None: not known)."""

    next: int = 1
    rows: tuple[RequestRow, ...] = ()
    carried: Mapping[int, Mark] = {}
    journal: Mark | None = None


def read_requests(path: Path) -> Requests:
    """The requests of the encounter at *path*; empty without a file.

    Raises:
        FileError: no encounter file at *path*; a link or another's file; damaged: naming the
            file, the field and the value.
    """
    check_file(path)  # side files without their encounter are no seats of it
    side = requests_path(path)
    value = read_object(side)
    if value is None:
        return Requests()
    if value.get("version") != 1:
        raise damaged(side, "version", value.get("version"), "must be 1")
    following = value.get("next")
    if not _whole(following) or following < 1:
        raise damaged(side, "next", following, "must be a whole number >= 1")
    rows = value.get("requests")
    if not isinstance(rows, list):
        raise damaged(side, "requests", None, "must be a list")
    kept = tuple(_request_row(side, n, row, following) for n, row in enumerate(rows, 1))
    seen: set[int] = set()
    for index, row in enumerate(kept, 1):
        if row.number in seen:
            raise damaged(side, f"requests[{index}].number", row.number, "repeats another's")
        seen.add(row.number)
    carried = value.get("carried", {})
    if not isinstance(carried, dict):
        raise damaged(side, "carried", None, "must be an object")
    marks = {
        _number(side, key): _mark(side, f"carried.{key}", mark) for key, mark in carried.items()
    }
    newest = value.get("journal")
    return Requests(
        following, kept, marks, None if newest is None else _mark(side, "journal", newest)
    )


def _number(side: Path, key: str) -> int:
    if not key.isdigit() or len(key) > 18:
        raise damaged(side, "carried", key, "must be keyed by request numbers")
    return int(key)


def _mark(side: Path, where: str, value: object) -> Mark:
    if (
        not isinstance(value, dict)
        or set(value) != {"seq", "at", "line"}
        or not all(_whole(value[key]) and value[key] >= 0 for key in ("seq", "at"))
        or not isinstance(value["line"], str)
    ):
        raise damaged(side, where, None, "must be an object of seq, at (whole numbers) and line")
    return Mark(value["seq"], value["at"], value["line"])


def _request_row(side: Path, index: int, row: object, following: int) -> RequestRow:
    where = f"requests[{index}]"
    if not isinstance(row, dict):
        raise damaged(side, where, None, "must be an object")
    number = row.get("number")
    if not _whole(number) or not 1 <= number < following:
        raise damaged(
            side, f"{where}.number", number, f"must be a whole number within 1..{following - 1}"
        )
    for key in ("creature", "time"):
        if not isinstance(row.get(key), str):
            raise damaged(side, f"{where}.{key}", row.get(key), "must be text")
    act = row.get("act")
    if not isinstance(act, dict) or set(act) != set(ACT_KEYS):
        raise damaged(side, f"{where}.act", None, "must be an object of " + ", ".join(ACT_KEYS))
    _check_act(side, f"{where}.act", act)
    status = row.get("status")
    if status not in STATUSES:
        raise damaged(side, f"{where}.status", status, "must be one of " + ", ".join(STATUSES))
    reason, result = row.get("reason"), row.get("result")
    if reason is not None and not isinstance(reason, str):
        raise damaged(side, f"{where}.reason", reason, "must be text or null")
    if result is not None and not isinstance(result, dict):
        raise damaged(side, f"{where}.result", None, "must be an object or null")
    kept_key, seen = row.get("key"), row.get("seen")
    if kept_key is not None and not isinstance(kept_key, str):
        raise damaged(side, f"{where}.key", None, "must be text or null")
    if seen is not None and not isinstance(seen, dict):
        raise damaged(side, f"{where}.seen", None, "must be an object or null")
    return RequestRow(
        number, row["creature"], row["time"], act, status, reason, result, kept_key, seen
    )


def _texts(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _check_act(side: Path, where: str, act: dict[str, Any]) -> None:
    """The types of a stored act (what `act` takes); its rules are judged at approval."""
    low, high = COST
    cost, faces = act["cost"], act["faces"]
    if not isinstance(act["aspect"], str):
        raise damaged(side, f"{where}.aspect", act["aspect"], "must be text")
    if cost is not None and not (_whole(cost) and low <= cost <= high):
        raise damaged(side, f"{where}.cost", cost, f"must be null or a whole number {low}..{high}")
    for key in ("advantage", "disadvantage", "extra"):
        if not _texts(act[key]):
            raise damaged(side, f"{where}.{key}", None, "must be a list of text")
    if act["target"] is not None and not isinstance(act["target"], str):
        raise damaged(side, f"{where}.target", act["target"], "must be text or null")
    if faces is not None and not (isinstance(faces, list) and all(_whole(f) for f in faces)):
        raise damaged(side, f"{where}.faces", None, "must be null or a list of whole numbers")


def write_requests(path: Path, requests: Requests) -> None:
    """Replace ``PATH.requests`` with *requests* (atomically, mode 0600); call it under the lock.
    The index keeps the requests the file keeps.

    Raises:
        FileError: the side file is not d4cli's own, or the write failed.
    """
    numbers = {row.number for row in requests.rows}
    carried = {
        str(number): mark._asdict()
        for number, mark in sorted(requests.carried.items())
        if number in numbers
    }
    value = {
        "version": 1,
        "next": requests.next,
        "requests": [row._asdict() for row in requests.rows],
        "carried": carried,
        "journal": None if requests.journal is None else requests.journal._asdict(),
    }
    write_object(requests_path(path), value, path)


# --- PATH.drafts ------------------------------------------------------------------------------


class DraftRow(NamedTuple):
    """An action a seat is building: its creature, when it was last previewed (ISO 8601),
    the Aspect or named action, the Cost, the target as the players name it (or None), the
    pool's d4s, the extra dice and whether the gate allows it (R2)."""

    creature: str
    time: str
    aspect: str
    cost: int
    target: str | None
    pool: int
    extra: int
    allowed: bool


def read_drafts(path: Path) -> tuple[DraftRow, ...]:
    """The drafts beside the encounter *path*, one per creature (() when there are none).

    Raises:
        FileError: the file is a link, not d4cli's own, or damaged (naming the field).
    """
    side = drafts_path(path)
    value = read_object(side)
    if value is None:
        return ()
    rows = value.get("drafts")
    if value.get("version") != 1 or not isinstance(rows, list):
        raise damaged(side, "drafts", None, "must be a list in a version 1 file")
    return tuple(_draft_row(side, index, row) for index, row in enumerate(rows, 1))


def _draft_row(side: Path, index: int, row: object) -> DraftRow:
    where = f"drafts[{index}]"
    if not isinstance(row, dict) or sorted(row) != sorted(_DRAFT_KEYS):
        raise damaged(side, where, None, f"must hold exactly {', '.join(_DRAFT_KEYS)}")
    kinds: dict[str, Any] = {"creature": str, "time": str, "aspect": str, "allowed": bool}
    for key, kind in kinds.items():
        if not isinstance(row[key], kind):
            raise damaged(side, f"{where}.{key}", row[key], f"must be {kind.__name__}")
    for key in ("cost", "pool", "extra"):
        if not _whole(row[key]) or not 0 <= row[key] <= 10**6:
            raise damaged(side, f"{where}.{key}", row[key], "must be a whole number 0..1000000")
    if row["target"] is not None and not isinstance(row["target"], str):
        raise damaged(side, f"{where}.target", row["target"], "must be text or null")
    return DraftRow(*(row[key] for key in _DRAFT_KEYS))


def write_draft(path: Path, draft: DraftRow) -> None:
    """Keep *draft* as its creature's newest (call it under the encounter's lock). Best
    effort: a drafts file that is not d4cli's own or damaged, or a write that fails, leaves it
    as it was (`side_problems` names it); a preview or an act never fails for a draft."""
    try:
        kept = [row for row in read_drafts(path) if row.creature != draft.creature]
        rows = [row._asdict() for row in (*kept, draft)]
        write_object(drafts_path(path), {"version": 1, "drafts": rows}, path)
    except FileError:
        pass


def drop_draft(path: Path, creature: str) -> None:
    """Forget *creature*'s draft once its request is sent (call it under the encounter's lock).
    Best effort, as `write_draft`: the request's change stands whatever this file holds."""
    try:
        rows = read_drafts(path)
        kept = [row._asdict() for row in rows if row.creature != creature]
        if len(kept) != len(rows):
            write_object(drafts_path(path), {"version": 1, "drafts": kept}, path)
    except FileError:
        pass


# --- all three ---------------------------------------------------------------------------------

SIDE_READERS = (read_seats, read_requests, read_drafts)


def side_problems(path: Path) -> tuple[FileError, ...]:
    """Why each of the seats' side files beside the encounter *path* (``PATH.seats``,
    ``PATH.requests``, ``PATH.drafts``) cannot be read, in that order: a link, another's file,
    open to other users, damaged (each error names its file). () when all read, or are absent."""
    problems = []
    for read in SIDE_READERS:
        try:
            read(path)
        except FileError as error:
            problems.append(error)
    return tuple(problems)


def unindexed(path: Path, requests: Requests) -> list[tuple[Mark, dict[str, Any]]]:
    """The standing journal entries the index of *requests* has not seen that could carry one of
    its waiting requests, newest first, with their marks: none when no request waits, else those
    newer than the index's ``journal`` mark and not older than the oldest waiting request
    (`d4cli.store.history.entries_since`). A crash between a request's journal entry and this
    file leaves such an entry; the walk stays within the changes since the file was written.

    Raises:
        FileError: the encounter file or the journal cannot be read.
    """
    waiting = [row.time for row in requests.rows if row.status == "pending"]
    if not waiting:
        return []
    return list(entries_since(path, requests.journal, min(waiting)))
