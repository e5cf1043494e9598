"""Side files are d4cli's own: never a symlink, a regular file of the encounter file's owner.

A journal linked to ``../victim.txt`` had a change appended to it and was chmod-ed;
an encounter file linked to ``/etc/passwd`` made ``/etc/passwd.lock``. So the
encounter file may not be a link (`refuse_link`), and the journal, redo file and
lock are opened without following one (``O_NOFOLLOW``) and checked before anything
is written (`check_side_file`).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any

from d4cli.rules.errors import FileError

SYMLINKED = (
    "is a symlink: d4cli does not follow a linked encounter file (its journal and lock would be"
    " made beside the link's target); give the file itself"
)

pwd: Any = None
try:
    import pwd as _pwd
except ImportError:  # pragma: no cover - Windows: owners are shown as uid N
    pass
else:
    pwd = _pwd


def refuse_link(path: Path) -> None:
    """Refuse an encounter file that is a symlink (RELIABILITY.md, promise 7).

    Raises:
        FileError: naming the link.
    """
    if os.path.islink(path):
        raise FileError(path, "", None, SYMLINKED)


# Side files (journal, redo records, lock, temporary files) are opened without following a link.
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def check_side_file(side: Path, info: os.stat_result | None = None) -> os.stat_result | None:
    """*side*'s status when it is d4cli's own: a regular file (not a symlink) of the
    encounter file's owner or of this user; None when there is none.

    A journal linked to ``../victim.txt`` would have a change appended to it (and
    chmod-ed): a side file that is not d4cli's is refused before anything is written.

    Raises:
        FileError: a symlink, not a regular file, of another owner, or unreadable.
    """
    if info is None:
        try:
            info = os.lstat(side)
        except FileNotFoundError:
            return None
        except OSError as error:
            raise FileError(side, "", None, f"cannot read: {error.strerror}") from None
    if stat.S_ISLNK(info.st_mode):
        raise FileError(
            side, "", None, "is a symlink: d4cli's side files are its own (remove the link)"
        )
    if not stat.S_ISREG(info.st_mode):
        raise FileError(side, "", None, "is not a regular file")
    owner = _owner_of(side.with_name(side.name.rsplit(".", 1)[0]))
    if owner is None and info.st_uid != os.geteuid():
        # No encounter yet: a side file another user left in a shared folder is not ours.
        problem = (
            f"belongs to {owner_name(info.st_uid)}, not to this user {owner_name(os.geteuid())}"
        )
        raise FileError(side, "", None, problem)
    if owner is not None and info.st_uid not in (owner, os.geteuid()):
        problem = f"belongs to {owner_name(info.st_uid)}, not to the encounter file's owner {owner_name(owner)}"
        raise FileError(side, "", None, problem)
    return info


def _owner_of(path: Path) -> int | None:
    try:
        return os.stat(path).st_uid
    except OSError:
        return None


def open_side(side: Path) -> int | None:
    """*side* opened for reading without following a link (`check_side_file`); None when missing.

    Raises:
        FileError: as `check_side_file`, or unreadable.
    """
    try:
        fd = os.open(side, os.O_RDONLY | NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno == errno.ELOOP:
            check_side_file(side)
        raise FileError(side, "", None, f"cannot read: {error.strerror}") from None
    try:
        check_side_file(side, os.fstat(fd))
    except BaseException:
        os.close(fd)
        raise
    return fd


def owner_name(uid: int) -> str:
    """The login name of *uid* (``root``), or ``uid 1000`` when it has none."""
    try:
        return str(pwd.getpwuid(uid).pw_name)
    except (AttributeError, KeyError):  # no pwd (Windows), or no such user
        return f"uid {uid}"


def denied_hint(side: Path) -> str:
    """Why this user may not open *side* for writing, in words for a refusal: `` (is the folder
    read-only?)`` unless *side* exists and belongs to another user; then who owns it and, in a
    sticky folder (mode 1777, like ``/tmp``), that only its owner may open it there."""
    try:
        info = os.lstat(side)
    except OSError:
        return " (is the folder read-only?)"
    if not hasattr(os, "geteuid") or info.st_uid == os.geteuid():
        return " (is the folder read-only?)"
    owner = owner_name(info.st_uid)
    try:
        sticky = bool(os.stat(side.parent).st_mode & stat.S_ISVTX)
    except OSError:
        sticky = False
    if sticky:
        # Linux's protected_regular refuses even root an O_CREAT open of another user's file here.
        return (
            f" (the file belongs to {owner} and the folder is sticky, like /tmp: only {owner} may open it"
            f" there; run d4cli as {owner}, or use a folder of your own)"
        )
    return f" (the file belongs to {owner}: run d4cli as {owner}, or ask them to remove it)"
