"""Replay: the encounter file's text after each standing journal entry, rebuilt from the patches; read-only.

``status --at SEQ`` and ``log --states`` read through here. Nothing is locked
or written: the file is only ever replaced whole, and the journal only grows
at its end or is cut back by ``undo``, so one read of each is a consistent
picture.

Each entry's ``after`` text is found two ways, and each result is checked
against the entry's ``after`` hash (so a text is either byte-exact or None):

- forward from the newest ``init``'s ``text``, applying each entry's patch
  (an entry that keeps ``prev`` restarts the chain from it);
- backward from the encounter file as it is now, when it is still what the
  newest entry wrote: each entry's ``before`` (its ``prev``, or its patch
  taken back) is the ``after`` of the entry before it.

A text neither way reaches (a hand edit between two entries whose patches
cannot bridge it) stays None.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from d4cli.fileformat.encounter_toml import parse_encounter
from d4cli.journal.entry import is_init
from d4cli.store import files, journal
from d4cli.store.history import standing_entries


class Replay(NamedTuple):
    """The standing entries from the newest ``init``, oldest first, each with the file text after it.

    Attributes:
        entries: the journal entries as written (bookkeeping keys included).
        texts: per entry, the file's text right after it, or None where it cannot be rebuilt.
        warning: a damaged journal line the history reaches, in words, or None.
    """

    entries: list[dict[str, Any]]
    texts: list[str | None]
    warning: str | None = None


def _hash(text: str) -> str:
    return files.digest(text.encode("utf-8"))


def replay_texts(path: Path) -> Replay:
    """Every standing entry (back to the newest ``init``) with the text the file had right after it.

    The encounter file is validated first, as on every read.

    Raises:
        FileError: the encounter file or its journal is unreadable, or the file is invalid.
    """

    return _replay(path, None)


def replay_newest(path: Path, last: int) -> Replay:
    """The newest *last* standing entries with the text the file had right after each,
    rebuilt backward from the file alone: what it costs follows *last*, not the history.

    Raises:
        FileError: the encounter file or its journal is unreadable, or the file is invalid.
    """
    return _replay(path, last)


def rebuild(entries: list[dict[str, Any]], current: str | None) -> list[str | None]:
    """The ``after`` text of each of *entries* (oldest first), from their patches and the *current* file text.

    Pure: see the module's docstring for the two ways. Every text returned
    matches its entry's ``after`` hash.
    """
    texts: list[str | None] = [None] * len(entries)
    text: str | None = None
    for number, entry in enumerate(entries):
        if is_init(entry):
            found = entry.get("text")
            text = found if isinstance(found, str) else None
        else:
            prev = entry.get("prev")
            if isinstance(prev, str) and _hash(prev) == entry.get("before"):
                text = prev
            patch = entry.get("patch")
            if text is not None and isinstance(patch, list) and _hash(text) == entry.get("before"):
                text = journal.apply_patch(text, patch)
            else:
                text = None
        if text is not None and _hash(text) != entry.get("after"):
            text = None
        texts[number] = text
    # Backward from the file: fills what the forward pass could not reach.
    text = current
    for number in range(len(entries) - 1, -1, -1):
        entry = entries[number]
        if text is not None and _hash(text) != entry.get("after"):
            text = None
        if texts[number] is None:
            texts[number] = text
        text = texts[number]
        if is_init(entry):
            break
        prev = entry.get("prev")
        patch = entry.get("patch")
        if isinstance(prev, str):
            text = prev
        elif text is not None and isinstance(patch, list):
            text = journal.apply_patch(text, patch, reverse=True)
        else:
            text = None
        if text is not None and _hash(text) != entry.get("before"):
            text = None
    return texts


def _replay(path: Path, last: int | None) -> Replay:
    """The standing entries (the newest *last*, or all for None) with the text after each."""
    path = files.real_path(path)
    data = files.read_bytes(path)
    text = files.decode(data, path)
    parse_encounter(text, path)
    history = standing_entries(path, files.digest(data), last)
    return Replay(history.entries, rebuild(history.entries, text), history.warning)
