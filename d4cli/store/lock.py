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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from d4cli.rules.errors import FileError, LockTimeout
from d4cli.store.files import keep_owner, lock_path, mode_of, tighten

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


@contextmanager
def locked(path: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold the encounter's exclusive lock (``PATH.lock``) for a whole read-modify-write.

    Args:
        path: the encounter file (its real path).
        timeout: seconds to wait (the shell passes ``D4CLI_LOCK_TIMEOUT``); default 5.

    Raises:
        LockTimeout: another command held it longer than *timeout*.
        FileError: the lock file cannot be made (missing or read-only folder).
    """
    seconds = DEFAULT_LOCK_TIMEOUT if timeout is None else timeout
    lock = lock_path(path)
    fd = _open_lock_file(lock, mode_of(path) | stat.S_IWUSR)  # holds no data: writable, whatever the file
    try:
        release = _acquire(fd, lock, seconds)
        if release is None:
            raise LockTimeout(
                f"{path}: could not get the lock within {seconds:g} s ({lock}): another d4cli "
                f"command is changing this encounter; try again (or set D4CLI_LOCK_TIMEOUT to "
                f"wait longer)"
            )
        try:
            yield
        finally:
            release()
    finally:
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
        if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            reason += " (is the folder read-only?)"
        raise FileError(lock, "", None, f"cannot create the lock file: {reason}") from None
    tighten(lock, mode)
    keep_owner(fd, lock.with_name(lock.name.removesuffix(".lock")))
    return fd


def _acquire(fd: int, lock: Path, seconds: float):  # type: ignore[no-untyped-def]
    """Poll for the lock until *seconds* pass; the release function, or None on timeout."""
    import time

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
    import time

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
