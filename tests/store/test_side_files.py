"""Side files are d4cli's own or refused: a journal, redo file or lock that is a symlink,
or a side file of another owner, is one plain line (exit 2), and nothing is written
through it: not the change, not a chmod. A planted temp-file name never redirects a write."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from _cli import fails, ok


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
    "argv", [["turn", "start"], ["undo"], ["redo"], ["add", "Cara", "--aspect", "Might=1"], ["exhaust", "Aria", "1"]]
)
def test_a_symlinked_journal_or_redo_file_is_refused_and_never_written(path: Path, victim: Path, suffix: str, argv):
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


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give files away")
def test_a_journal_of_another_owner_is_refused(path: Path):
    # The encounter is nobody's, the journal a third user's: neither the file's owner nor this user.
    os.chown(path, 65534, 65534)
    journal = path.with_name(path.name + ".journal")
    os.chown(journal, 12345, 12345)
    line = fails(2, path, "turn", "start")
    assert "belongs to" in line and "encounter file's owner" in line
