"""Stale temp files of atomic replacement: `remove_leftovers`, one rule for every file of an
encounter (the file, its redo records, the seats' side files).

`d4cli.store.files.replace_file` writes each new file to a ``tempfile.mkstemp``
file beside it (``.NAME.XXXXXXXX.tmp``) and renames it over the file; a process
killed in between leaves that temp file behind, and the next change removes it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


def remove_leftovers(paths: Iterable[Path]) -> None:
    """`remove_stale_temp_files` of each of *paths*: the encounter file and every file of it
    that is replaced whole (called under the lock, just before a change writes)."""
    for path in paths:
        remove_stale_temp_files(path)


def remove_stale_temp_files(path: Path) -> None:
    """Remove the temp files a killed change left beside *path* (``.NAME.XXXXXXXX.tmp``).

    Called under the lock, just before a write: no other change of this
    encounter can be running, so every such file is stale. Only this
    encounter's temp files match: the random part has no dot, so
    ``.a.toml.x.XXXXXXXX.tmp`` (the encounter ``a.toml.x``) is never taken for
    one of ``a.toml``. Best effort.
    """
    prefix = f".{path.name}."
    folder = path.parent
    try:
        with os.scandir(folder) as entries:
            stale = [entry.name for entry in entries if _is_temp_name(entry.name, prefix)]
    except OSError:
        return
    for name in stale:
        try:
            os.unlink(folder / name)
        except OSError:
            pass


_TEMP_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


def _is_temp_name(name: str, prefix: str) -> bool:
    """*name* is ``PREFIX`` + one or more of ``[a-z0-9_]`` + ``.tmp`` (a `replace_file` temp file)."""
    if not (name.startswith(prefix) and name.endswith(".tmp")):
        return False
    middle = name[len(prefix) : -len(".tmp")]
    return bool(middle) and _TEMP_CHARS.issuperset(middle)
