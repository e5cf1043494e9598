"""The redo file ``PATH.redo``: what ``undo`` took back, one record a line, the next to redo last.

Append-only, so one ``undo`` or ``redo`` touches one record whatever the depth:
``undo`` appends its record (`RedoWriter`), ``redo`` reads the newest from the end
(`top`) and, once its change is back, cuts the file at that record's start. The
lines are the ones older versions wrote whole (one JSON object a line, oldest
first, the next to redo last), so a redo file left by them reads the same.

A record counts only while its ``seq`` is the journal's next and its ``before``
is the file's hash. Newer lines that fail that because their ``seq`` is below the
journal's next were left by a kill (an ``undo`` before its file was replaced, a
``redo`` after) and are passed over; a torn newest line is an ``undo`` killed
inside its append, passed over too. Any other line that is not a record is
*damaged*: ``redo`` refuses naming it, an ``undo`` starts the file afresh.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

from d4cli.rules.errors import FileError
from d4cli.store import files, journal, sidefiles
from d4cli.store.files import redo_path


class Top(NamedTuple):
    """The newest record of ``PATH.redo`` as seen against the journal and the file.

    Attributes:
        record: the record ``redo`` would apply (its ``seq`` is the journal's next and its
            ``before`` the file's hash), or None.
        start: where *record* begins (``redo`` cuts the file here once its change is back).
        end: where the records that may stand end: the newer lines past it were left by a kill.
        size: the file's size in bytes (0: no file).
        found: the newest record that was not left by a kill, whether or not it fits (None: none).
        damaged: the 1-based number of a damaged line where the search stopped, or None.
    """

    record: dict[str, Any] | None = None
    start: int = 0
    end: int = 0
    size: int = 0
    found: dict[str, Any] | None = None
    damaged: int | None = None


def top(path: Path, due: int, digest: str | None) -> Top:
    """The newest record of *path*'s redo file, read backward from its end: O(1) records.

    *due* is the journal's next ``seq``; *digest* the encounter file's hash now.

    Raises:
        FileError: the redo file cannot be read, or is not d4cli's own (`sidefiles.check_side_file`).
    """
    side = redo_path(path)
    fd = sidefiles.open_side(side)  # a link or another owner's file: refused, named
    if fd is None:
        return Top()
    try:
        with os.fdopen(fd, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            end = size
            for line in journal.lines_backward(handle, size):
                if line.entry is None and line.end == size and line.torn:
                    end = line.start  # an undo killed inside its append
                    continue
                record = _record(line.raw if line.entry is None else None, line.entry)
                if record is None:
                    return Top(None, 0, end, size, None, journal.line_number(handle, line.start))
                if record["seq"] < due:
                    # Left by a kill: its change is in the journal, or never left it.
                    end = line.start
                    continue
                fits = record["seq"] == due and record.get("before") == digest
                return Top(record if fits else None, line.start, end, size, record)
    except OSError as error:
        raise FileError(side, "", None, f"cannot read: {error.strerror}") from None
    return Top(None, 0, end, size)


def _record(raw: bytes | None, entry: dict[str, Any] | None) -> dict[str, Any] | None:
    """A line's record (a JSON object with a whole-number ``seq``), or None when damaged."""
    if entry is None and raw is not None:
        try:
            value = journal.load_line(raw)  # bounded: a damaged line
        except ValueError:
            return None
        entry = value if isinstance(value, dict) else None
    if entry is None:
        return None
    seq = entry.get("seq")
    return entry if isinstance(seq, int) and not isinstance(seq, bool) else None


def refusal(path: Path, found: Top, due: int, digest: str | None) -> str:
    """Why ``redo`` has nothing to put back, in words (for `InputError`), given `top`'s answer for
    the journal's next ``seq`` *due* and the file's hash *digest*: the file was edited by hand
    since the undo (the newest undone change no longer fits it), or plainly nothing.

    Raises:
        FileError: the redo file's newest line is damaged: naming the file and the line.
    """
    if found.damaged is not None:
        problem = f"line {found.damaged} is damaged (not a redo record), so redo cannot tell what to put back"
        raise FileError(redo_path(path), "", None, problem + " (remove the file to start afresh)")
    newest = found.found
    if newest is not None and newest["seq"] == due and newest.get("before") not in (None, digest):
        return (
            "the encounter file was edited by hand since the undo, so the undone change cannot be redone"
            " (revert the hand edit to redo it)"
        )
    return "nothing to redo"


class RedoWriter:
    """``PATH.redo`` opened to append one record after *end* (the lines past it are cut),
    able to put back exactly what it had (byte-for-byte)."""

    def __init__(self, path: Path, end: int, size: int, mode: int) -> None:
        self.path = redo_path(path)
        self.end = end
        self.created = not os.path.lexists(self.path)
        flags = os.O_RDWR | sidefiles.NOFOLLOW | (os.O_CREAT | os.O_EXCL if self.created else 0)
        self.fd = os.open(self.path, flags, mode)
        try:
            if self.created:
                # The umask must not make it looser or tighter than the file.
                os.fchmod(self.fd, mode)
                files.keep_owner(self.fd, path)
            else:
                sidefiles.check_side_file(self.path, os.fstat(self.fd))
                if os.fstat(self.fd).st_size != size:
                    raise FileError(
                        self.path, "", None, "changed while locked (is another program writing it?)"
                    )
            os.lseek(self.fd, end, os.SEEK_SET)
            self.cut_off = os.read(self.fd, size - end) if size > end else b""
        except BaseException:
            os.close(self.fd)
            if self.created:
                _remove(self.path)
            raise

    def append(self, line: bytes) -> None:
        """Cut the lines past *end*, append *line* and fsync (a new file: its folder too)."""
        os.ftruncate(self.fd, self.end)
        os.lseek(self.fd, self.end, os.SEEK_SET)
        files.write_all(self.fd, line)
        os.fsync(self.fd)
        if self.created:
            files.fsync_folder(self.path.parent)

    def restore(self) -> None:
        """Put the file back as it was before this writer touched it (best effort)."""
        if self.created:
            _remove(self.path)
            return
        try:
            os.ftruncate(self.fd, self.end)
            os.lseek(self.fd, self.end, os.SEEK_SET)
            files.write_all(self.fd, self.cut_off)
            os.fsync(self.fd)
        except OSError:
            pass

    def close(self) -> None:
        os.close(self.fd)


def _remove(side: Path) -> None:
    try:
        os.unlink(side)
    except OSError:
        pass


def cut(path: Path, start: int) -> None:
    """Drop the records from byte *start* on (the one ``redo`` put back); no record left: no file.

    Best effort by design: a record left behind is recognised as left by a kill (`top`).

    Raises:
        OSError: the file could not be cut.
    """
    side = redo_path(path)
    if start == 0:
        clear(path)
        return
    fd = os.open(side, os.O_RDWR | sidefiles.NOFOLLOW)
    try:
        sidefiles.check_side_file(side, os.fstat(fd))
        os.ftruncate(fd, start)
        os.fsync(fd)
    finally:
        os.close(fd)


def clear(path: Path) -> None:
    """Remove ``PATH.redo`` (a change ends what can be redone).

    Raises:
        OSError: it could not be removed (it is then stale, and recognised as such).
    """
    try:
        os.unlink(redo_path(path))
    except FileNotFoundError:
        pass
