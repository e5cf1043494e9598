"""Two processes acting on one encounter at once never lose an update (the store's lock)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
from _cli import run

# Two processes changing one encounter at once.
pytestmark = pytest.mark.slow

ACTS_PER_PROCESS = 50

# Each worker runs the real `d4cli act` command ACTS_PER_PROCESS times in its own process
# (in-process calls of the CLI's main, so the test is not dominated by interpreter start-up).
WORKER = """
import os, sys
from d4cli.cli.main import main
devnull = open(os.devnull, "w")
sys.stdout = devnull
for i in range(int(sys.argv[1])):
    try:
        main(["act", "Tank", "Might", "--cost", "1", "--json", "--seed", str(i)])
    except SystemExit as done:
        if done.code != 0:
            sys.stderr.write(f"act {i} exited {done.code}\\n")
            raise
"""


def test_two_processes_acting_at_once_lose_nothing(isolated_env):
    assert run("init").exit_code == 0
    assert run("add", "Tank", "--aspect", "Might=1000").exit_code == 0
    load_before = json.loads(run("status", "--json").stdout)["creatures"][0]["load"]
    env = {**os.environ, "D4CLI_LOCK_TIMEOUT": "60"}
    started = time.monotonic()
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(ACTS_PER_PROCESS)],
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for worker in workers:
        _, err = worker.communicate(timeout=120)
        assert worker.returncode == 0, err
    elapsed = time.monotonic() - started
    status = json.loads(run("status", "--json").stdout)
    assert status["creatures"][0]["load"] == load_before + 2 * ACTS_PER_PROCESS
    entries = json.loads(run("log", "--json").stdout)["entries"]
    acts = [entry for entry in entries if entry["kind"] == "act"]
    assert len(acts) == 2 * ACTS_PER_PROCESS
    # Each act saw the Load the one before it left: a chain with no gap and no repeat.
    assert [entry["load_before"] for entry in acts] == list(range(load_before, load_before + 100))
    assert [entry["seq"] for entry in entries] == list(range(1, len(entries) + 1))
    assert elapsed < 60
    print(f"2 x {ACTS_PER_PROCESS} concurrent acts in {elapsed:.2f} s")
