"""Reading the history: ``log``'s entries and the text an entry goes back to (``undo``); the redo
records are `d4cli.store.redo`'s.

Reads only: the transaction (`d4cli.store.transaction`) hands in what it read under
the lock (the file's bytes and hash, the open journal) and writes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple, cast

from d4cli.fileformat.encounter_toml import parse_encounter
from d4cli.journal.entry import is_init, starts_fight
from d4cli.store import files, journal
from d4cli.store.files import journal_path, real_path


class History(NamedTuple):
    """What ``log`` shows: the standing entries, oldest first, and a warning about a damaged newest line."""

    entries: list[dict[str, Any]]
    warning: str | None = None


def standing_entries(path: Path, file_digest: str | None, last: int | None = None) -> History:
    """Entries that stand, oldest first, back to the start of this fight (the newest ``init`` or
    ``next``; at most *last* of them).

    A damaged line is left out and named in the warning (the newest one, and
    the first one further back that the entries reach); the entries before it
    are shown, back to the newest ``init``.
    """
    journal_file = journal_path(path)
    handle, size = files.open_journal(journal_file)
    if handle is None:
        return History([])
    with handle:  # type: ignore[attr-defined]
        split = journal.standing(journal.lines_backward(handle, size), file_digest, size)  # type: ignore[arg-type]
        entries: list[dict[str, Any]] = []
        skipped: list[str] = []
        for line in split.lines:
            if last is not None and len(entries) >= last:
                break
            if line.entry is None:
                if not skipped:
                    problem = journal.damage(handle, line, False)  # type: ignore[arg-type]
                    skipped.append(
                        f"{journal_file}: {problem}: skipped; 'undo' cannot go back past it"
                    )
                continue
            entries.append(line.entry)
            if starts_fight(line.entry):
                break
        warnings = []
        if split.damaged is not None:
            problem = journal.damage(handle, split.damaged, split.file_newer)  # type: ignore[arg-type]
            warnings.append(f"{journal_file}: {problem}: the change it held is not shown")
        warnings += skipped
        warning = "; ".join(warnings) or None
    entries.reverse()
    return History(entries, warning)


def read_history(path: Path, last: int | None = None) -> History:
    """The changes that stand, oldest first (``d4cli log``); *last* keeps the newest N.

    Reads the journal backwards and stops at *last* entries or at the newest
    ``init``, so ``--last`` reads only what it shows. A damaged newest line is
    not shown; ``warning`` names it. The encounter file is validated first,
    as on every read.

    Raises:
        FileError: the encounter file is unreadable or invalid, or a damaged journal
            line that the entries reach (not the newest).
    """

    path = real_path(path)
    data = files.read_bytes(path)
    parse_encounter(files.decode(data, path), path)
    history = standing_entries(path, files.digest(data), last)
    return History([journal.public_entry(entry) for entry in history.entries], history.warning)


class HistoryStream:
    """The standing entries of `stream_history`, read forward from the journal when iterated.

    Holds no entry but the newest: memory stays flat however long the journal.
    Iterate once (`entries`) for each pass; the journal is read between byte
    offsets found when the stream was made, so each pass gives the same entries.

    Attributes:
        count: how many entries a pass gives.
        newest: the newest of them (as ``log`` shows it), or None when there is none.
        warning: a damaged journal line, in words (as `History.warning`), or None.
    """

    def __init__(
        self,
        journal_file: Path,
        start: int,
        end: int,
        count: int,
        newest: dict[str, Any] | None,
        warning: str | None,
    ) -> None:
        self.journal = journal_file
        self.start, self.end = start, end
        self.count, self.newest, self.warning = count, newest, warning

    def entries(self) -> Iterator[dict[str, Any]]:
        """The entries, oldest first, without their bookkeeping (`journal.public_entry`), one at a time.

        Raises:
            FileError: the journal can no longer be read, or is no longer d4cli's own.
        """
        if not self.count:
            return
        handle, _ = files.open_journal(self.journal)
        if handle is None:
            return
        with handle:  # type: ignore[attr-defined]
            handle.seek(self.start)  # type: ignore[attr-defined]
            pos = self.start
            while pos < self.end:
                read = journal.read_line(handle)  # type: ignore[arg-type]
                if read is None:
                    return
                line = journal.parse_line(pos, read.data)
                pos += read.length
                if line.entry is not None:
                    yield journal.public_entry(line.entry)


def stream_history(path: Path, last: int | None = None) -> HistoryStream:
    """`read_history` without holding the entries: their span in the journal, read when iterated.

    One backward pass finds where the standing entries begin (the newest ``init``,
    or the *last* newest) and what is damaged; each pass over `HistoryStream.entries`
    reads forward from there, one line at a time.

    Raises:
        FileError: as `read_history`.
    """

    path = real_path(path)
    data = files.read_bytes(path)
    parse_encounter(files.decode(data, path), path)
    journal_file = journal_path(path)
    handle, size = files.open_journal(journal_file)
    if handle is None:
        return HistoryStream(journal_file, 0, 0, 0, None, None)
    with handle:  # type: ignore[attr-defined]
        split = journal.standing(journal.lines_backward(handle, size), files.digest(data), size)  # type: ignore[arg-type]
        count, start, end = 0, 0, 0
        newest: dict[str, Any] | None = None
        skipped: str | None = None
        for line in split.lines:
            if last is not None and count >= last:
                break
            end = end or line.end
            if line.entry is None:
                if skipped is None:
                    problem = journal.damage(handle, line, False)  # type: ignore[arg-type]
                    skipped = f"{journal_file}: {problem}: skipped; 'undo' cannot go back past it"
                continue
            count += 1
            start = line.start
            if newest is None:
                newest = journal.public_entry(line.entry)
            if starts_fight(line.entry):
                break
        warnings = []
        if split.damaged is not None:
            problem = journal.damage(handle, split.damaged, split.file_newer)  # type: ignore[arg-type]
            warnings.append(f"{journal_file}: {problem}: the change it held is not shown")
        if skipped is not None:
            warnings.append(skipped)
    return HistoryStream(journal_file, start, end, count, newest, "; ".join(warnings) or None)


def read_log(path: Path, last: int | None = None) -> list[dict[str, Any]]:
    """`read_history` without its warning: the standing entries only."""
    return read_history(path, last).entries


def previous_text(
    line: journal.Line, handle: BinaryIO, path: Path, data: bytes, digest: str | None
) -> str | None:
    """The text the entry on *line* of the journal open as *handle* goes back to (its ``before``),
    or None when it cannot be had; *data* and *digest* are the file at *path* now.

    ``prev`` when the entry holds it; else its patch taken back from the
    file, when the file is still what the entry wrote; else (a hand edit
    came after it) the text rebuilt forward from the nearest anchor before
    it (an ``init`` with its ``text``, or an entry with ``prev`` and a patch).
    The caller checks the result against the entry's ``before`` hash.

    Raises:
        FileError: the file is what the entry wrote but not UTF-8 text (`files.decode`).
    """
    entry = line.entry
    assert entry is not None
    prev = entry.get("prev")
    if isinstance(prev, str):
        return prev
    patch = entry.get("patch")
    if not isinstance(patch, list):
        return None
    if entry.get("after") == digest:
        return journal.apply_patch(files.decode(data, path), patch, reverse=True)
    return _rebuild(handle, line.start)


def _rebuild(handle: BinaryIO, end: int) -> str | None:
    """The ``after`` text of the entry that ends at byte *end* of the journal, replayed from its anchor."""
    chain: list[dict[str, Any]] = []
    text: str | None = None
    for line in journal.lines_backward(handle, end):
        entry = line.entry
        if entry is None:
            return None
        if is_init(entry):
            text = entry.get("text") if isinstance(entry.get("text"), str) else None
            if text is None or files.digest(text.encode("utf-8")) != entry.get("after"):
                return None
            break
        chain.append(entry)
        if isinstance(entry.get("prev"), str):
            text = entry["prev"]
            break
    if text is None:
        return None
    for entry in reversed(chain):
        patch = entry.get("patch")
        if not isinstance(patch, list) or files.digest(text.encode("utf-8")) != entry.get("before"):
            return None
        text = journal.apply_patch(text, patch)
        if text is None:
            return None
    return text


# --- where an entry is: the marks the seats' requests index keeps ---------------------------


class Mark(NamedTuple):
    """Where one journal entry is: its ``seq``, its line's first byte (``at``) and the first 16
    hex digits of the SHA-256 of its line (``line``). The journal is only appended to and cut
    at its end, so the entry stands while the same line is at ``at`` before the standing end."""

    seq: int
    at: int
    line: str


def mark_of(at: int, raw: bytes) -> Mark:
    """The mark of the entry line *raw* (its bytes, newline included) starting at byte *at*."""
    entry = journal.parse_line(at, raw).entry
    seq = entry["seq"] if entry is not None else 0
    return Mark(seq, at, hashlib.sha256(raw).hexdigest()[:16])


def _line_at(handle: BinaryIO, at: int) -> bytes:
    handle.seek(at)
    read = journal.read_line(handle)
    return b"" if read is None else read.data


def _standing_split(path: Path) -> tuple[BinaryIO, journal.Split] | None:
    """The journal open for reading and its standing lines, newest first (None: no journal)."""
    data = files.read_bytes(path)
    opened, size = files.open_journal(journal_path(path))
    if opened is None:
        return None
    handle = cast(BinaryIO, opened)
    return handle, journal.standing(journal.lines_backward(handle, size), files.digest(data), size)


def standing_at(path: Path, marks: Iterable[Mark]) -> dict[Mark, dict[str, Any]]:
    """The entries (as ``log`` shows them) of the *marks* that still stand: one line read for
    each, whatever the journal's length. An entry ``undo`` took back, or cut off since, is left
    out (its place holds another line, or lies past the standing end).

    Raises:
        FileError: the encounter file or the journal cannot be read.
    """
    wanted = tuple(marks)
    opened = _standing_split(real_path(path)) if wanted else None
    if opened is None:
        return {}
    handle, split = opened
    found: dict[Mark, dict[str, Any]] = {}
    with handle:
        for mark in wanted:
            raw = _line_at(handle, mark.at) if mark.at < split.good_end else b""
            entry = journal.parse_line(mark.at, raw).entry if raw else None
            if entry is not None and mark_of(mark.at, raw) == mark:
                found[mark] = journal.public_entry(entry)
    return found


def entries_since(
    path: Path, mark: Mark | None, since: str
) -> Iterator[tuple[Mark, dict[str, Any]]]:
    """The standing entries newer than *mark*, newest first, each with its mark (as ``log``
    shows them): the walk stops at *mark*'s own line, at the newest ``init``, or at the first
    entry timed before *since* (ISO 8601; *mark* gone, as after an ``undo`` below it). So it
    reads the entries since the index was last written, never the whole history.

    Raises:
        FileError: the encounter file or the journal cannot be read.
    """
    opened = _standing_split(real_path(path))
    if opened is None:
        return
    handle, split = opened
    with handle:
        for line in split.lines:
            entry = line.entry
            if entry is None:
                continue
            raw = _line_at(handle, line.start)
            here = mark_of(line.start, raw)
            if here == mark or str(entry.get("time", "")) < since or entry["kind"] == "init":
                return
            yield here, journal.public_entry(entry)
