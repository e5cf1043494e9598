"""``PATH.drafts``: the action each seat is building now, for the GM's board.

A seat's page asks for a preview while its player builds an action; each preview leaves its
plan here (one row per creature, the newest), so the GM sees the pool grow before the roll.
A private side file like ``PATH.seats`` (`d4cli.store.private`: mode 0600, never a link),
written under the encounter's lock, read without it. It holds no token and nothing the GM
does not see on the board already; a damaged file is named, never a crash::

    {"version": 1, "drafts": [{"creature": "Aria", "time": "2026-12-04T01:02:03+00:00",
      "aspect": "Finesse", "cost": 1, "target": "Goblin 2", "pool": 4, "extra": 1,
      "allowed": true}]}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from d4cli.store.private import damaged, read_object, side_path, write_object

DRAFTS_SUFFIX = ".drafts"
_KEYS = ("creature", "time", "aspect", "cost", "target", "pool", "extra", "allowed")


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


def drafts_path(path: Path) -> Path:
    return side_path(path, DRAFTS_SUFFIX)


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
    return tuple(_row(side, index, row) for index, row in enumerate(rows, 1))


def _row(side: Path, index: int, row: object) -> DraftRow:
    where = f"drafts[{index}]"
    if not isinstance(row, dict) or sorted(row) != sorted(_KEYS):
        raise damaged(side, where, None, f"must hold exactly {', '.join(_KEYS)}")
    kinds: dict[str, Any] = {"creature": str, "time": str, "aspect": str, "allowed": bool}
    for key, kind in kinds.items():
        if not isinstance(row[key], kind):
            raise damaged(side, f"{where}.{key}", row[key], f"must be {kind.__name__}")
    for key in ("cost", "pool", "extra"):
        if (
            not isinstance(row[key], int)
            or isinstance(row[key], bool)
            or not 0 <= row[key] <= 10**6
        ):
            raise damaged(side, f"{where}.{key}", row[key], "must be a whole number 0..1000000")
    if row["target"] is not None and not isinstance(row["target"], str):
        raise damaged(side, f"{where}.target", row["target"], "must be text or null")
    return DraftRow(*(row[key] for key in _KEYS))


def write_draft(path: Path, draft: DraftRow) -> None:
    """Keep *draft* as its creature's newest (call it under the encounter's lock).

    Raises:
        FileError: the file is not d4cli's own or damaged, or the write failed.
    """
    kept = [row for row in read_drafts(path) if row.creature != draft.creature]
    rows = [row._asdict() for row in (*kept, draft)]
    write_object(drafts_path(path), {"version": 1, "drafts": rows}, path)


def drop_draft(path: Path, creature: str) -> None:
    """Forget *creature*'s draft once its request is sent (call it under the encounter's lock).

    Raises:
        FileError: the file is not d4cli's own or damaged, or the write failed.
    """
    rows = read_drafts(path)
    kept = [row._asdict() for row in rows if row.creature != creature]
    if len(kept) != len(rows):
        write_object(drafts_path(path), {"version": 1, "drafts": kept}, path)
