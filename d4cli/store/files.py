"""The store's files: paths, validated reads, permissions, atomic replacement, the journal writer.

Files beside each other (for an encounter ``PATH``)::

    PATH          the current state (TOML; d4cli.fileformat.encounter_toml)
    PATH.journal  the history (d4cli.store.journal)
    PATH.redo     what ``undo`` took back and ``redo`` can put again (only after an undo)
    PATH.lock     the lock every change holds (d4cli.store.lock)

**Permissions.** Every file d4cli makes beside the encounter (journal, redo,
lock, temp files) gets at most the encounter file's own permission bits, and
an existing journal or redo file that is looser is tightened: the history
holds the file's text, so it is never more readable than the file.

**Read-only.** A file the user has made read-only (no write bit for its
owner, or not writable for this user), or a folder that takes no new files,
is refused before anything is written (`check_writable`). Root can write a
``chmod 444`` file, but the owner's missing write bit is what the GM asked
for, so it is refused for root too.
"""

from __future__ import annotations

import errno
import hashlib
import os
import shlex
import stat
import tempfile
from pathlib import Path

from d4cli.rules.errors import FileError
from d4cli.store.sidefiles import (
    NOFOLLOW,
    check_side_file,
    denied_hint,
    open_side,
    owner_name,
    refuse_link,
)

MAX_FILE_BYTES = 1024 * 1024
JOURNAL_SUFFIX = ".journal"
LOCK_SUFFIX = ".lock"
REDO_SUFFIX = ".redo"


def real_path(path: Path) -> Path:
    """The encounter file itself: *path*, with the links among its folders resolved.

    The encounter file may not be a symlink (`refuse_link`): its side files are
    made beside it, and beside a link's target they could land anywhere (a link
    to ``/etc/passwd`` would make ``/etc/passwd.lock``). A linked folder is fine:
    the side files are in the one real folder whichever name is used. *path*
    itself comes back when no link is involved, so that messages name the file
    as it was typed.

    Raises:
        FileError: *path* is a symlink.
    """
    refuse_link(path)
    resolved = os.path.realpath(path)
    return path if resolved == os.path.abspath(path) else Path(resolved)


def journal_path(path: Path) -> Path:
    return path.with_name(path.name + JOURNAL_SUFFIX)


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + LOCK_SUFFIX)


def redo_path(path: Path) -> Path:
    return path.with_name(path.name + REDO_SUFFIX)


# --- reading -------------------------------------------------------------------------------


def check_file(path: Path) -> None:
    """Refuse at once a path that is not a small regular file (missing, a folder, a FIFO, > 1 MB).

    Raises:
        FileError: saying which.
    """
    refuse_link(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        where = "" if str(path) == "encounter.toml" else f" --file {shlex.quote(str(path))}"
        problem = f"no such encounter file (create it with 'd4cli init{where}')"
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
        fd = os.open(path, os.O_RDONLY | NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
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


def digest(data: bytes) -> str:
    """The SHA-256 of *data*, in hex: the hash the journal keeps (``before``/``after``).

    `hashlib` is imported here, not at the top: Tab completion never hashes.
    """

    return hashlib.sha256(data).hexdigest()


def open_journal(journal: Path) -> tuple[object, int] | tuple[None, int]:
    """The journal opened for reading and its size, or (None, 0) when there is none.

    Raises:
        FileError: not d4cli's own (`check_side_file`), or unreadable.
    """
    fd = open_side(journal)
    if fd is None:
        return None, 0
    handle = os.fdopen(fd, "rb")  # the caller closes it
    return handle, os.fstat(fd).st_size


# --- permissions ---------------------------------------------------------------------------


def new_file_mode() -> int:
    """The mode a new file gets here (0666 less the umask)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def mode_of(path: Path) -> int:
    """The permission bits the encounter's side files may have: the file's own (new: the umask's)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode) & 0o666
    except OSError:  # a new file (or a name the lock will refuse at once)
        return new_file_mode()


def tighten(side: Path, mode: int) -> None:
    """Take from *side* (journal, redo, lock) every permission bit the encounter file lacks.

    Best effort on a file d4cli does not own (the bits it already has stay). Never
    through a link: what a symlink points at is not d4cli's to chmod.
    """
    try:
        info = os.lstat(side)
    except OSError:
        return
    if not stat.S_ISREG(info.st_mode):
        return
    current = stat.S_IMODE(info.st_mode)
    if current & ~mode & 0o777:
        try:
            os.chmod(side, current & mode)
        except OSError:
            pass


def check_writable(path: Path, *, new: bool = False) -> None:
    """Refuse a read-only encounter file or folder before anything is written (exit 2).

    Read-only means: no write bit for the file's owner (``chmod 444``, refused
    for root too), or this user may not write it (``os.access``); for the
    folder, which must take the journal and temp files, the same. The journal and the
    redo file, where they exist, are checked as the file is: a change writes them too.

    Raises:
        FileError: naming the file or the folder, with how to allow the change.
    """
    folder = path.parent if str(path.parent) else Path(".")
    sides = [(journal_path(path), "file"), (redo_path(path), "file")] if path.name else []
    targets = [(folder, "folder")] if new else [(path, "file"), *sides, (folder, "folder")]
    for target, what in targets:
        try:
            info = os.stat(target)
        except OSError:
            continue  # check_file and the lock name a missing target
        if not info.st_mode & stat.S_IWUSR or not os.access(target, os.W_OK):
            where = target
            if info.st_mode & stat.S_IWUSR and info.st_uid != os.geteuid():
                # Not a missing write bit but another owner: chmod is theirs to run, not ours.
                owner = owner_name(info.st_uid)
                raise FileError(
                    where,
                    "",
                    None,
                    f"the {what} is read-only for this user: it belongs to {owner}; nothing was changed "
                    f"(run d4cli as {owner}, or ask them to give it back with chown)",
                )
            raise FileError(
                where,
                "",
                None,
                f"the {what} is read-only; nothing was changed (allow writing with chmod u+w)",
            )


def keep_owner(target: Path | int, like: Path) -> None:
    """Give *target* (a path or an open fd) the owner and group of *like*, the encounter file.

    A change made by another user (root) must not leave the file, its journal
    or its side files owned by that user, locking the owner out. Only root may
    give a file away; for anyone else this does nothing. Best effort.
    """
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return
    try:
        info = os.stat(like)
        current = os.fstat(target) if isinstance(target, int) else os.stat(target)
        if (current.st_uid, current.st_gid) != (info.st_uid, info.st_gid):
            if isinstance(target, int):
                os.fchown(target, info.st_uid, info.st_gid)
            else:
                os.chown(target, info.st_uid, info.st_gid)
    except OSError:
        pass


# --- writing -------------------------------------------------------------------------------


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def fsync_folder(folder: Path) -> None:
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


def replace_file(
    path: Path, data: bytes, mode: int | None = None, owner: Path | None = None
) -> None:
    """Write *data* to a temp file in *path*'s folder, fsync it, and ``os.replace`` it over *path*.

    The temp file is made 0600 (`tempfile.mkstemp`) and gets *mode* (default: the
    old file's permissions, or the umask's for a new file) just before the
    rename, and the owner and group of *owner* (default: of the old file), when
    root writes it (`keep_owner`). On any error the temp file is removed and
    *path* is untouched.

    Raises:
        OSError: the disk is full, the folder read-only, ...
    """
    folder = path.parent
    existed = path.exists()
    if mode is None:
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except FileNotFoundError:
            mode = new_file_mode()
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        try:
            write_all(fd, data)
            os.fsync(fd)
            if existed or owner is not None:
                keep_owner(
                    fd, owner or path
                )  # before the chmod: chown may clear setuid/setgid bits
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
    fsync_folder(folder)


class JournalWriter:
    """The journal opened for writing, able to put back exactly what it had (byte-for-byte)."""

    def __init__(self, journal: Path, size: int, good_end: int, mode: int) -> None:
        self.path = journal
        self.size = size
        self.good_end = good_end
        self.created = not os.path.lexists(journal)
        # A new journal is created exclusively; an old one opened without following a link.
        flags = os.O_RDWR | NOFOLLOW | (os.O_CREAT | os.O_EXCL if self.created else 0)
        self.fd = os.open(journal, flags, mode)
        try:
            if not self.created:  # a new one is ours: made just now, then given to the file's owner
                check_side_file(journal, os.fstat(self.fd))
        except BaseException:
            os.close(self.fd)
            raise
        if self.created:
            os.fchmod(self.fd, mode)  # the umask must not make it looser or tighter than the file
            keep_owner(self.fd, journal.with_name(journal.name.removesuffix(".journal")))
        if os.fstat(self.fd).st_size != size:
            os.close(self.fd)
            problem = "changed while locked (is another program writing it?)"
            raise FileError(journal, "", None, problem)
        os.lseek(self.fd, good_end, os.SEEK_SET)
        self.unfinished = os.read(self.fd, size - good_end)

    def cut(self, end: int) -> None:
        os.ftruncate(self.fd, end)
        os.fsync(self.fd)

    def append(self, line: bytes, after_torn: bool = False) -> None:
        """Cut an unfinished entry, then append *line* and fsync.

        *after_torn*: the newest line is damaged and torn; *line* goes after it
        on a line of its own (the damaged line is kept).
        """
        os.ftruncate(self.fd, self.good_end)
        os.lseek(self.fd, self.good_end, os.SEEK_SET)
        write_all(self.fd, b"\n" + line if after_torn else line)
        os.fsync(self.fd)
        if self.created:
            fsync_folder(self.path.parent)

    def restore(self) -> None:
        """Put the journal back as it was before this writer touched it (best effort)."""
        try:
            if self.created:
                os.unlink(self.path)
                return
            os.ftruncate(self.fd, self.good_end)
            os.lseek(self.fd, self.good_end, os.SEEK_SET)
            write_all(self.fd, self.unfinished)
            os.fsync(self.fd)
        except OSError:
            pass

    def close(self) -> None:
        os.close(self.fd)


class WriteFailed(FileError):
    """A write the system refused (a full disk, a read-only folder, an I/O error): nothing was
    changed. Its message names the file and the system's reason."""


def write_failed(path: Path, error: OSError) -> WriteFailed:
    """The `WriteFailed` of *error* from writing *path*, with a hint where the reason is a
    read-only file, folder or another user's file."""
    reason = error.strerror or str(error)
    if error.errno in (
        errno.EROFS,
        errno.EACCES,
        errno.EPERM,
    ):  # the file itself read-only (a journal), else its folder
        exists = os.path.lexists(path)
        if exists and hasattr(os, "geteuid") and os.lstat(path).st_uid != os.geteuid():
            reason += denied_hint(path)  # another user's file: chmod is not this user's to run
        else:
            read_only = exists and (
                not os.lstat(path).st_mode & stat.S_IWUSR
                or not os.access(path, os.W_OK, follow_symlinks=False)
            )
            reason += (
                f" (the file {path.name} is read-only: allow writing with chmod u+w)"
                if read_only
                else " (is the folder read-only?)"
            )
    return WriteFailed(path, "", None, f"cannot write, nothing was changed: {reason}")


# A file's stamp: (mtime in ns, size, inode), None when it is missing.
Stamp = tuple[int, int, int] | None


def stamps(paths: tuple[Path, ...]) -> tuple[Stamp, ...]:
    """A cheap stamp of each of *paths* (no read): it moves whenever a file is replaced,
    written or removed, which the live screens poll for."""
    out: list[Stamp] = []
    for target in paths:
        try:
            info = os.stat(target)
        except OSError:
            out.append(None)
            continue
        out.append((info.st_mtime_ns, info.st_size, info.st_ino))
    return tuple(out)
