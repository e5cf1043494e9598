"""Private side files: ``PATH.seats`` and ``PATH.requests``, JSON the GM's side alone reads.

Each is one JSON object, replaced whole and atomically (a temp file in the folder, synced,
renamed over the old one) with mode 0600 whatever the encounter file's mode: ``PATH.seats``
holds the seats' tokens, which are keys. A side file that is a symlink, not a regular file
or of another owner is refused before anything is read or written
(`d4cli.store.sidefiles.check_side_file`), and so is one that other users may read or write
(a mode other than 0600 or 0400, as a copy or a hand edit may leave): its tokens may have been
seen. Writers are called under the encounter's lock
(`d4cli.store.lock.locked`, or inside a `d4cli.store.transaction.Transaction`); readers need none.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from d4cli.rules.errors import FileError
from d4cli.store import files, sidefiles

PRIVATE_MODE = 0o600
MAX_SIDE_BYTES = 1024 * 1024


def side_path(path: Path, suffix: str) -> Path:
    """``PATH`` + *suffix* (``.seats``, ``.requests``), beside the encounter file."""
    return path.with_name(path.name + suffix)


def read_object(side: Path) -> dict[str, Any] | None:
    """The JSON object in *side*, opened without following a link; None when there is none.

    Raises:
        FileError: a link, not d4cli's own, open to other users, unreadable, over 1 MB, not
            UTF-8 JSON (nesting too deep included), not an object.
    """
    fd = sidefiles.open_side(side)
    if fd is None:
        return None
    try:
        with os.fdopen(fd, "rb") as handle:
            _check_private(side, os.fstat(handle.fileno()))
            data = handle.read(MAX_SIDE_BYTES + 1)
    except OSError as error:
        raise FileError(side, "", None, f"cannot read: {error.strerror}") from None
    if len(data) > MAX_SIDE_BYTES:
        raise FileError(side, "", None, "is larger than 1 MB: damaged")
    try:
        value = json.loads(files.decode(data, side))
    except (ValueError, RecursionError):
        raise FileError(
            side, "", None, "is not valid JSON: damaged (remove it to start afresh)"
        ) from None
    if not isinstance(value, dict):
        raise FileError(
            side, "", None, "must hold a JSON object: damaged (remove it to start afresh)"
        )
    return value


def _check_private(side: Path, info: os.stat_result) -> None:
    """Refuse a side file that other users may read or write (POSIX modes only)."""
    if os.name == "posix" and info.st_mode & 0o077:
        mode = f"{stat.S_IMODE(info.st_mode):04o}"
        raise FileError(
            side,
            "",
            None,
            f"is mode {mode}: other users may read it; 'chmod 600' it "
            "(then 'd4cli seat reset' if a seat's token may have been read)",
        )


def write_object(side: Path, value: dict[str, Any], owner: Path) -> None:
    """Replace *side* with *value* as JSON, atomically, mode 0600, the owner of *owner* (the encounter).

    Call it under the encounter's lock. A *side* that is a link or another's file is refused.

    Raises:
        FileError: *side* is not d4cli's own, or the write failed (nothing changed).
    """
    sidefiles.check_side_file(side)
    data = (json.dumps(value, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
    try:
        files.replace_file(side, data, PRIVATE_MODE, owner)
    except OSError as error:
        raise files.write_failed(side, error) from None


def damaged(side: Path, field: str, value: object, problem: str) -> FileError:
    """The error for a damaged private file, naming the file, the field and the value."""
    return FileError(
        side, field, value, f"{problem} (the file is damaged: remove it to start afresh)"
    )
