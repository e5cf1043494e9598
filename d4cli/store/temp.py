"""Temp files for atomic replacement: `make_temp` (`tempfile.mkstemp` without its import) and `remove_stale_temp_files`.

``tempfile`` costs every change about half a millisecond of start-up (it loads
``random``, ``shutil`` and ``weakref`` machinery); a change needs only its
``mkstemp``: an exclusive create under a random name, retried while the name is taken.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

# The flags and the name characters of `tempfile.mkstemp`.
_TEMP_FLAGS = (
    os.O_RDWR
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
_TEMP_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789_"


def make_temp(folder: Path, prefix: str, suffix: str) -> tuple[int, str]:
    """A new file ``PREFIX`` + 8 random ``[a-z0-9_]`` + ``SUFFIX`` in *folder*, opened 0600, as ``tempfile.mkstemp``.

    Created exclusively (``O_EXCL``, never following a link), tried again under
    another name while the name exists. Returns the open descriptor and the path.

    Raises:
        OSError: the folder takes no new file (full, read-only, missing).
    """
    for _ in range(10_000):
        middle = "".join(_TEMP_ALPHABET[byte % len(_TEMP_ALPHABET)] for byte in os.urandom(8))
        name = os.path.join(folder, prefix + middle + suffix)
        try:
            return os.open(name, _TEMP_FLAGS, 0o600), os.path.abspath(name)
        except FileExistsError:
            continue
        except PermissionError:
            # Windows says "access denied" when the name is taken by a folder (as mkstemp knows).
            if os.name == "nt" and os.path.isdir(folder) and os.access(folder, os.W_OK):
                continue
            raise
    raise FileExistsError(errno.EEXIST, "no free temporary file name")


def remove_stale_temp_files(path: Path) -> None:
    """Remove the temp files a killed change left beside *path* (``.NAME.XXXXXXXX.tmp``).

    Called under the lock, just before a write: no other change of this
    encounter can be running, so every such file is stale. Only this
    encounter's temp files match: the random part has no dot, so
    ``.a.toml.x.XXXXXXXX.tmp`` (the encounter ``a.toml.x``) is never taken for
    one of ``a.toml``. Best effort.
    """
    prefix = f".{path.name}."
    folder = path.parent
    try:
        with os.scandir(folder) as entries:
            stale = [entry.name for entry in entries if _is_temp_name(entry.name, prefix)]
    except OSError:
        return
    for name in stale:
        try:
            os.unlink(folder / name)
        except OSError:
            pass


_TEMP_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


def _is_temp_name(name: str, prefix: str) -> bool:
    """*name* is ``PREFIX`` + one or more of ``[a-z0-9_]`` + ``.tmp`` (a `replace_file` temp file)."""
    if not (name.startswith(prefix) and name.endswith(".tmp")):
        return False
    middle = name[len(prefix) : -len(".tmp")]
    return bool(middle) and _TEMP_CHARS.issuperset(middle)
