"""A lock that cannot be stolen silently: the lock file removed, replaced, or turned into a
folder while a change holds it makes that change write nothing (exit 2, naming the lock),
and a command that then locks the new file keeps its change and its journal entry."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from _cli import fails, ok, run

from d4cli.fight import turns  # the library calls the model's set_exhaustion through this module
from d4cli.store import lock as lock_module


def _lock(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def _remove(lock: Path) -> None:
    lock.unlink()


def _replace(lock: Path) -> None:
    other = lock.with_name("other.tmp")
    other.write_bytes(b"")
    os.replace(other, lock)


def _folder(lock: Path) -> None:
    lock.unlink()
    lock.mkdir()


REAL_SET_EXHAUSTION = turns.set_exhaustion
SABOTAGE = {"removed": _remove, "replaced": _replace, "made a folder": _folder}


@pytest.fixture
def path(tmp_path: Path) -> Path:
    ok("init")
    ok("add", "Aria", "--aspect", "Might=3")
    return tmp_path / "encounter.toml"


def _while_held(monkeypatch: pytest.MonkeyPatch, then) -> None:  # type: ignore[no-untyped-def]
    """Run *then* inside the next exhaust change, while it holds the lock."""
    real = REAL_SET_EXHAUSTION

    def sabotaged(*args, **kwargs):  # type: ignore[no-untyped-def]
        then()
        return real(*args, **kwargs)

    monkeypatch.setattr(turns, "set_exhaustion", sabotaged)


def _leave_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(turns, "set_exhaustion", REAL_SET_EXHAUSTION)


@pytest.mark.parametrize("how", sorted(SABOTAGE))
def test_a_change_whose_lock_is_stolen_writes_nothing(
    monkeypatch: pytest.MonkeyPatch, path: Path, how: str
):
    _while_held(monkeypatch, lambda: SABOTAGE[how](_lock(path)))
    line = fails(2, path, "exhaust", "Aria", "2")
    assert f"{_lock(path)}: was removed or replaced while this change held it" in line
    if _lock(path).is_dir():
        _lock(path).rmdir()
    _leave_alone(monkeypatch)
    assert ok("exhaust", "Aria", "2")  # the next change locks the file the path names


def test_the_command_that_took_the_new_lock_keeps_its_change_and_entry(
    monkeypatch: pytest.MonkeyPatch, path: Path
):
    script = Path(sys.executable).parent / "d4cli"

    def other_command() -> None:
        _lock(path).unlink()
        done = subprocess.run(
            [str(script), "add", "Bob", "--aspect", "Might=1", "--file", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr

    _while_held(monkeypatch, other_command)
    out = run("exhaust", "Aria", "2")
    assert out.exit_code == 2 and "was removed or replaced" in out.stderr
    _leave_alone(monkeypatch)
    entries = json.loads(ok("log", "--json").stdout)["entries"]
    assert [entry["kind"] for entry in entries][-1] == "add" and "Bob" in path.read_text()
    undone = ok("undo")
    assert "edited by hand" not in undone.stderr and "Bob" not in path.read_text()


def test_a_lock_file_replaced_while_waiting_is_locked_anew(
    monkeypatch: pytest.MonkeyPatch, path: Path
):
    real = lock_module._acquire
    calls = []

    def replaced_first(fd, lock, seconds):  # type: ignore[no-untyped-def]
        if not calls:
            _replace(lock)
        calls.append(fd)
        return real(fd, lock, seconds)

    monkeypatch.setattr(lock_module, "_acquire", replaced_first)
    with lock_module.locked(path) as held:
        held.check()  # the path names the file now locked
    assert len(calls) == 2
