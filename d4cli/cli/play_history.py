"""Where ``d4cli play`` keeps the lines typed, and the one check before it writes there.

The history is d4cli's own file: a file this module created (it starts with `HEADER`),
or an empty one, or one already holding nothing but history lines. Whatever
``D4CLI_HISTORY`` names, d4cli never appends to another file (``/etc/passwd`` as root,
the encounter file or any of its side files), never follows a symlink to
it (``O_NOFOLLOW``), and never changes the mode of a file it did not create.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path

HISTORY_ENV = "D4CLI_HISTORY"
# The first line of a history d4cli created: only such a file's mode is ever narrowed.
HEADER = b"# d4cli play history\n"
# A history larger than this is not loaded (prompt_toolkit reads it whole, in a thread).
MAX_HISTORY_BYTES = 16 * 1024 * 1024
# How much of an existing file is read to tell whether it holds history lines only.
_LOOKED_AT = 64 * 1024
_TIME_LINE = re.compile(rb"# \d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?")
_FLAGS = os.O_RDWR | os.O_APPEND | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def history_path() -> Path:
    """Where the session history lives: ``D4CLI_HISTORY``, else ``$XDG_DATA_HOME/d4cli/history``,
    else ``~/.local/share/d4cli/history``."""
    override = os.environ.get(HISTORY_ENV)
    if override:
        return Path(override)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "d4cli" / "history"


def open_history(path: Path, encounter_files: Iterable[Path]) -> None:
    """Create or check the history file before the session appends to it.

    Created: exclusively, 0600, without following a symlink, starting with `HEADER`. An
    existing file is used only when it is a regular file of this user, at most
    `MAX_HISTORY_BYTES`, empty or holding history lines only (`_history_lines`),
    and not readable by others (a wider one is narrowed only when d4cli created it).

    Args:
        path: the history file.
        encounter_files: the encounter file and its side files (`d4cli.api.encounter.Reader.own_files`),
            which are never a history, even empty (the lock).

    Raises:
        OSError: the reason, in its ``strerror``: it is the encounter's, cannot be made or
            opened, is not a regular file of this user, too large, other text, or too open.
    """
    if _is_one_of(path, encounter_files):
        raise OSError(errno.EINVAL, "is the encounter file or one of its side files")
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        fd = os.open(path, _FLAGS | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        fd = os.open(path, _FLAGS)
        created = False
    else:
        created = True
    try:
        info = os.fstat(fd)
        if created:
            os.write(fd, HEADER)
            return
        _check_existing(fd, info, encounter_files)
    finally:
        os.close(fd)


def _check_existing(fd: int, info: os.stat_result, encounter_files: Iterable[Path]) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EINVAL, "not a regular file")
    if info.st_uid != os.geteuid():
        raise OSError(errno.EPERM, "owned by another user")
    if info.st_size > MAX_HISTORY_BYTES:
        raise OSError(errno.EFBIG, f"larger than {MAX_HISTORY_BYTES // (1024 * 1024)} MB")
    for other in encounter_files:
        try:
            same = os.stat(other, follow_symlinks=False)
        except OSError:
            continue
        if (same.st_dev, same.st_ino) == (info.st_dev, info.st_ino):
            raise OSError(errno.EINVAL, "is the encounter file or one of its side files")
    head = os.pread(fd, _LOOKED_AT, 0)
    if not _history_lines(head, complete=len(head) < _LOOKED_AT):
        raise OSError(errno.EINVAL, "holds other text than a d4cli history")
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o077:
        if not head.startswith(HEADER):
            raise OSError(
                errno.EPERM, f"others may read it (mode {mode:o}; 'chmod 600' it to use it)"
            )
        os.fchmod(fd, 0o600)  # d4cli's own file, widened since: narrowed again


def _history_lines(head: bytes, *, complete: bool) -> bool:
    """Whether *head* holds only history lines as d4cli writes them (`HEADER`, prompt_toolkit's
    ``# 2026-01-31 20:15:02.123456`` and ``+line``, blank lines): a file of comments alone,
    such as a configuration file, is not one."""
    lines = head.split(b"\n")
    if not complete:
        lines = lines[:-1]  # the last line may be cut where the read stopped
    return all(
        not line or line[:1] == b"+" or line + b"\n" == HEADER or _TIME_LINE.fullmatch(line)
        for line in lines
    )


def _is_one_of(path: Path, files: Iterable[Path]) -> bool:
    real = os.path.realpath(path)
    return any(real == os.path.realpath(other) for other in files)
