"""``PATH.requests``: the action requests seats sent, numbered, with their answers
(`d4cli.store.private`: mode 0600, no links, replaced atomically under the encounter's lock).

The format (version 1)::

    {"version": 1, "next": 3, "requests": [
      {"number": 1, "creature": "Aria", "time": "2026-12-04T01:02:03+00:00",
       "act": {"aspect": "Finesse", "cost": 1, "advantage": [], "disadvantage": [],
               "extra": ["1d4"], "target": "Goblin", "faces": null},
       "status": "approved", "reason": null, "result": {...the act's JSON...}}]}

``status`` is ``pending``, ``approved`` or ``denied``; ``reason`` the GM's words for a
denial; ``result`` the ``act`` object once carried out. No token is ever kept here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple, TypeGuard

from d4cli.rules.limits import COST
from d4cli.store.files import check_file
from d4cli.store.private import damaged, read_object, side_path, write_object

REQUESTS_SUFFIX = ".requests"
STATUSES = ("pending", "approved", "denied")
ACT_KEYS = ("aspect", "cost", "advantage", "disadvantage", "extra", "target", "faces")


class RequestRow(NamedTuple):
    """One request as the file keeps it (plain JSON values)."""

    number: int
    creature: str
    time: str
    act: dict[str, Any]
    status: str = "pending"
    reason: str | None = None
    result: dict[str, Any] | None = None


class Requests(NamedTuple):
    """The whole file: the next request's number and every request, oldest first."""

    next: int = 1
    rows: tuple[RequestRow, ...] = ()


def requests_path(path: Path) -> Path:
    return side_path(path, REQUESTS_SUFFIX)


def read_requests(path: Path) -> Requests:
    """The requests of the encounter at *path*; empty without a file.

    Raises:
        FileError: no encounter file at *path*; a link or another's file; damaged: naming the file, the field and the value.
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
    kept = tuple(_row(side, n, row, following) for n, row in enumerate(rows, 1))
    seen: set[int] = set()
    for index, row in enumerate(kept, 1):
        if row.number in seen:
            raise damaged(side, f"requests[{index}].number", row.number, "repeats another's")
        seen.add(row.number)
    return Requests(following, kept)


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _row(side: Path, index: int, row: object, following: int) -> RequestRow:
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
    return RequestRow(number, row["creature"], row["time"], act, status, reason, result)


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

    Raises:
        FileError: the side file is not d4cli's own, or the write failed.
    """
    rows = [row._asdict() for row in requests.rows]
    write_object(requests_path(path), {"version": 1, "next": requests.next, "requests": rows}, path)
