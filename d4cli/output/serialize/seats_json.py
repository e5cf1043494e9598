"""Seats and their requests as JSON: ``seat list --json``, ``requests --json``, ``approve``/``deny``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from d4cli.output.serialize import JsonObject


def seat_json(creature: str, join_path: str) -> JsonObject:
    """One seat: ``creature`` and ``path`` (the join path ``/seat/TOKEN``, which holds its key)."""
    return {"creature": creature, "path": join_path}


def added_json(creature: str, join_path: str) -> JsonObject:
    """``seat add``: ``{"kind": "seat", "creature", "path"}``."""
    return {"kind": "seat", **seat_json(creature, join_path)}


def removed_json(creature: str) -> JsonObject:
    """``seat remove``: ``{"kind": "seat", "creature", "path": null, "removed": true}``."""
    return {"kind": "seat", "creature": creature, "path": None, "removed": True}


def seats_json(seats: Iterable[tuple[str, str]]) -> JsonObject:
    """``{"kind": "seats", "seats": [seat_json...]}`` from ``(creature, join path)`` pairs."""
    return {"kind": "seats", "seats": [seat_json(c, j) for c, j in seats]}


def request_json(row: Any) -> JsonObject:
    """One request: ``id`` (its number), ``creature``, ``time``, ``status`` (pending, approved, denied),
    ``reason``, the ``act`` asked for (aspect, cost, advantage, disadvantage, extra, target,
    faces) and ``result`` (the ``act`` object once carried out, else null)."""
    return {
        "kind": "request",
        "id": row.number,
        "creature": row.creature,
        "time": row.time,
        "status": row.status,
        "reason": row.reason,
        "act": dict(row.act),
        "result": row.result,
    }


def requests_json(rows: Iterable[Any]) -> JsonObject:
    """``{"kind": "requests", "requests": [request_json...]}``."""
    return {"kind": "requests", "requests": [request_json(row) for row in rows]}


def seat_act_json(act: JsonObject, number: int, seat: str) -> JsonObject:
    """The ``act`` object of a request carried out, with its ``request`` number and ``seat``."""
    return {**act, "request": number, "seat": seat}


def draft_json(row: Any) -> JsonObject:
    """An action a seat is building (`d4cli.store.seat_files.DraftRow`): ``creature``, ``time``,
    ``aspect``, ``cost``, ``target`` (as the players name it, or null), ``pool`` (d4s),
    ``extra`` (extra dice), ``allowed`` (the gate, R2)."""
    return dict(row._asdict())
