"""``simulate --jobs`` is bounded like every number (promise 7): at most the cores d4cli may use
on this machine (more processes only queue and cost memory), with --scheduler at most 1,024
pieces at once; above, one line naming the value and the bound, exit 2."""

from __future__ import annotations

import os

import pytest
from _cli import run

CORES = len(os.sched_getaffinity(0))


@pytest.mark.parametrize("jobs", [str(CORES + 1), "0", "-1", "100000", "9" * 40])
def test_jobs_beyond_the_cores_are_refused_naming_them(isolated_env, jobs):
    answer = run("simulate", "--from", "duel", "--runs", "5", "--jobs", jobs)
    assert (answer.exit_code, answer.stdout) == (2, "")
    assert answer.stderr == (
        f"d4cli: error: --jobs: '{jobs}': must be within 1..{CORES}: "
        f"this machine lets d4cli use {CORES} cores\n"
    )


def test_jobs_up_to_the_cores_run(isolated_env):
    answer = run(
        "simulate", "--from", "duel", "--runs", "5", "--seed", "1", "--jobs", "1", "--json"
    )
    assert answer.exit_code == 0 and answer.json()["runs"] == 5


def test_with_a_scheduler_the_bound_is_the_stated_cap(isolated_env):
    answer = run("simulate", "--from", "duel", "--scheduler", "tcp://127.0.0.1:1", "--jobs", "1025")
    assert answer.exit_code == 2 and "--jobs: 1025: must be within 1..1024" in answer.stderr
