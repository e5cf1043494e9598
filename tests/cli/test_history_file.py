"""``play``'s history is d4cli's own file (promise 24): written only to a file it created, an
empty one or one of history lines, never the encounter or its side files, never through a
symlink, and never the mode of a file it did not create changed. Anything else is refused
with the reason (the session says it in one warning and keeps no history)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from d4cli.api.encounter import Tracker
from d4cli.cli.play_history import HEADER, open_history


def _own(tmp_path: Path) -> tuple[Path, ...]:
    return Tracker(tmp_path / "encounter.toml").own_files()


def _refused(path: Path, own: tuple[Path, ...], says: str) -> None:
    before = path.read_bytes() if path.is_file() else None
    mode = path.stat().st_mode if path.exists() else None
    with pytest.raises(OSError) as caught:
        open_history(path, own)
    assert says in caught.value.strerror
    if before is not None:
        assert path.read_bytes() == before
        assert path.stat().st_mode == mode


def test_a_new_history_is_created_0600_with_its_header(tmp_path: Path):
    path = tmp_path / "new" / "history"
    open_history(path, _own(tmp_path))
    assert path.read_bytes() == HEADER
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    open_history(path, _own(tmp_path))  # its own file again: used
    assert path.read_bytes() == HEADER


@pytest.mark.parametrize(
    "text",
    [
        b"root:x:0:0:root:/root:/bin/bash\n",
        b"# only comments\n# as a config file has\n",
        b"+x\nkey = 1\n",
    ],
)
def test_a_file_of_other_text_is_never_written(tmp_path: Path, text):
    other = tmp_path / "passwd"
    other.write_bytes(text)
    other.chmod(0o600)
    _refused(other, _own(tmp_path), "holds other text than a d4cli history")


@pytest.mark.parametrize("side", ["", ".journal", ".redo", ".lock", ".seats", ".requests"])
def test_the_encounter_and_its_side_files_are_never_a_history(isolated_env, side):
    from _cli import ok

    ok("init")
    ok("add", "Aria", "--aspect", "Might=3")
    own = _own(isolated_env)
    path = isolated_env / f"encounter.toml{side}"
    path.touch()  # the lock is an empty file: refused by its name
    _refused(path, own, "is the encounter file or one of its side files")
    link = isolated_env / "hard link"
    os.link(path, link)
    _refused(link, own, "one of its side files")


def test_a_symlink_is_never_followed(tmp_path: Path):
    target = tmp_path / "target"
    target.write_bytes(b"")
    (tmp_path / "link").symlink_to(target)
    with pytest.raises(OSError):
        open_history(tmp_path / "link", _own(tmp_path))
    assert target.read_bytes() == b""


def test_the_mode_of_a_file_it_did_not_create_is_never_changed(tmp_path: Path):
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    empty.chmod(0o600)
    open_history(empty, _own(tmp_path))  # an empty private file: used as it is
    assert empty.read_bytes() == b""
    empty.chmod(0o644)
    _refused(empty, _own(tmp_path), "others may read it (mode 644")
    old = tmp_path / "old history"
    old.write_bytes(b"\n# 2026-01-01 10:00:00\n+status\n")
    old.chmod(0o600)
    open_history(old, _own(tmp_path))  # history lines written before the header: used
    ours = tmp_path / "ours"
    open_history(ours, _own(tmp_path))
    ours.chmod(0o644)
    open_history(ours, _own(tmp_path))  # d4cli's own: narrowed again
    assert stat.S_IMODE(ours.stat().st_mode) == 0o600
