"""The archive of an evening's finished fights, beside the encounter file.

For an encounter ``PATH``::

    PATH.fights/01-the-bridge.toml           the finished fight's file, byte for byte
    PATH.fights/01-the-bridge.toml.journal   its journal as it stood
    PATH.fights/01-the-bridge.toml.requests  the seats' requests, when there were any

``NN`` is the fight's number in the evening, the name a plain form of the fight's name. An
archive is written under the encounter's lock by ``next`` before its journal entry and its new
file (`d4cli.api.change.Door`): each file of it goes to a temp file that is linked to its name,
so an archive file is whole or absent and is never written over. The ``.toml`` comes last: an
archive without it is the remains of an interrupted ``next`` and is replaced; one with it that
holds this very fight (the same file and journal bytes: a ``next`` that died before its entry,
or one that ``undo`` took back) is reused as it is. Which archives make the evening is said by
the ``next`` entries (each names the archive it wrote), never by the folder's listing, so an
archive left behind by an ``undo`` counts nowhere.

The folder must be a real folder of the encounter file's owner (or of this user): a file, a
symlink or another user's folder is refused before anything is written.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from pathlib import Path
from typing import NamedTuple

from d4cli.journal.entry import read_entry
from d4cli.journal.next_facts import NextChange
from d4cli.rules.errors import FileError
from d4cli.store import files
from d4cli.store.files import journal_path
from d4cli.store.history import read_history
from d4cli.store.seat_files import REQUESTS_SUFFIX, requests_path
from d4cli.store.sidefiles import NOFOLLOW, owner_name
from d4cli.store.temp import remove_stale_temp_files

FOLDER_SUFFIX = ".fights"
# The name part of an archive: letters, digits and dashes, at most this long.
NAME_CHARS = 40


def fights_folder(path: Path) -> Path:
    """``PATH.fights``: the folder of the archived fights of the encounter *path*."""
    return path.with_name(path.name + FOLDER_SUFFIX)


def check_folder(path: Path) -> None:
    """Refuse a ``PATH.fights`` that is not d4cli's to write in: a symlink, a file (anything but
    a folder) or a folder of another user than the encounter file's owner and this user.

    Raises:
        FileError: naming the folder.
    """
    folder = fights_folder(path)
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        return
    except OSError as error:
        raise FileError(folder, "", None, f"cannot read: {error.strerror}") from None
    if stat.S_ISLNK(info.st_mode):
        raise FileError(folder, "", None, "is a symlink: the fights' archive must be a folder")
    if not stat.S_ISDIR(info.st_mode):
        raise FileError(folder, "", None, "is not a folder: the fights' archive cannot go there")
    owner = os.stat(path).st_uid
    if info.st_uid not in (owner, os.geteuid()):
        problem = f"belongs to {owner_name(info.st_uid)}, not to the encounter file's owner {owner_name(owner)}"
        raise FileError(folder, "", None, problem)


def plain_name(name: str) -> str:
    """*name* as a file name part: lower case letters, digits and dashes (``The Bridge!`` ->
    ``the-bridge``); ``fight`` when nothing is left."""
    plain = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:NAME_CHARS].strip("-")
    return plain or "fight"


class Archive(NamedTuple):
    """Where ``next`` keeps a finished fight: the archive's ``.toml`` path, and whether an
    identical archive is already there (it is then reused, not written)."""

    path: Path
    exists: bool


def _read_all(path: Path) -> bytes | None:
    """The bytes of a side file (no link followed), or None when there is none."""
    try:
        fd = os.open(path, os.O_RDONLY | NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise FileError(path, "", None, f"cannot read: {error.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


def _parts(path: Path) -> tuple[tuple[Path, str], ...]:
    """Each file of the fight at *path* that an archive keeps, with the suffix it takes there."""
    return (
        (journal_path(path), files.JOURNAL_SUFFIX),
        (requests_path(path), REQUESTS_SUFFIX),
    )


def plan_archive(path: Path, number: int, name: str) -> Archive:
    """The archive of fight *number* called *name* of the encounter *path*, as it stands now
    (call under the lock): ``NN-name.toml``, or an identical one already there (reused), or,
    when other archives hold those names, ``NN-name-2.toml`` and on.

    Raises:
        FileError: the folder is refused (`check_folder`) or cannot be read.
    """
    check_folder(path)
    folder = fights_folder(path)
    data = files.read_bytes(path)
    stem = f"{number:02d}-{plain_name(name)}"
    extra = 1
    while True:
        target = folder / (stem + ("" if extra == 1 else f"-{extra}") + ".toml")
        if not os.path.lexists(target):
            return Archive(target, False)
        if _same(path, target, data):
            return Archive(target, True)
        extra += 1


def _same(path: Path, target: Path, data: bytes) -> bool:
    """Whether the archive *target* holds the fight at *path* (whose file is *data*) as it is."""
    if _read_all(target) != data:
        return False
    for part, suffix in _parts(path):
        if _read_all(part) != _read_all(target.with_name(target.name + suffix)):
            return False
    return True


def write_archive(path: Path, data: bytes, archive: Archive) -> None:
    """Write *archive* (`plan_archive`) of the encounter *path*, whose file is *data*: its
    journal and requests first, the ``.toml`` last, each whole (a temp file linked to its name,
    never over another file). An archive that `plan_archive` found identical is left as it is.
    Call it under the lock, before the change that starts the next fight.

    Raises:
        FileError: the folder is refused, a file of the archive is in the way, a write failed;
            the encounter and its journal are untouched.
    """
    if archive.exists:
        return
    check_folder(path)
    folder = fights_folder(path)
    mode = files.mode_of(path)
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        for part, suffix in _parts(path):
            found = _read_all(part)
            side = archive.path.with_name(archive.path.name + suffix)
            remove_stale_temp_files(side)
            _remove_remains(side)
            if found is not None:
                _link_new(side, found, stat.S_IMODE(os.stat(part).st_mode))
        remove_stale_temp_files(archive.path)
        _link_new(archive.path, data, mode)
    except OSError as error:
        raise files.write_failed(archive.path, error) from None
    files.fsync_folder(folder)


def _remove_remains(side: Path) -> None:
    """Remove a journal or requests copy an interrupted ``next`` left without its ``.toml``."""
    toml = side.with_name(side.name.rsplit(".", 1)[0])
    if not os.path.lexists(toml) and os.path.lexists(side):
        os.unlink(side)


def _link_new(target: Path, data: bytes, mode: int) -> None:
    """Write *data* as the new file *target*, whole or not at all; never over another file."""
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        try:
            files.write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(temp, mode)
        os.link(temp, target)  # fails when the name is taken: an archive is never written over
    finally:
        os.unlink(temp)


def fight_number(path: Path) -> int:
    """The number in its evening of the fight the encounter *path* holds: 1, or the number its
    ``next`` entry gave it.

    Raises:
        FileError: the file or its journal cannot be read.
    """
    entries = read_history(path).entries
    if entries:
        first = read_entry(entries[0]).change
        if isinstance(first, NextChange) and first.fight is not None:
            return first.fight
    return 1


def evening_of(path: Path) -> list[Path]:
    """The archives of the fights before the one *path* holds, oldest first, as the ``next``
    entries name them (each archive's own journal names the one before it). An archive that is
    missing or unreadable ends the walk.
    """
    found: list[Path] = []
    here = path
    seen: set[Path] = set()
    while True:
        try:
            entries = read_history(here).entries
        except FileError:
            break
        first = read_entry(entries[0]).change if entries else None
        if not isinstance(first, NextChange) or first.archived is None:
            break
        archived = Path(first.archived)
        if not archived.is_absolute():
            archived = path.parent / archived
        if archived in seen or not archived.is_file():
            break
        seen.add(archived)
        found.append(archived)
        here = archived
    found.reverse()
    return found
