"""``undo`` and ``redo``: the newest change reverted or put back, byte for byte, under the same
lock and journal as every change (`d4cli.store.transaction.Locked`; the crash story in the package)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from d4cli.journal.entry import is_init
from d4cli.rules.errors import FileError, InputError
from d4cli.rules.records import notebook
from d4cli.store import files, journal
from d4cli.store import redo as redo_file
from d4cli.store.files import journal_path, real_path, redo_path
from d4cli.store.history import previous_text
from d4cli.store.transaction import Locked


@notebook
class Undone(NamedTuple):
    """What ``undo`` reverted: the entry, and whether a hand edit made after it was reverted too."""

    entry: dict[str, Any]
    hand_edited: bool


@notebook
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
    path = real_path(path)
    files.check_file(path)
    with Locked(path, timeout) as t:
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
            or is_init(entry)
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
            record = {
                **_without_way_back(entry),
                "before": entry["before"],
                "after": t.digest,
            }
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
    with Locked(path, timeout) as t:
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
        facts = _without_way_back(record)
        entry = {
            **facts,
            "before": t.digest,
            "after": record["after"],
            **journal.going_back(text, new_text, t.needs_anchor()),
        }
        t.commit(new_data, line=journal.encode_entry(entry), redo_cut=found.start)
    return Redone(journal.public_entry(entry))


def _without_way_back(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry without its hashes, patch and texts (its schema version kept), as redo keeps it."""
    return {key: value for key, value in entry.items() if key not in journal.WAY_BACK}
