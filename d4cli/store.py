"""The one persistence module: the encounter file, its journal and its lock.

Files beside each other::

    encounter.toml          the current state (TOML, schema 1; encounter_file.py)
    encounter.toml.journal  the history: one JSON object a line, append-only
    encounter.toml.lock     the lock every change holds for its whole read-modify-write

**Journal.** Each change appends one entry: what happened (``kind``, round,
turn, actor, Aspect, Cost, Load before and after, sources, dice, total, DC or
Evasion, outcome, damage, target, ``time``) plus ``before`` and ``after``, the
SHA-256 of the file's bytes before and after the change, and ``prev``, the
whole previous file text, which is what ``undo`` writes back byte-for-byte.
Ordinary commands read only the journal's last line, so their cost does not
grow with the history.

**Crash story.** A change appends its entry (fsync) *before* it replaces the
file (temp file, fsync, ``os.replace``, fsync of the folder). On reading, the
newest entry is *unfinished* when the file's hash is still its ``before`` and
not its ``after``, or when it is torn (no newline at the end, not JSON) and
the file is still what the entry before it wrote (that entry's ``after``):
the crash came between the two steps. An unfinished entry is ignored by
readers and cut off by the next change. When the hash is neither, the GM
edited the file by hand after the entry, which stands. ``undo`` cuts an
unfinished entry, writes ``prev`` back, then truncates the journal before the
undone entry: a crash between the last two steps leaves the undone entry
unfinished (the file is at its ``before``), so it is dropped as if the
truncation had happened.

**Damage.** A newest line that is not an entry and not an unfinished one (a
whole line that is not JSON, or a torn line while the file is *newer* than the
entry before it) is *damaged*: no crash of d4cli leaves that, so d4cli does
not guess. ``log`` shows the entries before it and warns (`History.warning`),
``undo`` refuses, and a change keeps its bytes and appends after a newline. A
damaged line further back stops ``log`` and ``undo`` when they reach it.

**Errors.** Whatever goes wrong (bad input, a refusal, a full disk, a
read-only folder), the file and the journal stay byte-for-byte as they were.

**Symlinks** are followed: the encounter is the file a link points to
(`real_path`), so its journal, its lock and its temp files are the target's.

Import-light on purpose (Tab completion reads through `read_encounter`):
tomli-w and filelock are imported only on the write paths, hashlib only when
hashing.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple, Protocol

from d4cli.encounter import Encounter
from d4cli.encounter_file import parse_encounter
from d4cli.errors import FileError, InputError, LockTimeout

DEFAULT_FILE = "encounter.toml"
FILE_ENV = "D4CLI_FILE"
LOCK_TIMEOUT_ENV = "D4CLI_LOCK_TIMEOUT"
DEFAULT_LOCK_TIMEOUT = 5.0
MAX_FILE_BYTES = 1024 * 1024
JOURNAL_SUFFIX = ".journal"
LOCK_SUFFIX = ".lock"
# Journal keys that are bookkeeping, not facts of the change (left out of `log`).
PRIVATE_KEYS = ("before", "after", "prev")

Clock = Callable[[], datetime]


class Record(Protocol):
    """What a transition of `d4cli.encounter` returns beside the new encounter."""

    kind: str

    @property
    def allowed(self) -> bool: ...

    def log(self) -> dict[str, Any]: ...


def local_now() -> datetime:
    """The default clock: local time with its UTC offset."""
    return datetime.now(timezone.utc).astimezone()


# --- paths ---------------------------------------------------------------------------------


def resolve_path(option_value: str | None) -> Path:
    """The encounter file: the ``--file`` option, else ``D4CLI_FILE``, else ``./encounter.toml``.

    Raises:
        FileError: a name with a byte that is not UTF-8 (a lone surrogate in argv
            or the environment): d4cli could not show it, nor take it as a name.
    """
    text = option_value if option_value is not None else os.environ.get(FILE_ENV) or DEFAULT_FILE
    path = Path(text)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise FileError(path, "", None, "the file name is not valid UTF-8 text") from None
    return path


def real_path(path: Path) -> Path:
    """The encounter file itself: *path* with every symlink resolved (``os.path.realpath``).

    The store's entry points that touch the journal, the lock or the file's
    replacement (`change`, `create`, `undo`, `read_log`) call it once, so a
    change through a link writes the link's target (its temp file beside the
    target) and keeps the link a link, and every name of one encounter sees one
    state, one history and one lock (RELIABILITY.md, promise 7). A dangling
    link resolves to its missing target, which `check_file` then refuses.
    *path* itself comes back when no link is involved, so that messages name
    the file as it was typed.
    """
    resolved = os.path.realpath(path)
    return path if resolved == os.path.abspath(path) else Path(resolved)


def journal_path(path: Path) -> Path:
    return path.with_name(path.name + JOURNAL_SUFFIX)


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + LOCK_SUFFIX)


# --- reading -------------------------------------------------------------------------------


def check_file(path: Path) -> None:
    """Refuse at once a path that is not a small regular file (missing, a folder, a FIFO, > 1 MB).

    Changes call it before taking the lock, so a wrong path never leaves a
    lock file (or a folder) behind.

    Raises:
        FileError: saying which.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        problem = "no encounter file here (create one with 'd4cli init')"
        raise FileError(path, "", None, problem) from None
    except OSError as error:
        raise FileError(path, "", None, f"cannot read: {error.strerror}") from None
    _check_regular(path, info)


def read_bytes(path: Path) -> bytes:
    """The file's bytes, refusing at once anything that is not a small regular file.

    ``os.stat`` comes before ``open`` and the open does not block, so a FIFO
    never hangs the command.

    Raises:
        FileError: missing, a directory, a FIFO or device, larger than 1 MB, unreadable.
    """
    check_file(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise FileError(path, "", None, f"cannot read: {error.strerror}") from None
    try:
        _check_regular(path, os.fstat(fd))
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise FileError(path, "", None, f"cannot read: {error.strerror}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        raise FileError(path, "", None, "is larger than 1 MB: not an encounter file")
    return data


def _check_regular(path: Path, info: os.stat_result) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise FileError(path, "", None, "is a directory, not an encounter file")
    if not stat.S_ISREG(info.st_mode):
        raise FileError(path, "", None, "is not a regular file (a FIFO, socket or device?)")
    if info.st_size > MAX_FILE_BYTES:
        problem = f"is larger than 1 MB ({info.st_size:,} bytes): not an encounter file"
        raise FileError(path, "", None, problem)


def decode(data: bytes, path: Path) -> str:
    """The file's text (UTF-8).

    Raises:
        FileError: not valid UTF-8 (the message gives the byte offset).
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FileError(path, "", None, f"not valid UTF-8 (byte {error.start})") from None


def read_text(path: Path) -> str:
    """The encounter file's text, checked to be a small regular UTF-8 file (see `read_bytes`)."""
    return decode(read_bytes(path), path)


def read_encounter(path: Path) -> Encounter:
    """Read and validate the encounter at *path* (no lock: files are only ever replaced whole).

    Raises:
        FileError: unreadable, or invalid (see `d4cli.encounter_file.parse_encounter`).
    """
    return parse_encounter(read_text(path), path)


def digest(data: bytes) -> str:
    """The SHA-256 of *data*, in hex (hashlib is imported here: Tab completion never hashes)."""
    import hashlib

    return hashlib.sha256(data).hexdigest()


# --- the journal ---------------------------------------------------------------------------


# The records below are NamedTuples, not dataclasses: Tab completion imports this module to
# read the file and never needs them, and a frozen dataclass costs ~1 ms to build.


class Line(NamedTuple):
    """One journal line: its byte span and its entry (None when torn or not JSON).

    ``raw`` holds the line's bytes only when it is not an entry (b"" otherwise).
    """

    start: int
    end: int
    entry: dict[str, Any] | None
    raw: bytes = b""

    @property
    def torn(self) -> bool:
        return not self.raw.endswith(b"\n")


class Tail(NamedTuple):
    """The end of the journal as seen against the file's current hash.

    Attributes:
        size: the journal's size in bytes.
        good_end: where the standing entries end (before an unfinished one).
        last: the newest standing entry's line (before a damaged one), or None.
        damaged: the newest line when it is damaged (kept; see the module's "Damage").
        file_newer: with *damaged*: the file is not what the entry before it wrote.
    """

    size: int
    good_end: int
    last: Line | None
    damaged: Line | None = None
    file_newer: bool = False

    @property
    def unfinished(self) -> bool:
        return self.good_end < self.size


def _lines_backward(handle: BinaryIO, size: int, chunk: int = 1 << 16) -> Iterator[Line]:
    """The journal's lines from the newest back, reading *chunk* bytes at a time."""
    pos = size
    buffer = b""
    while True:
        cut = buffer.rfind(b"\n", 0, max(0, len(buffer) - 1))
        if cut >= 0:
            start = pos + cut + 1
            yield _line(start, buffer[cut + 1 :])
            buffer = buffer[: cut + 1]
            continue
        if pos == 0:
            if buffer:
                yield _line(0, buffer)
            return
        step = min(chunk, pos)
        pos -= step
        handle.seek(pos)
        buffer = handle.read(step) + buffer


def _line(start: int, raw: bytes) -> Line:
    entry = None
    if raw.endswith(b"\n"):
        try:
            value = json.loads(raw)
        except ValueError:
            value = None
        if isinstance(value, dict) and isinstance(value.get("kind"), str):
            entry = value
    return Line(start, start + len(raw), entry, b"" if entry is not None else raw)


def _torn_before(raw: bytes) -> str | None:
    """The ``before`` hash a torn entry still shows, if the tear came after it."""
    import re

    found = re.search(rb',"before":"([0-9a-f]{64})","after":', raw)
    return found.group(1).decode("ascii") if found else None


def _line_number(handle: BinaryIO, start: int, chunk: int = 1 << 20) -> int:
    """The 1-based number of the line starting at byte *start* (read only to name a damaged line)."""
    handle.seek(0)
    count = 1
    left = start
    while left > 0:
        data = handle.read(min(chunk, left))
        if not data:
            break
        count += data.count(b"\n")
        left -= len(data)
    return count


def _open_journal(path: Path) -> BinaryIO | None:
    journal = journal_path(path)
    try:
        info = os.stat(journal)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise FileError(journal, "", None, f"cannot read: {error.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise FileError(journal, "", None, "is not a regular file")
    try:
        return open(journal, "rb")
    except OSError as error:
        raise FileError(journal, "", None, f"cannot read: {error.strerror}") from None


class _Split(NamedTuple):
    good_end: int
    lines: Iterator[Line]  # the standing lines, newest first (after a damaged newest line)
    damaged: Line | None
    file_newer: bool


def _standing(lines: Iterator[Line], file_digest: str | None, size: int) -> _Split:
    """Split off an unfinished or a damaged newest line (the module's crash story and "Damage")."""
    newest = next(lines, None)
    if newest is None:
        return _Split(0, iter(()), None, False)
    entry = newest.entry
    if entry is not None:
        if entry.get("after") != file_digest and entry.get("before") == file_digest:
            return _Split(newest.start, lines, None, False)
        return _Split(size, _chain(newest, lines), None, False)
    previous = next(lines, None)
    rest = iter(()) if previous is None else _chain(previous, lines)
    if previous is None:
        # Only this line: the file can be checked against nothing but the torn entry itself.
        matches = file_digest is None
        file_newer = file_digest is not None
    else:
        matches = previous.entry is not None and previous.entry.get("after") == file_digest
        file_newer = previous.entry is not None and not matches
    if newest.torn and (matches or _torn_before(newest.raw) == file_digest):
        return _Split(newest.start, rest, None, False)  # a crash inside the append: unfinished
    return _Split(size, rest, newest, file_newer)


def _chain(first: Line, rest: Iterator[Line]) -> Iterator[Line]:
    yield first
    yield from rest


def _read_tail(handle: BinaryIO | None, file_digest: str | None) -> Tail:
    if handle is None:
        return Tail(0, 0, None)
    size = os.fstat(handle.fileno()).st_size
    split = _standing(_lines_backward(handle, size), file_digest, size)
    last = next(split.lines, None)
    return Tail(size, split.good_end, last, split.damaged, split.file_newer)


def _damage(handle: BinaryIO, line: Line, file_newer: bool) -> str:
    """What a damaged line is, in words: "line N is damaged (...)"."""
    number = _line_number(handle, line.start)
    if file_newer:
        return f"line {number} is damaged; the file is newer than the history"
    return f"line {number} is damaged (not a journal entry)"


class History(NamedTuple):
    """What ``log`` shows: the standing entries, oldest first, and a warning about a damaged newest line."""

    entries: list[dict[str, Any]]
    warning: str | None = None


def standing_entries(path: Path, file_digest: str | None, last: int | None = None) -> History:
    """Entries that stand, oldest first, back to the newest ``init`` (at most *last* of them).

    A damaged newest line is left out and named in the warning; the entries
    before it are shown.

    Raises:
        FileError: a damaged line further back, when the entries reach it.
    """
    handle = _open_journal(path)
    if handle is None:
        return History([])
    journal = journal_path(path)
    with handle:
        size = os.fstat(handle.fileno()).st_size
        split = _standing(_lines_backward(handle, size), file_digest, size)
        entries: list[dict[str, Any]] = []
        for line in split.lines:
            if last is not None and len(entries) >= last:
                break
            if line.entry is None:
                shown = f"; 'log --last {len(entries)}' shows the newer entries" if entries else ""
                problem = _damage(handle, line, False) + ": the log cannot go past it" + shown
                raise FileError(journal, "", None, problem)
            entries.append(line.entry)
            if line.entry["kind"] == "init":
                break
        warning = None
        if split.damaged is not None:
            problem = _damage(handle, split.damaged, split.file_newer)
            warning = f"{journal}: {problem}: the change it held is not shown"
    entries.reverse()
    return History(entries, warning)


def read_history(path: Path, last: int | None = None) -> History:
    """The changes that stand, oldest first (``d4cli log``); *last* keeps the newest N.

    Reads the journal backwards and stops at *last* entries or at the
    newest ``init``, so ``--last`` reads only what it shows. A damaged newest
    line is not shown; ``warning`` names it (the module's "Damage").

    The encounter file is validated first, as on every read (docs/cli.md).

    Raises:
        FileError: the encounter file is unreadable or invalid, or a damaged journal
            line that the entries reach (not the newest).
    """
    path = real_path(path)
    data = read_bytes(path)
    parse_encounter(decode(data, path), path)
    history = standing_entries(path, digest(data), last)
    return History([public_entry(entry) for entry in history.entries], history.warning)


def read_log(path: Path, last: int | None = None) -> list[dict[str, Any]]:
    """`read_history` without its warning: the standing entries only."""
    return read_history(path, last).entries


def public_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry without its bookkeeping (hashes and the saved file text)."""
    return {key: value for key, value in entry.items() if key not in PRIVATE_KEYS}


def encode_entry(entry: dict[str, Any]) -> bytes:
    """One journal line: compact ASCII JSON and a newline."""
    return (json.dumps(entry, ensure_ascii=True, separators=(",", ":")) + "\n").encode("ascii")


# --- the lock ------------------------------------------------------------------------------


def lock_timeout() -> float:
    """Seconds to wait for the lock: ``D4CLI_LOCK_TIMEOUT``, default 5.

    Raises:
        InputError: not a number of seconds >= 0.
    """
    text = os.environ.get(LOCK_TIMEOUT_ENV)
    if text is None or text == "":
        return DEFAULT_LOCK_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 86_400:
        raise InputError(LOCK_TIMEOUT_ENV, text, "must be a number of seconds within 0..86400")
    return seconds


@contextmanager
def locked(path: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold the encounter's exclusive lock (``PATH.lock``) for a whole read-modify-write.

    Raises:
        LockTimeout: another command held it longer than *timeout* (default `lock_timeout`).
        FileError: the lock file cannot be made (missing or read-only folder).
    """
    import filelock

    seconds = lock_timeout() if timeout is None else timeout
    _check_lock_file(lock_path(path))
    lock = filelock.FileLock(str(lock_path(path)), timeout=seconds)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise LockTimeout(
            f"{path}: could not get the lock within {seconds:g} s: another d4cli command is "
            f"changing this encounter; try again (or set {LOCK_TIMEOUT_ENV} to wait longer)"
        ) from None
    except OSError as error:
        raise FileError(lock_path(path), "", None, f"cannot lock: {error.strerror or error}") from None
    try:
        yield
    finally:
        lock.release()


def _check_lock_file(lock: Path) -> None:
    """Create (or open) the lock file, refusing at once when that fails.

    filelock retries a failed open until its timeout and then reports a
    timeout, which would blame "another d4cli command" for a folder that
    takes no new files (read-only, ``/proc``) and make the user wait for it.

    Raises:
        FileError: the lock file cannot be created or opened (with the system's reason).
    """
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(lock, flags, 0o666)
    except OSError as error:
        reason = error.strerror or str(error)
        if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            reason += " (is the folder read-only?)"
        raise FileError(lock, "", None, f"cannot create the lock file: {reason}") from None
    os.close(fd)


# --- writing -------------------------------------------------------------------------------


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _fsync_folder(folder: Path) -> None:
    """Make a rename or a new file durable; best effort (some systems cannot open folders)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale_temp_files(path: Path) -> None:
    """Remove the temp files a killed change left beside *path* (``.NAME.XXXXXXXX.tmp``).

    Called under the lock, just before a write: no other change of this
    encounter can be running, so every such file is stale (a kill came between
    ``mkstemp`` and ``os.replace``). Only this encounter's temp files match:
    the random part has no dot, so ``.a.toml.x.XXXXXXXX.tmp`` (the encounter
    ``a.toml.x``) is never taken for one of ``a.toml``. Best effort: a folder
    that cannot be listed or a file that cannot be removed is left as it is.
    """
    import re

    pattern = re.compile(re.escape(f".{path.name}.") + r"[a-z0-9_]+\.tmp")
    folder = path.parent
    try:
        with os.scandir(folder) as entries:
            stale = [entry.name for entry in entries if pattern.fullmatch(entry.name)]
    except OSError:
        return
    for name in stale:
        try:
            os.unlink(folder / name)
        except OSError:
            pass


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def replace_file(path: Path, data: bytes) -> None:
    """Write *data* to a temp file in *path*'s folder, fsync it, and ``os.replace`` it over *path*.

    The old file's permissions are kept. On any error the temp file is removed
    and *path* is untouched.

    Raises:
        OSError: the disk is full, the folder read-only, ...
    """
    import tempfile

    folder = path.parent
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = _new_file_mode()
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    _fsync_folder(folder)


class _JournalWriter:
    """The journal opened for writing, able to put back exactly what it had (byte-for-byte)."""

    def __init__(self, path: Path, tail: Tail) -> None:
        self.path = journal_path(path)
        self.tail = tail
        self.created = not self.path.exists()
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        size = os.fstat(self.fd).st_size
        if size != tail.size:
            os.close(self.fd)
            problem = "changed while locked (is another program writing it?)"
            raise FileError(self.path, "", None, problem)
        os.lseek(self.fd, tail.good_end, os.SEEK_SET)
        self.unfinished = os.read(self.fd, tail.size - tail.good_end)

    def cut(self, end: int) -> None:
        os.ftruncate(self.fd, end)
        os.fsync(self.fd)

    def append(self, line: bytes) -> None:
        """Cut an unfinished entry, then append *line* and fsync.

        A damaged newest line is kept: *line* goes after it, on a line of its own.
        """
        os.ftruncate(self.fd, self.tail.good_end)
        os.lseek(self.fd, self.tail.good_end, os.SEEK_SET)
        damaged = self.tail.damaged
        if damaged is not None and damaged.torn:
            line = b"\n" + line
        _write_all(self.fd, line)
        os.fsync(self.fd)
        if self.created:
            _fsync_folder(self.path.parent)

    def restore(self) -> None:
        """Put the journal back as it was before this writer touched it (best effort)."""
        try:
            if self.created:
                os.unlink(self.path)
                return
            os.ftruncate(self.fd, self.tail.good_end)
            os.lseek(self.fd, self.tail.good_end, os.SEEK_SET)
            _write_all(self.fd, self.unfinished)
            os.fsync(self.fd)
        except OSError:
            pass

    def close(self) -> None:
        os.close(self.fd)


def _write_failed(path: Path, error: OSError) -> FileError:
    reason = error.strerror or str(error)
    if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        reason += " (is the folder read-only?)"
    return FileError(path, "", None, f"cannot write, nothing was changed: {reason}")


def _commit(path: Path, tail: Tail, new_data: bytes, entry: dict[str, Any]) -> None:
    """Append *entry* to the journal, then replace the file with *new_data* (the crash story).

    Stale temp files of earlier, killed changes are removed first (`remove_stale_temp_files`).
    """
    line = encode_entry(entry)
    remove_stale_temp_files(path)
    try:
        writer = _JournalWriter(path, tail)
    except OSError as error:
        raise _write_failed(journal_path(path), error) from None
    replaced = False
    try:
        writer.append(line)
        replace_file(path, new_data)
        replaced = True
    except BaseException as error:
        if not replaced:
            writer.restore()
        if isinstance(error, OSError):
            raise _write_failed(path, error) from None
        raise
    finally:
        writer.close()


def _next_seq(tail: Tail) -> int:
    """The newest entry's ``seq`` + 1; after a damaged line that still shows its own, that one's + 1."""
    if tail.damaged is not None:
        import re

        shown = re.match(rb'\{"seq":(\d{1,18}),', tail.damaged.raw)
        if shown:
            return int(shown.group(1)) + 1
    last = tail.last.entry if tail.last is not None else None
    seq = last.get("seq") if last else 0
    return seq + 1 if isinstance(seq, int) and not isinstance(seq, bool) else 1


def change(
    path: Path,
    transition: Callable[[Encounter], tuple[Encounter, Record]],
    *,
    clock: Clock = local_now,
) -> tuple[Encounter, Record]:
    """Apply *transition* to the encounter at *path* under its lock, and record it.

    Reads and validates the file, calls ``transition(encounter)``, and when the
    record says the change is allowed writes the journal entry and then the
    new file (see the module's crash story). A refused record (R2) or an
    exception writes nothing.

    Args:
        path: the encounter file; a symlink is followed (`real_path`).
        transition: a pure function of `d4cli.encounter` (dice already bound).
        clock: the time recorded in the entry.

    Returns:
        The new encounter (the old one when refused) and the record.

    Raises:
        FileError: an unreadable or invalid file, a damaged journal, a failed write.
        LockTimeout: the lock was not had in time.
        InputError: whatever *transition* raises.
    """
    path = real_path(path)
    check_file(path)
    with locked(path):
        old_data = read_bytes(path)
        old_text = decode(old_data, path)
        encounter = parse_encounter(old_text, path)
        new_encounter, record = transition(encounter)
        if not record.allowed:
            return encounter, record
        new_data = encode_checked(new_encounter, path)
        old_digest = digest(old_data)
        with _maybe(_open_journal(path)) as handle:
            tail = _read_tail(handle, old_digest)
        entry = {
            "seq": _next_seq(tail),
            "time": clock().isoformat(timespec="seconds"),
            **record.log(),
            "before": old_digest,
            "after": digest(new_data),
            "prev": old_text,
        }
        _commit(path, tail, new_data, entry)
    return new_encounter, record


def encode_checked(encounter: Encounter, path: Path) -> bytes:
    """The bytes of the new file, once they are known to read back.

    d4cli never writes a file it would then refuse: one over 1 MB (after nine
    very long names), or one whose round has run past its range.

    Raises:
        FileError: the new file would be too large or invalid; nothing is written.
    """
    from d4cli.encounter_file import dump_encounter

    text = dump_encounter(encounter)
    data = text.encode("utf-8")
    if len(data) > MAX_FILE_BYTES:
        problem = f"this change would make the file larger than 1 MB ({len(data):,} bytes)"
        raise FileError(path, "", None, problem + "; nothing was written")
    try:
        parse_encounter(text, path)
    except FileError as error:
        reason = str(error).removeprefix(f"{path}: ")
        raise FileError(
            path, "", None, f"this change would leave the file invalid ({reason}); nothing was written"
        ) from None
    return data


@contextmanager
def _maybe(handle: BinaryIO | None) -> Iterator[BinaryIO | None]:
    try:
        yield handle
    finally:
        if handle is not None:
            handle.close()


def create(
    path: Path,
    text: str,
    details: dict[str, Any],
    *,
    force: bool = False,
    clock: Clock = local_now,
) -> None:
    """Write a new encounter file with *text* (already validated) and an ``init`` entry.

    An existing journal is kept and the ``init`` entry appended: ``log`` and
    ``undo`` never look past the newest ``init``. A symlink is followed
    (`real_path`): the link's target is written, the link kept.

    Raises:
        InputError: the file exists and *force* is not set.
        FileError: the path is a directory or not a regular file; a failed write.
        LockTimeout: the lock was not had in time.
    """
    path = real_path(path)
    if not path.parent.is_dir():
        raise FileError(path, "", None, f"the folder {str(path.parent)!r} does not exist")
    if os.path.exists(path):
        check_file(path)  # never replace a directory, a FIFO or a huge file
    with locked(path):
        old_digest = None
        if os.path.exists(path):
            if not force:
                raise InputError("--force", None, f"{path} already exists; add --force to replace it")
            old_digest = digest(read_bytes(path))
        new_data = text.encode("utf-8")
        with _maybe(_open_journal(path)) as handle:
            tail = _read_tail(handle, old_digest)
        entry = {
            "seq": _next_seq(tail),
            "time": clock().isoformat(timespec="seconds"),
            "kind": "init",
            **details,
            "before": old_digest,
            "after": digest(new_data),
        }
        _commit(path, tail, new_data, entry)


class Undone(NamedTuple):
    """What ``undo`` reverted: the entry, and whether a hand edit made after it was reverted too."""

    entry: dict[str, Any]
    hand_edited: bool


def undo(path: Path) -> Undone:
    """Revert the newest change: write its saved ``prev`` text back and drop its entry.

    Never reverts the ``init`` that created the file. The file need not be
    valid (an undo can rescue a bad hand edit); a hand edit made after the
    undone change is reverted with it (``hand_edited``). A symlink is
    followed (`real_path`).

    Raises:
        InputError: nothing to undo.
        FileError: unreadable file, damaged journal line or entry, failed write.
        LockTimeout: the lock was not had in time.
    """
    path = real_path(path)
    check_file(path)
    with locked(path):
        data = read_bytes(path)
        file_digest = digest(data)
        with _maybe(_open_journal(path)) as handle:
            tail = _read_tail(handle, file_digest)
        last = tail.last
        entry = None if last is None else last.entry
        damaged = tail.damaged if tail.damaged is not None else last if entry is None else None
        if damaged is not None:
            with _maybe(_open_journal(path)) as handle:
                assert handle is not None
                problem = _damage(handle, damaged, tail.damaged is not None and tail.file_newer)
            raise FileError(
                journal_path(path), "", None, problem + ": undo cannot tell what to restore"
            )
        if entry is None or entry["kind"] == "init" or not isinstance(entry.get("prev"), str):
            raise InputError("undo", None, "nothing to undo")
        assert last is not None
        prev = entry["prev"].encode("utf-8")
        if digest(prev) != entry.get("before"):
            problem = "damaged: its saved text does not match its hash"
            raise FileError(journal_path(path), f"entry {entry.get('seq')}", None, problem)
        try:
            writer = _JournalWriter(path, tail)
        except OSError as error:
            raise _write_failed(journal_path(path), error) from None
        try:
            try:
                remove_stale_temp_files(path)
                if tail.unfinished:
                    writer.cut(tail.good_end)
                replace_file(path, prev)
            except BaseException as error:
                writer.restore()
                if isinstance(error, OSError):
                    raise _write_failed(path, error) from None
                raise
            try:
                writer.cut(last.start)
            except OSError:
                # The file is back at the entry's `before`: the entry now reads as
                # unfinished and is dropped; the next change cuts it.
                pass
        finally:
            writer.close()
    return Undone(public_entry(entry), hand_edited=entry.get("after") != file_digest)
