"""The one transaction every write goes through: `change`, `create`, `undo` and `redo`.

Each takes the lock, reads the file and its hash, classifies the journal's
tail, builds one entry and commits it once (`_Transaction`). See the package
docstring for the crash story; the pure parts are in `d4cli.store.journal`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple, Protocol, Self, TypeVar

from d4cli.fight.encounter import Encounter
from d4cli.rules.errors import FileError, InputError
from d4cli.store import files, journal, sidefiles, temp
from d4cli.store import redo as redo_file
from d4cli.store.files import journal_path, real_path, redo_path
from d4cli.store.lock import locked

Clock = Callable[[], datetime]


R = TypeVar("R", bound="Record")


class Record(Protocol):
    """What a transition of `d4cli.fight.encounter` returns beside the new encounter."""

    @property
    def allowed(self) -> bool: ...


def local_now() -> datetime:
    """The default clock: local time with its UTC offset."""
    return datetime.now(UTC).astimezone()


class _Transaction:
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
            from d4cli.fileformat.encounter_toml import parse_encounter

            parse_encounter(files.read_text(path), path)
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
        self.held.check()
        sidefiles.check_side_file(redo_path(path))  # d4cli's own, or nothing is written
        temp.remove_stale_temp_files(path)
        temp.remove_stale_temp_files(redo_path(path))
        files.tighten(journal_path(path), self.mode)
        files.tighten(redo_path(path), self.mode)
        try:
            writer = files.JournalWriter(journal_path(path), tail.size, tail.good_end, self.mode)
        except OSError as error:
            raise files.write_failed(journal_path(path), error) from None
        redo_writer: redo_file.RedoWriter | None = None
        replaced = False
        try:
            if redo_append is not None:
                found = self.redo_top()
                start = found.end if found.record is not None else 0  # no stack to build on: afresh
                try:
                    redo_writer = redo_file.RedoWriter(path, start, found.size, self.mode)
                except OSError as error:
                    raise files.write_failed(redo_path(path), error) from None
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
                try:
                    writer.cut(cut)
                except OSError:
                    # The file is back at the entry's `before`: the entry now reads as
                    # unfinished and is dropped; the next change cuts it.
                    pass
        finally:
            writer.close()
            if redo_writer is not None:
                redo_writer.close()
        if redo_append is None:
            try:
                if redo_cut is not None:
                    redo_file.cut(path, redo_cut)
                else:
                    redo_file.clear(path)
            except (OSError, FileError):
                pass  # records left behind are recognised as stale (`d4cli.store.redo.top`)


def change(
    path: Path,
    transition: Callable[[Encounter], tuple[Encounter, R]],
    *,
    facts: Callable[[R], dict[str, Any]],
    clock: Clock = local_now,
    timeout: float | None = None,
    warn: Callable[[str], None] | None = None,
) -> tuple[Encounter, R]:
    """Apply *transition* to the encounter at *path* under its lock, and record it.

    Reads and validates the file, calls ``transition(encounter)``, and when the
    record says the change is allowed writes the journal entry and then the
    new file (the crash story). A refused record (R2) or an exception writes
    nothing. Clears what ``redo`` could put back.

    Args:
        path: the encounter file; a symlink is refused (`real_path`).
        transition: a pure function of `d4cli.fight.encounter` (dice already bound).
        clock: the time recorded in the entry. *warn*: told when the entry went after a damaged line.
        timeout: seconds to wait for the lock (the shell passes ``D4CLI_LOCK_TIMEOUT``).
        facts: the record's facts for the journal entry (``kind`` first; `d4cli.output.serialize.changes.journal_json`).

    Returns:
        The new encounter (the old one when refused) and the record.

    Raises:
        FileError: an unreadable, invalid or read-only file, a failed write.
        LockTimeout: the lock was not had in time.
        InputError: whatever *transition* raises.
    """
    from d4cli.fileformat.encounter_toml import parse_encounter

    path = real_path(path)
    files.check_file(path)
    with _Transaction(path, timeout) as t:
        old_text = t.text
        encounter = parse_encounter(old_text, path)
        new_encounter, record = transition(encounter)
        if not record.allowed:
            return encounter, record
        new_data = (
            t.data
            if new_encounter == encounter and t.data is not None
            else encode_checked(new_encounter, path)
        )  # a note keeps the bytes
        new_text = new_data.decode("utf-8")
        entry = {
            "seq": journal.next_seq(t.tail),
            "time": clock().isoformat(timespec="seconds"),
            **facts(record),
            "before": t.digest,
            "after": files.digest(new_data),
            **journal.going_back(old_text, new_text, t.needs_anchor()),
        }
        t.commit(new_data, line=journal.encode_entry(entry))
        if warn is not None and t.tail.damaged is not None and t.handle is not None:
            warn(journal.after_damage(t.handle, t.tail, journal_path(path)))
    return new_encounter, record


def encode_checked(encounter: Encounter, path: Path) -> bytes:
    """The bytes of the new file, validated as data before they are written (never parsed back).

    The document is checked by the same validation a read runs
    (`encounter_from_document`), then serialised by tomli-w, whose output reads
    back as that document; the text's shape (`check_shape`) and size are
    checked too. So d4cli never writes a file it would then refuse.

    Raises:
        FileError: the new file would be too large or invalid; nothing is written.
    """
    from d4cli.fileformat.checked import checked_text

    try:
        text = checked_text(encounter, path)
    except FileError as error:
        reason = str(error).removeprefix(f"{path}: ")
        raise FileError(
            path,
            "",
            None,
            f"this change would leave the file invalid ({reason}); nothing was written",
        ) from None
    data = text.encode("utf-8")
    if len(data) > files.MAX_FILE_BYTES:
        problem = f"this change would make the file larger than 1 MB ({len(data):,} bytes)"
        raise FileError(path, "", None, problem + "; nothing was written")
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
    with _Transaction(path, timeout, must_exist=False) as t:
        if t.data is not None and not force:
            raise InputError("--force", None, f"{path} already exists; add --force to replace it")
        files.check_writable(path, new=t.data is None)
        new_data = text.encode("utf-8")
        entry = {
            "seq": journal.next_seq(t.tail),
            "time": clock().isoformat(timespec="seconds"),
            "kind": "init",
            **details,
            "before": t.digest,
            "after": files.digest(new_data),
            "text": text,
        }
        t.commit(new_data, line=journal.encode_entry(entry))


class Undone(NamedTuple):
    """What ``undo`` reverted: the entry, and whether a hand edit made after it was reverted too."""

    entry: dict[str, Any]
    hand_edited: bool


class Redone(NamedTuple):
    """What ``redo`` put back: the entry (as ``log`` shows it)."""

    entry: dict[str, Any]


def undo(path: Path, *, timeout: float | None = None) -> Undone:
    """Revert the newest change byte-for-byte and drop its entry; ``redo`` can put it back.

    Never reverts the ``init`` that created the file. The file need not be
    valid (an undo can rescue a bad hand edit); a hand edit made after the
    undone change is reverted with it (``hand_edited``), and ``redo`` brings
    back the file as it was before this undo, hand edit included.

    Raises:
        InputError: nothing to undo.
        FileError: unreadable or read-only file, damaged journal line or entry, failed write.
        LockTimeout: the lock was not had in time.
    """
    from d4cli.store.history import previous_text  # undo only: not on every change

    path = real_path(path)
    files.check_file(path)
    with _Transaction(path, timeout) as t:
        tail = t.tail
        last = tail.last
        entry = None if last is None else last.entry
        damaged = tail.damaged if tail.damaged is not None else last if entry is None else None
        if damaged is not None:
            raise t.refuse_damage(
                damaged,
                tail.damaged is not None and tail.file_newer,
                "undo cannot tell what to restore",
            )
        if (
            entry is None
            or entry["kind"] == "init"
            or not (isinstance(entry.get("prev"), str) or isinstance(entry.get("patch"), list))
        ):
            raise InputError("undo", None, "nothing to undo")
        assert last is not None and t.data is not None and t.handle is not None
        old_text = previous_text(last, t.handle, path, t.data, t.digest)
        if old_text is None or files.digest(old_text.encode("utf-8")) != entry.get("before"):
            problem = "damaged: its saved text does not match its hash"
            raise FileError(journal_path(path), f"entry {entry.get('seq')}", None, problem)
        record_line = None
        try:
            current = t.data.decode("utf-8")
        except UnicodeDecodeError:
            pass  # a hand edit that is not text: nothing to redo after this undo
        else:
            record = {**journal.public_entry(entry), "before": entry["before"], "after": t.digest}
            patch = journal.make_patch(old_text, current)
            if journal.patch_size(patch) > journal.text_size(current):
                record["text"] = current
            else:
                record["patch"] = patch
            record_line = journal.encode_entry(record)
        t.commit(old_text.encode("utf-8"), cut=last.start, redo_append=record_line)
    return Undone(journal.public_entry(entry), hand_edited=entry.get("after") != t.digest)


def redo(path: Path, *, timeout: float | None = None) -> Redone:
    """Put back the newest undone change, byte-for-byte, with its journal entry.

    As many redos as undos went back; any other change in between clears
    them. The same journal, lock and crash story as every change.

    Raises:
        InputError: nothing to redo.
        FileError: unreadable or read-only file, a damaged redo record, a failed write.
        LockTimeout: the lock was not had in time.
    """
    path = real_path(path)
    files.check_file(path)
    with _Transaction(path, timeout) as t:
        found = t.redo_top()
        record = found.record
        if record is None:
            raise InputError(
                "redo", None, redo_file.refusal(t.path, found, journal.next_seq(t.tail), t.digest)
            )
        text = t.text
        patch = record.get("patch")
        new_text = record.get("text")
        if not isinstance(new_text, str):
            new_text = journal.apply_patch(text, patch) if isinstance(patch, list) else None
        new_data = None if new_text is None else new_text.encode("utf-8")
        if new_data is None or files.digest(new_data) != record.get("after"):
            raise FileError(
                redo_path(path),
                f"entry {record.get('seq')}",
                None,
                "damaged: the change it holds does not match its hash",
            )
        assert new_text is not None
        facts = {k: v for k, v in record.items() if k not in journal.PRIVATE_KEYS}
        entry = {
            **facts,
            "before": t.digest,
            "after": record["after"],
            **journal.going_back(text, new_text, t.needs_anchor()),
        }
        t.commit(new_data, line=journal.encode_entry(entry), redo_cut=found.start)
    return Redone(journal.public_entry(entry))
