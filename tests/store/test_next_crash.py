"""``next`` stopped at any point leaves the old fight or the new one, never half.

Two ways: every write step of ``next`` made to fail in turn (the journal copy of the archive,
its ``.toml``, the journal entry, the new file), and a forked worker running ``next`` and
``undo`` over and over, killed (SIGKILL) at random moments (slow). After each, the file is one
of the two fights whole, the journal agrees with it, and the next ``next`` goes through,
reusing the archive a stopped one left.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time
from pathlib import Path

import pytest
from _cli import files, ok, ok_json, run

from d4cli.api import D4Error
from d4cli.api.encounter import Tracker
from d4cli.store import fight_archive as fights
from d4cli.store import files as store_files
from d4cli.store.history import read_history


@pytest.fixture
def fight(tmp_path):
    path = tmp_path / "encounter.toml"
    ok("init", "--name", "The road")
    ok("add", "Aria", "--aspect", "Might=4", "--hp", "10", "--side", "party")
    ok("add", "Goblin", "--aspect", "Might=2", "--hp", "4", "--side", "foes")
    ok("damage", "Aria", "3")
    return path


def _fail_at(monkeypatch, target: object, name: str, call: int) -> None:
    """Make the *call*-th call (from 1) of ``target.name`` fail as a full disk would."""
    real = getattr(target, name)
    calls = {"n": 0}

    def failing(*args: object, **kwargs: object) -> object:
        calls["n"] += 1
        if calls["n"] == call:
            raise OSError(28, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(target, name, failing)


STEPS = [
    (fights, "_link_new", 1, "the archive's journal copy"),
    (fights, "_link_new", 2, "the archive's .toml"),
    (store_files.JournalWriter, "append", 1, "the journal entry"),
    (store_files, "replace_file", 1, "the new file"),
]


@pytest.mark.parametrize(("target", "name", "call", "step"), STEPS, ids=[s[3] for s in STEPS])
def test_a_next_that_fails_at_any_step_leaves_the_old_fight(
    fight, tmp_path, monkeypatch, target, name, call, step
):
    before = files(fight)
    with monkeypatch.context() as patched:
        _fail_at(patched, target, name, call)
        failed = run("next")
        assert failed.exit_code != 0 and "No space left" in failed.stderr, str(failed)
    assert files(fight) == before, step
    made = ok_json("next")
    assert made["archived"] == "encounter.toml.fights/01-the-road.toml"
    archive = tmp_path / made["archived"]
    assert archive.read_bytes() == before["encounter.toml"]
    assert Path(str(archive) + ".journal").read_bytes() == before["encounter.toml.journal"]
    ok("undo")
    now = files(fight)
    assert [now[n] for n in FIGHT] == [before[n] for n in FIGHT]


# The fight itself: its file and its journal (undo leaves its redo record beside them).
FIGHT = ("encounter.toml", "encounter.toml.journal")


def _worker(path: Path, seed: int) -> None:
    """In the forked child: ``next`` and ``undo`` over and over until killed. Never returns."""
    try:
        with open(os.devnull, "w") as devnull:
            sys.stdout = sys.stderr = devnull
            os.dup2(devnull.fileno(), 1)
            os.dup2(devnull.fileno(), 2)
            tracker = Tracker(path)
            rng = random.Random(seed)
            from d4cli.api.evening import NextPlan, start_next

            for _ in range(100_000):
                try:
                    if tracker.status().name == "The road":
                        start_next(tracker, NextPlan(name="Two"))
                    elif rng.random() < 0.8:
                        tracker.undo()
                    else:
                        tracker.note(None, "a line")
                except D4Error:
                    pass  # a lock held by the parent's checks, nothing to undo: go on
    finally:
        os._exit(0)


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_next_killed_anywhere_leaves_one_fight_whole(fight, tmp_path):
    rng = random.Random(os.environ.get("D4CLI_CRASH_SEED", random.randrange(10**9)))
    road = fight.read_bytes()
    for _ in range(60):
        pid = os.fork()
        if pid == 0:
            _worker(fight, rng.randrange(10**9))
        time.sleep(rng.uniform(0, 0.08))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        status = ok_json("status")
        entries = read_history(fight).entries
        if status["name"] == "The road":
            assert fight.read_bytes() == road
        else:
            assert status["name"] == "Two"
            first = entries[0]
            assert first["kind"] == "next"
            assert (tmp_path / first["archived"]).read_bytes() == road
        assert fights.fight_number(fight) in (1, 2)
    # Whatever the kills left, the evening goes on: one more next, its archive whole.
    while ok_json("status")["name"] == "Two":
        ok("undo")  # the worker's notes, then the next itself
    made = ok_json("next")
    assert (tmp_path / made["archived"]).read_bytes() == road
