"""Concurrency stress: several processes changing one encounter at once; stale locks.

Four worker processes run random acts, Team Actions, turn starts and ends,
Exhaustion changes and undos on one encounter at the same time. Afterwards:

- nothing is lost: standing entries = successful changes - successful undos;
- nothing is invented: the standing acts are exactly the acts the workers were
  told about, minus the acts the workers' undos reported undoing;
- the final state equals a serial replay of the history (`_reliability.replay`:
  every entry saw the state the previous one left), and the file is what the
  newest standing entry wrote.

Each worker command counts toward "concurrent commands checked against a serial replay".
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from _cli import ok, run
from _reliability import (
    FUZZ_LONG,
    REPO,
    as_replayed,
    check_answer,
    count,
    file_matches_last_entry,
    lock_held_elsewhere,
    replay,
    snapshot,
    status_and_log,
    subprocess_env,
    tank_and_other,
)

WORKERS = 4
COMMANDS_PER_WORKER = 500 if FUZZ_LONG else 100

SETUP = (
    tank_and_other("Stress")
    + """
[[creature]]
name = "Third"
load_buffer = 2
exhaustion = 0
load = -2
evasion = 3
aspects = { Might = 900, Wits = 900 }
"""
)

# Each worker imports d4cli once and calls d4cli.cli.main.main per command (like a shell loop of
# `d4cli ...` without paying interpreter start-up each time); it records argv, exit code, the
# JSON it printed and its error line.
WORKER = r"""
import io, json, os, random, sys, time
from d4cli.cli.main import main
out_path, seed, n, go = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
while not os.path.exists(go):  # all start together, once every worker has imported d4cli
    time.sleep(0.005)
commands = [
    ["act", "Tank", "Might", "--dc", "3"],
    ["act", "Tank", "Might", "--dc", "3"],
    ["act", "Other", "Wits", "--cost", "2"],
    ["act", "Third", "Might", "--target", "Other"],
    ["act", "Third", "Wits", "--target", "Tank", "--cost", "0"],
    ["team", "Other", "Third", "--adv", "--aspect", "Wits"],
    ["team", "Tank", "Third", "--dis", "--source", "heckling"],
    ["turn", "start"],
    ["turn", "start", "Third"],
    ["turn", "end"],
    ["exhaust", "Third", "1"],
    ["exhaust", "Third", "0"],
    ["undo"],
    ["undo"],
]
rng = random.Random(seed)
with open(out_path, "w") as results:
    for _ in range(n):
        argv = rng.choice(commands) + ["--json"]
        sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
        try:
            main(argv)
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1
        printed, said = sys.stdout.getvalue(), sys.stderr.getvalue()
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        results.write(json.dumps({"argv": argv, "code": code, "stdout": printed, "stderr": said, "at": time.time()}) + "\n")
"""

# Exit 2 answers that are the rules, not a failure, when others move the game under you.
EXPECTED_REFUSALS = ("nothing to undo", "no turn is running")


def act_key(entry: dict) -> tuple:
    """What identifies one act: who, the Loads around it, the dice, the total."""
    return (
        entry["actor"],
        entry["load_before"],
        entry["load_after"],
        tuple(entry["dice"]),
        entry["total"],
    )


@pytest.mark.slow
def test_four_processes_at_once_lose_nothing_and_replay_serially(tmp_path, reliability_figures):
    template = tmp_path / "setup.toml"
    template.write_text(SETUP)
    path = tmp_path / "encounter.toml"
    ok("init", "--from", str(template), file=path)
    start, _ = status_and_log(path)
    env = subprocess_env(D4CLI_FILE=str(path), D4CLI_LOCK_TIMEOUT="120", PYTHONPATH=str(REPO))
    outputs = [tmp_path / f"worker{number}.jsonl" for number in range(WORKERS)]
    go = tmp_path / "go"
    started = time.monotonic()
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                WORKER,
                str(out),
                str(1000 + number),
                str(COMMANDS_PER_WORKER),
                str(go),
            ],
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        for number, out in enumerate(outputs)
    ]
    time.sleep(0.5)  # let them import d4cli
    go.touch()
    for worker in workers:
        _, err = worker.communicate(timeout=600)
        assert worker.returncode == 0, err
    elapsed = time.monotonic() - started
    per_worker = [[json.loads(line) for line in out.read_text().splitlines()] for out in outputs]
    results = [result for rows in per_worker for result in rows]
    assert len(results) == WORKERS * COMMANDS_PER_WORKER
    # They really ran at once: some moment lies inside every worker's run.
    assert max(rows[0]["at"] for rows in per_worker) < min(rows[-1]["at"] for rows in per_worker)
    count(reliability_figures, "concurrent commands checked against a serial replay", len(results))

    changes = undos = 0
    acts_told, acts_undone = Counter(), Counter()
    for result in results:
        assert result["code"] in (0, 2, 3), result
        assert "Traceback" not in result["stderr"] and "internal error" not in result["stderr"], (
            result
        )
        if result["code"] == 2:
            assert any(text in result["stderr"] for text in EXPECTED_REFUSALS), result
            assert result["stdout"] == "", result
            continue
        if result["code"] != 0:
            continue
        printed = json.loads(result["stdout"])
        if result["argv"][0] == "undo":
            undos += 1
            if printed["undone"]["kind"] == "act":
                acts_undone[act_key(printed["undone"])] += 1
        elif printed.get("changed") is not False:  # a change that changed nothing is not logged
            changes += 1
            if result["argv"][0] == "act":
                acts_told[act_key(printed)] += 1

    final, entries = status_and_log(path)
    # Nothing lost: every change that said "done" stands unless an undo said it took it back.
    assert len(entries) - 1 == changes - undos, (len(entries), changes, undos)
    standing_acts = Counter(act_key(e) for e in entries if e["kind"] == "act")
    assert standing_acts == acts_told - acts_undone
    # The final state is the serial replay of the history, and the file is what its last entry wrote.
    assert replay(start, entries[1:]) == as_replayed(final)
    assert file_matches_last_entry(path, entries)
    assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
    assert changes > WORKERS * COMMANDS_PER_WORKER // 3  # the test did work, not just refusals
    print(
        f"{len(results)} commands from {WORKERS} processes in {elapsed:.2f} s; {changes} changes, {undos} undos"
    )


# --- stale and held locks ---------------------------------------------------------------------


@pytest.fixture
def duel(tmp_path) -> Path:
    path = tmp_path / "encounter.toml"
    ok("init", "--from", "duel", file=path)
    return path


def lock_of(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def test_a_leftover_lock_file_never_blocks(duel):
    """A .lock left by a dead process (with a dead PID in it, as PID-file locks write) is no lock."""
    lock_of(duel).write_text("999999\n")
    started = time.monotonic()
    ok("turn", "start", file=duel)
    assert time.monotonic() - started < 2


HOLD_THE_LOCK = """\
import sys, time
from pathlib import Path
from d4cli.store.lock import locked
with locked(Path(sys.argv[1])):
    print("locked", flush=True)
    time.sleep(120)
"""


@pytest.mark.slow
def test_a_lock_held_by_a_killed_process_never_blocks(duel):
    with lock_held_elsewhere(
        duel, HOLD_THE_LOCK, env=subprocess_env(PYTHONPATH=str(REPO))
    ) as holder:
        out = run("turn", "start", file=duel, env={"D4CLI_LOCK_TIMEOUT": "0.2"})
        assert out.exit_code == 2 and "another d4cli command" in out.stderr, str(out)  # really held
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
        started = time.monotonic()
        ok("turn", "start", file=duel)
        assert time.monotonic() - started < 2


@pytest.mark.parametrize(
    "argv",
    [["turn", "start"], ["act", "Sera", "Finesse"], ["undo"], ["init", "--force"]],
    ids=" ".join,
)
def test_a_lock_that_cannot_be_had_says_so_clearly(duel, argv):
    ok("exhaust", "Sera", "1", file=duel)  # something to undo
    before = snapshot(duel.parent)
    fd = os.open(lock_of(duel), os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # what another d4cli command holds while it changes the file
        started = time.monotonic()
        out = run(*argv, file=duel, env={"D4CLI_LOCK_TIMEOUT": "0.5"})
        waited = time.monotonic() - started
    finally:
        os.close(fd)
    check_answer(out)
    assert out.exit_code == 2, str(out)
    line = out.stderr.splitlines()[-1]
    assert "another d4cli command" in line and "D4CLI_LOCK_TIMEOUT" in line and str(duel) in line, (
        line
    )
    assert 0.45 <= waited < 3, waited
    assert snapshot(duel.parent) == before
    ok(*argv, file=duel)  # and once the lock is free, the same command goes through


@pytest.mark.parametrize("value", ["soon", "-1", "1e9", "nan", "inf"])
def test_a_bad_lock_timeout_is_named(duel, value):
    out = run("turn", "start", file=duel, env={"D4CLI_LOCK_TIMEOUT": value})
    check_answer(out)
    assert out.exit_code == 2 and "D4CLI_LOCK_TIMEOUT" in out.stderr, str(out)
