"""The one transaction every write goes through: `Transaction` (a change) and `create`; `Locked` is
what `d4cli.store.undo` shares with them.

Each takes the lock, reads the file and its hash once, classifies the journal's
tail, builds one entry and commits it once (`Locked`). See the package
docstring for the crash story; the pure parts are in `d4cli.store.journal`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple, Self

from d4cli.fight.encounter_state import Encounter
from d4cli.fileformat.checked import checked_text
from d4cli.fileformat.encounter_toml import HEADER, dropped_comments
from d4cli.journal.entry import new_head
from d4cli.rules.errors import FileError, InputError
from d4cli.store import files, journal, remembered, seat_files, sidefiles, temp
from d4cli.store import redo as redo_file
from d4cli.store.commented import commented_text
from d4cli.store.files import journal_path, real_path, redo_path
from d4cli.store.history import Mark, mark_of
from d4cli.store.lock import locked

Clock = Callable[[], datetime]


def local_now() -> datetime:
    """The default clock: local time with its UTC offset."""
    return datetime.now(UTC).astimezone()


class Locked:
    """Lock, read, digest, tail, one entry, one commit (the crash story in one place)."""

    def __init__(self, path: Path, timeout: float | None, *, must_exist: bool = True) -> None:
        self.path = path
        self.timeout = timeout
        self.must_exist = must_exist
        self.handle: BinaryIO | None = None
        self._tail: journal.Tail | None = None
        self._redo: redo_file.Top | None = None

    def __enter__(self) -> Self:
        path = self.path
        if self.must_exist and not os.path.lexists(files.lock_path(path)):
            # The first change makes the lock file: only beside a file that is an encounter
            # (``--file /etc/passwd`` never makes ``/etc/passwd.lock``). Later ones find it.
            remembered.parse(files.read_text(path), path)
        self._lock = locked(path, self.timeout)
        self.held = self._lock.__enter__()
        try:
            exists = self.must_exist or os.path.exists(path)
            self.data = files.read_bytes(path) if exists else None
            self.digest = None if self.data is None else files.digest(self.data)
            if self.must_exist:
                files.check_writable(path)
            self.mode = files.mode_of(path)
        except BaseException:
            self._lock.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self.handle is not None:
            self.handle.close()
        self._lock.__exit__(None, None, None)

    @property
    def text(self) -> str:
        assert self.data is not None
        return files.decode(self.data, self.path)

    @property
    def tail(self) -> journal.Tail:
        if self._tail is None:
            handle, size = files.open_journal(journal_path(self.path))
            self.handle = handle  # type: ignore[assignment]
            self._tail = journal.read_tail(self.handle, size, self.digest)
        return self._tail

    def refuse_damage(self, line: journal.Line, file_newer: bool, why: str) -> FileError:
        assert self.handle is not None
        problem = journal.damage(self.handle, line, file_newer)
        return FileError(journal_path(self.path), "", None, f"{problem}: {why}")

    def needs_anchor(self) -> bool:
        """True when the entry must carry the whole previous text (`journal`: ``prev``)."""
        tail = self.tail
        last = tail.last.entry if tail.last is not None else None
        return (
            last is None
            or tail.damaged is not None
            or last.get("after") != self.digest
            or not journal.forwardable(last)
        )

    def redo_top(self) -> redo_file.Top:
        """The newest redo record as it fits the journal and the file (`d4cli.store.redo.top`)."""
        if self._redo is None:
            self._redo = redo_file.top(self.path, journal.next_seq(self.tail), self.digest)
        return self._redo

    def commit(
        self,
        new_data: bytes,
        *,
        line: bytes | None = None,
        cut: int | None = None,
        redo_append: bytes | None = None,
        redo_cut: int | None = None,
    ) -> None:
        """Append *line* (or cut the undone entry at *cut*), replace the file, then see to ``PATH.redo``.

        Order: (undo: its redo record *redo_append*, appended), the journal, the file,
        then the journal's cut (undo), then the redo file: cut at *redo_cut* (redo), or
        removed (any other change); see the package's crash story. The lock must
        still be this change's (`d4cli.store.lock.Held`), else nothing stays written.
        """
        path = self.path
        tail = self.tail
        writer = self._open_writers()
        redo_writer: redo_file.RedoWriter | None = None
        replaced = False
        try:
            if redo_append is not None:
                redo_writer = self._redo_writer()
                redo_writer.append(redo_append)
            if line is not None:
                damaged = tail.damaged
                writer.append(line, after_torn=damaged is not None and damaged.torn)
            elif tail.unfinished:
                writer.cut(tail.good_end)
            self.held.check()
            files.replace_file(path, new_data, None if self.data is not None else self.mode)
            replaced = True
        except BaseException as error:
            if not replaced:
                writer.restore()
                if redo_writer is not None:
                    redo_writer.restore()
            if isinstance(error, OSError):
                raise files.write_failed(path, error) from None
            raise
        else:
            if cut is not None:
                _cut_quietly(writer, cut)
        finally:
            writer.close()
            if redo_writer is not None:
                redo_writer.close()
        if redo_append is None:
            _settle_redo(path, redo_cut)

    def _open_writers(self) -> files.JournalWriter:
        """Check the lock and the side files, tighten their modes, open the journal for writing."""
        path = self.path
        self.held.check()
        sidefiles.check_side_file(redo_path(path))  # d4cli's own, or nothing is written
        temp.remove_leftovers((path, redo_path(path), *seat_files.side_paths(path)))
        files.tighten(journal_path(path), self.mode)
        files.tighten(redo_path(path), self.mode)
        tail = self.tail
        try:
            return files.JournalWriter(journal_path(path), tail.size, tail.good_end, self.mode)
        except OSError as error:
            raise files.write_failed(journal_path(path), error) from None

    def _redo_writer(self) -> redo_file.RedoWriter:
        """The redo file opened to append an undo's record on top of the stack that stands."""
        found = self.redo_top()
        start = found.end if found.record is not None else 0  # no stack to build on: afresh
        try:
            return redo_file.RedoWriter(self.path, start, found.size, self.mode)
        except OSError as error:
            raise files.write_failed(redo_path(self.path), error) from None


def _cut_quietly(writer: files.JournalWriter, cut: int) -> None:
    """Cut the undone entry off the journal; if that fails, the file is back at the entry's
    `before`: the entry now reads as unfinished and is dropped; the next change cuts it."""
    try:
        writer.cut(cut)
    except OSError:
        pass


def _settle_redo(path: Path, redo_cut: int | None) -> None:
    """After a change: cut the redone record off the redo file (redo), or clear it (any other)."""
    try:
        if redo_cut is not None:
            redo_file.cut(path, redo_cut)
        else:
            redo_file.clear(path)
    except (OSError, FileError):
        pass  # records left behind are recognised as stale (`d4cli.store.redo.top`)


class Written(NamedTuple):
    """What a committed change left to say.

    Attributes:
        warning: the entry went after a damaged journal line: that line named, else None.
        dropped_comments: how many hand-written comment lines the rewrite dropped
            (``undo`` brings them back).
    """

    warning: str | None
    dropped_comments: int


class Transaction:
    """One change of the encounter at *path*: read once under its lock, then `commit` (or not).

    ``with Transaction(path) as txn:`` takes the lock, reads and validates the
    file once (`encounter`); the caller computes the change with the pure
    functions of `d4cli.fight` and calls ``txn.commit(new_encounter, facts)``
    to journal and write it (the crash story). Leaving the block without a
    commit writes nothing. The store owns the entry: ``seq``, ``time``, the
    caller's *facts* (``kind`` first, then what happened: the record's JSON), an
    optional ``note``, ``before``/``after`` and the way back.

    Args:
        path: the encounter file; a symlink is refused (`real_path`).
        timeout: seconds to wait for the lock (None: `DEFAULT_LOCK_TIMEOUT`).
        clock: the time recorded in the entry.

    Raises (on entering):
        FileError: an unreadable, invalid or read-only file.
        LockTimeout: the lock was not had in time.
    """

    def __init__(
        self, path: Path, *, timeout: float | None = None, clock: Clock = local_now
    ) -> None:
        self.path = real_path(path)
        self.clock = clock
        self._txn = Locked(self.path, timeout)
        self.encounter = Encounter()
        # The seq of the entry `commit` is writing (None before): after an interrupt, whether
        # that entry stands says whether the change was saved.
        self.writing_seq: int | None = None
        self._written: Mark | None = None

    def __enter__(self) -> Self:
        files.check_file(self.path)
        self._txn.__enter__()
        try:
            self.encounter = remembered.parse(self._txn.text, self.path)
        except BaseException:
            self._txn.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._txn.__exit__(*exc)

    @property
    def data(self) -> bytes:
        """The file's bytes as read under the lock."""
        assert self._txn.data is not None
        return self._txn.data

    def commit(
        self, encounter: Encounter, facts: dict[str, Any], note: str | None = None
    ) -> Written:
        """Journal *facts* (with *note*) and write *encounter* as the file: once per transaction.

        An encounter equal to the one read keeps the file's bytes (a note, a roll
        that changed nothing). Clears what ``redo`` could put back.

        Raises:
            FileError: the new file would be invalid or over 1 MB, or a write failed;
                nothing stays written.
        """
        t = self._txn
        path = self.path
        old_text = t.text
        if encounter == self.encounter and t.data is not None:
            new_data = t.data
        else:
            new_data = encode_checked(encounter, path)
            kept = commented_text(old_text, new_data.decode("utf-8"))
            if kept is not None:  # a hand-written file keeps its comments
                new_data = kept.encode("utf-8")
        new_text = new_data.decode("utf-8")
        entry = {
            **new_head(journal.next_seq(t.tail), self.clock().isoformat(timespec="seconds")),
            **facts,
            **({} if note is None else {"note": note}),
            "before": t.digest,
            "after": files.digest(new_data),
            **journal.going_back(old_text, new_text, t.needs_anchor()),
        }
        self.writing_seq = entry["seq"]
        line = journal.encode_entry(entry)
        damaged = t.tail.damaged
        # The line goes where the standing entries end (after a torn damaged line, on its own).
        at = t.tail.good_end + (1 if damaged is not None and damaged.torn else 0)
        t.commit(new_data, line=line)
        self._written = mark_of(at, line)
        warning = None
        if t.tail.damaged is not None and t.handle is not None:
            warning = journal.after_damage(t.handle, t.tail, journal_path(path))
        return Written(warning, _dropped(old_text, new_text))

    def newest(self) -> Mark | None:
        """The mark of the newest standing journal entry: the one `commit` wrote, else the
        newest as read under the lock (None: no entry, or a damaged line ends the journal)."""
        if self._written is not None:
            return self._written
        t = self._txn
        last = t.tail.last
        if last is None or last.entry is None or t.handle is None:
            return None
        t.handle.seek(last.start)
        return mark_of(last.start, t.handle.read(last.end - last.start))


def _dropped(old_text: str, new_text: str) -> int:
    """Comment lines of *old_text* that *new_text* lost (the header d4cli writes is never dropped)."""
    if "#" not in old_text.removeprefix(HEADER):
        return 0
    return dropped_comments(old_text, new_text)


def encode_checked(encounter: Encounter, path: Path) -> bytes:
    """The bytes of the new file, validated as data before they are written (never parsed back).

    The document is checked by the same validation a read runs
    (`encounter_from_document`), then serialised by tomli-w, whose output reads
    back as that document; the text's shape (`check_shape`) and size are
    checked too. So d4cli never writes a file it would then refuse.

    Raises:
        FileError: the new file would be too large or invalid; nothing is written.
    """
    try:
        checked = checked_text(encounter, path, remembered.row_of)
    except FileError as error:
        reason = str(error).removeprefix(f"{path}: ")
        raise FileError(
            path,
            "",
            None,
            f"this change would leave the file invalid ({reason}); nothing was written",
        ) from None
    data = checked.text.encode("utf-8")
    if len(data) > files.MAX_FILE_BYTES:
        problem = f"this change would make the file larger than 1 MB ({len(data):,} bytes)"
        raise FileError(path, "", None, problem + "; nothing was written")
    remembered.remember(checked.text, checked.reading, checked.rows)
    return data


def create(
    path: Path,
    text: str,
    details: dict[str, Any],
    *,
    force: bool = False,
    clock: Clock = local_now,
    timeout: float | None = None,
) -> None:
    """Write a new encounter file with *text* (already validated) and an ``init`` entry.

    An existing journal is kept and the ``init`` entry (which holds the whole
    new text) appended: ``log`` and ``undo`` never look past the newest
    ``init``. A symlink is refused (`real_path`): its side files would be
    made beside its target.

    Raises:
        InputError: the file exists and *force* is not set.
        FileError: the path is a directory, not a regular file, or read-only; a failed write.
        LockTimeout: the lock was not had in time.
    """
    path = real_path(path)
    if not path.parent.is_dir():
        raise FileError(path, "", None, f"the folder {str(path.parent)!r} does not exist")
    if os.path.exists(path):
        files.check_file(path)  # never replace a directory, a FIFO or a huge file
    with Locked(path, timeout, must_exist=False) as t:
        if t.data is not None and not force:
            raise InputError(
                "force",
                None,
                f"{path} already exists; add {{force}} to replace it",
                mentions=("force",),
            )
        files.check_writable(path, new=t.data is None)
        new_data = text.encode("utf-8")
        entry = {
            **new_head(journal.next_seq(t.tail), clock().isoformat(timespec="seconds")),
            "kind": "init",
            **details,
            "before": t.digest,
            "after": files.digest(new_data),
            "text": text,
        }
        t.commit(new_data, line=journal.encode_entry(entry))
