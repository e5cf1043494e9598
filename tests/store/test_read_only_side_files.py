"""A read-only journal or redo file is refused as a read-only encounter file is (promise 15):
root could write a 0444 journal, and d4cli used to write and chmod it; the GM made it
read-only on purpose. One line naming it, exit 2, every file byte for byte as it was."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from _cli import fails, ok


@pytest.fixture
def fight(isolated_env) -> Path:
    path = isolated_env / "encounter.toml"
    ok("init", file=path)
    ok("add", "Aria", "--aspect", "Might=3", "--hp", "10", file=path)
    return path


@pytest.mark.parametrize(
    "args", [["damage", "Aria", "1"], ["undo"], ["note", "a note"], ["turn", "start"]]
)
def test_a_read_only_journal_is_refused_and_keeps_its_mode(fight, args):
    journal = fight.with_name("encounter.toml.journal")
    journal.chmod(0o444)
    line = fails(2, fight, *args, "--file", str(fight))
    assert line == (
        f"d4cli: error: {journal}: the file is read-only; nothing was changed "
        "(allow writing with chmod u+w)"
    )
    assert stat.S_IMODE(journal.stat().st_mode) == 0o444


def test_a_read_only_redo_file_is_refused(fight):
    ok("damage", "Aria", "1", file=fight)
    ok("undo", file=fight)
    redo = fight.with_name("encounter.toml.redo")
    redo.chmod(0o444)
    for args in (["redo"], ["damage", "Aria", "2"]):
        line = fails(2, fight, *args, "--file", str(fight))
        assert f"{redo}: the file is read-only" in line
    assert stat.S_IMODE(redo.stat().st_mode) == 0o444
