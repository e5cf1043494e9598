"""Side files are d4cli's own or refused: a journal, redo file or lock that is a symlink,
or a side file of another owner, is one plain line (exit 2), and nothing is written
through it: not the change, not a chmod. A planted temp-file name never redirects a write."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from _cli import fails, ok

from d4cli.store import undo as undo_redo


@pytest.fixture
def path(tmp_path: Path) -> Path:
    ok("init")
    ok("add", "Aria", "--aspect", "Might=3")
    ok("add", "Bob", "--aspect", "Might=2")
    return tmp_path / "encounter.toml"


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    outside = tmp_path.parent / f"{tmp_path.name}-victim.txt"
    outside.write_text("not d4cli's\n")
    outside.chmod(0o644)
    yield outside
    outside.unlink()


def _as_link(side: Path, victim: Path) -> None:
    if side.exists():
        side.unlink()
    side.symlink_to(victim)


def _untouched(victim: Path) -> None:
    assert victim.read_text() == "not d4cli's\n"
    assert stat.S_IMODE(victim.stat().st_mode) == 0o644


@pytest.mark.parametrize("suffix", [".journal", ".redo"])
@pytest.mark.parametrize(
    "argv",
    [
        ["turn", "start"],
        ["undo"],
        ["redo"],
        ["add", "Cara", "--aspect", "Might=1"],
        ["exhaust", "Aria", "1"],
    ],
)
def test_a_symlinked_journal_or_redo_file_is_refused_and_never_written(
    path: Path, victim: Path, suffix: str, argv
):
    side = path.with_name(path.name + suffix)
    _as_link(side, victim)
    line = fails(2, path, *argv)
    assert "is a symlink" in line or "nothing to redo" in line, line
    _untouched(victim)
    assert side.is_symlink()


def test_reading_through_a_symlinked_journal_is_refused_too(path: Path, victim: Path):
    _as_link(path.with_name(path.name + ".journal"), victim)
    assert "is a symlink" in fails(2, path, "log")
    _untouched(victim)


def test_a_symlinked_lock_file_is_refused(path: Path, victim: Path):
    _as_link(path.with_name(path.name + ".lock"), victim)
    line = fails(2, path, "turn", "start")
    assert ".lock" in line
    _untouched(victim)


def test_a_planted_temp_file_name_never_redirects_a_write(path: Path, victim: Path):
    planted = path.with_name(f".{path.name}.abcdefgh.tmp")
    planted.symlink_to(victim)
    ok("turn", "start")
    ok("undo")
    _untouched(victim)
    assert not os.path.lexists(planted)  # a stale temp name is removed, never followed


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give files away"
)
def test_a_journal_of_another_owner_is_refused(path: Path):
    # The encounter is nobody's, the journal a third user's: neither the file's owner nor this user.
    os.chown(path, 65534, 65534)
    journal = path.with_name(path.name + ".journal")
    os.chown(journal, 12345, 12345)
    line = fails(2, path, "turn", "start")
    assert "belongs to" in line and "encounter file's owner" in line


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to chown")
@pytest.mark.parametrize("sticky", [True, False], ids=["sticky", "plain"])
def test_a_lock_file_of_another_user_is_named_with_its_owner_not_a_read_only_folder(
    tmp_path: Path, monkeypatch, sticky
):
    """Another user's lock file that this user may not open: in a sticky folder (/tmp) the kernel
    refuses even root an O_CREAT open of it (fs.protected_regular); the folder is writable, so
    "is the folder read-only?" would send the GM the wrong way."""

    path = tmp_path / "encounter.toml"
    ok("init", "--file", str(path))
    tmp_path.chmod(0o1777 if sticky else 0o777)
    lock = path.with_name(path.name + ".lock")
    os.chown(lock, 65534, 65534)
    lock.chmod(0o600)
    real_open = os.open

    def refused(
        name, flags, *args, **kwargs
    ):  # what the kernel answers a user who is not its owner
        if str(name) == str(lock):
            raise PermissionError(13, os.strerror(13), str(name))
        return real_open(name, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refused)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    from d4cli.rules.errors import FileError
    from d4cli.store.sidefiles import owner_name

    with pytest.raises(FileError) as caught:
        undo_redo.undo(path, timeout=1)
    owner = owner_name(65534)
    message = str(caught.value)
    assert message.startswith(
        f"{lock}: cannot create the lock file: Permission denied (the file belongs to {owner}"
    )
    assert "read-only" not in message
    assert ("the folder is sticky, like /tmp" in message) == sticky
    assert f"run d4cli as {owner}" in message
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before
