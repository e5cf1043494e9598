"""A hand-written file's comments, kept through a change: the new values edited into the old
document in place (tomlkit), so comments and layout stay byte for byte outside the changed values.

Only for a file that has comments of its own and is at most `MAX_COMMENTED_BYTES`: tomlkit
reads about 0.2 MB a second (a 1,000-creature file of 160 KB took 0.84 s on the 2-core VM at
load 6), past the promise of a first change within 0.5 s. A larger commented file is written
in d4cli's layout, and the change says how many comment lines it dropped (``undo`` brings
them back). Whatever the edit gives is kept only when it reads back as exactly the data of
d4cli's own text; else d4cli's text is written.
"""

from __future__ import annotations

import tomllib
from typing import Any

from d4cli.fileformat.encounter_toml import HEADER

# A commented file up to this size keeps its comments (see the module docstring).
MAX_COMMENTED_BYTES = 48 * 1024


def commented_text(old_text: str, new_text: str) -> str | None:
    """*new_text*'s data written into *old_text*'s document, its comments kept; None when
    *old_text* has no comments of its own, is larger than `MAX_COMMENTED_BYTES`, or the
    edit would not read back as *new_text* does (then *new_text* is written)."""
    if len(old_text) > MAX_COMMENTED_BYTES or "#" not in old_text.removeprefix(HEADER):
        return None
    # Deferred: an optional part of a change, only for a commented hand-written file.
    import tomlkit

    try:
        document = tomlkit.parse(old_text)
        wanted = tomllib.loads(new_text)
        _merge(document, wanted)
        text = tomlkit.dumps(document)
        if tomllib.loads(text) != wanted:
            return None
    except (tomlkit.exceptions.TOMLKitError, tomllib.TOMLDecodeError, ValueError, TypeError):
        return None
    return text


def _merge(table: Any, wanted: dict[str, Any]) -> None:
    """Make *table* (a tomlkit container) hold *wanted*, changing only what differs."""
    for key in [key for key in table if key not in wanted]:
        del table[key]
    for key, value in wanted.items():
        old = table.get(key)
        if isinstance(value, dict) and isinstance(old, dict) and not _inline(old):
            _merge(old, value)
        elif _rows(value) and _is_aot(old) and _same_rows(old, value):
            for row, new_row in zip(old, value, strict=True):
                _merge(row, new_row)
        elif key not in table or _plain(old) != value:
            table[key] = value


def _plain(item: Any) -> Any:
    """*item* as plain Python data (tomlkit items unwrap to it)."""
    return item.unwrap() if hasattr(item, "unwrap") else item


def _inline(item: Any) -> bool:
    return type(item).__name__ == "InlineTable"  # tomlkit's inline table: written anew


def _is_aot(item: Any) -> bool:
    return type(item).__name__ == "AoT"  # tomlkit's array of tables


def _rows(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(row, dict) for row in value)


def _same_rows(old: Any, new: list[dict[str, Any]]) -> bool:
    """The same rows in the same order (by ``name``): each keeps its comments; else the array
    is written anew."""
    return len(old) == len(new) and all(
        row.get("name") == new_row.get("name") for row, new_row in zip(old, new, strict=True)
    )
