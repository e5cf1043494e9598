"""The encounter's lock: the operating system's advisory lock on ``PATH.lock``, with a timeout.

POSIX: ``fcntl.flock`` (the lock goes with the process: a killed command
never leaves it held). Windows: ``msvcrt.locking`` on the file's first byte.
Elsewhere: an exclusive-create marker ``PATH.lock.held`` next to the lock
file, removed on release (a killed command leaves it; it is then taken as
stale once it is older than the timeout). All three poll without blocking
until the timeout, then raise `LockTimeout` naming the lock file. Only the
standard library is used: the lock costs start-up almost nothing.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from d4cli.rules.errors import D4Error, FileError
from d4cli.store.files import keep_owner, lock_path, mode_of, tighten
from d4cli.store.sidefiles import denied_hint

# Seconds to wait for the lock when the caller gives no timeout (``D4CLI_LOCK_TIMEOUT`` unset).
DEFAULT_LOCK_TIMEOUT = 5.0

# Only the module this platform has is imported (a failed import searches the whole path);
# None where it is missing.
fcntl: Any = None
msvcrt: Any = None
if sys.platform == "win32":  # pragma: no cover - Windows
    import msvcrt as _msvcrt

    msvcrt = _msvcrt
else:
    try:
        import fcntl as _fcntl
    except ImportError:  # pragma: no cover - a POSIX without flock
        pass
    else:
        fcntl = _fcntl


class LockTimeout(D4Error):
    """Another d4cli command held the encounter's lock for longer than the timeout."""


class Held:
    """The lock as held: `check` that ``PATH.lock`` still names the file that was locked.

    A lock is a lock on one file (one device and inode). Should someone remove
    or replace ``PATH.lock`` while a change holds it, the next command locks the
    new file and changes the encounter too: the first change must then write
    nothing, or the two would interleave (and the journal lose an entry).
    """

    __slots__ = ("_fd", "_lock")

    def __init__(self, lock: Path, fd: int) -> None:
        self._lock = lock
        self._fd = fd

    def check(self) -> None:
        """Raise unless ``PATH.lock`` is still the file this change locked.

        Raises:
            FileError: naming the lock file; nothing was written.
        """
        if not _names(self._lock, self._fd):
            raise FileError(
                self._lock,
                "",
                None,
                "was removed or replaced while this change held it, so another command may be "
                "changing the encounter; nothing was written: try again",
            )


def _names(lock: Path, fd: int) -> bool:
    """True when the path *lock* is the regular file open as *fd* (same device and inode)."""
    try:
        named = os.stat(lock, follow_symlinks=False)
    except OSError:
        return False
    held = os.fstat(fd)
    return stat.S_ISREG(named.st_mode) and (named.st_dev, named.st_ino) == (
        held.st_dev,
        held.st_ino,
    )


@contextmanager
def locked(path: Path, timeout: float | None = None) -> Iterator[Held]:
    """Hold the encounter's exclusive lock (``PATH.lock``) for a whole read-modify-write.

    Once locked, the path must still name the locked file (`Held`): a lock file
    removed or replaced while this command waited is opened and locked anew.

    Args:
        path: the encounter file (its real path).
        timeout: seconds to wait (the shell passes ``D4CLI_LOCK_TIMEOUT``); None:
            `DEFAULT_LOCK_TIMEOUT`.

    Yields:
        `Held`, whose ``check`` the transaction calls before it writes.

    Raises:
        LockTimeout: another command held it longer than *timeout*.
        FileError: the lock file cannot be made (missing or read-only folder).
    """

    seconds = DEFAULT_LOCK_TIMEOUT if timeout is None else timeout
    deadline = time.monotonic() + seconds
    lock = lock_path(path)
    while True:
        fd = _open_lock_file(
            lock, mode_of(path) | stat.S_IWUSR
        )  # holds no data: writable, whatever the file
        release = _acquire(fd, lock, max(0.0, deadline - time.monotonic()))
        if release is None:
            os.close(fd)
            raise LockTimeout(
                f"{path}: could not get the lock within {seconds:g} s ({lock}): another d4cli "
                f"command is changing this encounter; try again (or set D4CLI_LOCK_TIMEOUT to "
                f"wait longer)"
            )
        if _names(lock, fd):
            break
        release()  # the file we waited on is gone from the path: lock the one it names now
        os.close(fd)
    try:
        yield Held(lock, fd)
    finally:
        release()
        os.close(fd)


def _open_lock_file(lock: Path, mode: int) -> int:
    """Create (or open) the lock file with the encounter's permission bits, refusing at once on failure.

    Raises:
        FileError: the lock file cannot be created or opened (with the system's reason).
    """
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(lock, flags, mode)
    except OSError as error:
        if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS) and os.path.isfile(lock):
            try:  # an existing lock file this user may only read still locks
                return os.open(lock, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            except OSError:
                pass
        reason = error.strerror or str(error)
        if error.errno == errno.EROFS:
            reason += " (is the folder read-only?)"
        elif error.errno in (errno.EACCES, errno.EPERM):
            reason += denied_hint(lock)
        raise FileError(lock, "", None, f"cannot create the lock file: {reason}") from None
    tighten(lock, mode)
    keep_owner(fd, lock.with_name(lock.name.removesuffix(".lock")))
    return fd


def _acquire(fd: int, lock: Path, seconds: float):  # type: ignore[no-untyped-def]
    """Poll for the lock until *seconds* pass; the release function, or None on timeout."""

    deadline = time.monotonic() + seconds
    pause = 0.002
    while True:
        release = _try(fd, lock, seconds)
        if release is not None:
            return release
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        time.sleep(min(pause, left))
        pause = min(pause * 2, 0.05)


def _try(fd: int, lock: Path, seconds: float):  # type: ignore[no-untyped-def]
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return None
        except OSError as error:
            if error.errno in (errno.EAGAIN, errno.EACCES):
                return None
            raise FileError(lock, "", None, f"cannot lock: {error.strerror or error}") from None
        return lambda: fcntl.flock(fd, fcntl.LOCK_UN)
    if msvcrt is not None:  # pragma: no cover - Windows
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return None

        def unlock() -> None:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

        return unlock
    return _try_marker(lock, seconds)  # pragma: no cover - no OS lock


def _try_marker(lock: Path, seconds: float):  # type: ignore[no-untyped-def]
    """The fallback without an OS lock: exclusive creation of ``PATH.lock.held``."""

    held = lock.with_name(lock.name + ".held")
    try:
        os.close(os.open(held, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        try:
            if time.time() - os.stat(held).st_mtime > max(seconds, 1.0) * 4:
                os.unlink(held)  # left by a killed command
        except OSError:
            pass
        return None
    except OSError as error:
        raise FileError(lock, "", None, f"cannot lock: {error.strerror or error}") from None
    return lambda: os.unlink(held)
