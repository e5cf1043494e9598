"""The note "this change dropped N comment lines" is read under the lock: of several first
changes started at once on a large hand-commented file (a smaller one keeps them), only the one that dropped the comments says
so; the others find them gone."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from _cli import ok
from _reliability import lock_held_elsewhere

from d4cli.store.commented import MAX_COMMENTED_BYTES


@pytest.mark.slow  # real processes waiting on a lock held by another
def test_only_the_change_that_dropped_the_comments_says_so(isolated_env):
    path = isolated_env / "encounter.toml"
    ok("init", file=path)
    ok("add", "Aria", "--aspect", "Might=3", "--hp", "10", file=path)
    # Past MAX_COMMENTED_BYTES a commented file is written in d4cli's layout, its comments dropped.
    padding = "# " + "x" * MAX_COMMENTED_BYTES + "\n"
    path.write_text("# my own comment\n" + padding + path.read_text("utf-8"), "utf-8")
    env = {**os.environ, "D4CLI_FILE": str(path), "D4CLI_LOCK_TIMEOUT": "30"}
    with lock_held_elsewhere(path.with_name("encounter.toml.lock")):
        workers = [
            subprocess.Popen(
                [sys.executable, "-m", "d4cli", "damage", "Aria", "1"],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(3)
        ]
        time.sleep(1.5)  # all three have read the file and wait for the lock
    notes = []
    for worker in workers:
        _, err = worker.communicate(timeout=60)
        assert worker.returncode == 0, err
        notes.append(err.count("dropped 2 comment lines"))
    assert sorted(notes) == [0, 0, 1]
    assert "my own comment" not in path.read_text("utf-8")
