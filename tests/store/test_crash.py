"""Crash tests: SIGKILL at random points inside changes; full disks and read-only folders.

After every kill the encounter file loads, it is byte-for-byte the file the
newest standing change wrote, and the history agrees with it: the Load delta
equals the Costs of the standing ``act`` entries, and a serial replay of the
log gives the state the file holds.

Two ways to kill: (1) a forked copy of this process (d4cli already imported)
runs changes in a loop through ``d4cli.cli.main.main`` and is SIGKILLed after a
random delay, which lands kills all over a change: while the journal entry
is being written, between the entry and the file, inside ``os.replace``'s
neighbourhood, during the fsyncs; (2) real ``python -m d4cli act`` processes
killed at random delays. Figures: "kills survived", and "kills inside a
change" (the kill left an unfinished journal entry or a temp file behind).
"""

from __future__ import annotations

import errno
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _cli import ok, run
from _reliability import (
    FUZZ_LONG,
    REPO,
    as_replayed,
    count,
    file_matches_last_entry,
    raw_journal,
    replay,
    snapshot,
    status_and_log,
    subprocess_env,
    tank_and_other,
)

# Crashes: processes killed inside changes, and every write step made to fail.
pytestmark = pytest.mark.slow

FORK_KILLS = 1500 if FUZZ_LONG else 150
PROCESS_KILLS = 150 if FUZZ_LONG else 12

SETUP = tank_and_other("Crash test")


def new_encounter(folder: Path) -> tuple[Path, dict]:
    """A fresh encounter (Tank: Might 1000, Load 0, Buffer 0) made by `init --from`; its status."""
    template = folder / "setup.toml"
    template.write_text(SETUP)
    path = folder / "encounter.toml"
    ok("init", "--force", "--from", str(template), file=path)
    status, _ = status_and_log(path)
    return path, status


def note_where_the_kill_came(path: Path, entries: list[dict], figures: dict) -> None:
    """Count a kill that came inside a change: it left an unfinished journal entry or a temp file.

    A temp file (``.encounter.toml.XXXX.tmp``) is left when the kill comes between
    ``mkstemp`` and ``os.replace``; nothing reads it, and it is removed here so the
    next kill is judged on its own (RELIABILITY.md notes it).
    """
    temps = [name for name in os.listdir(path.parent) if name.endswith(".tmp")]
    lines = raw_journal(path)
    unfinished = bool(lines) and (
        not lines[-1].endswith(b"\n") or f'"seq":{entries[-1]["seq"]},'.encode() not in lines[-1]
    )
    if temps or unfinished:
        count(figures, "kills inside a change")
    if unfinished:
        count(figures, "kills between the journal entry and the file")
    if temps:
        count(figures, "temp files left by a kill")
    for name in temps:
        os.unlink(path.parent / name)


def check_consistent(path: Path, start: dict | None) -> tuple[dict, list[dict]]:
    """The file loads, is what the newest standing change wrote, and a replay of the log from
    *start* (the status right after the init; None: a new init, no replay) gives it."""
    status, entries = status_and_log(path)
    assert entries[0]["kind"] == "init"
    assert file_matches_last_entry(path, entries), (
        "the file is not what the newest standing change wrote"
    )
    first = entries[0]["seq"]
    assert [e["seq"] for e in entries] == list(range(first, first + len(entries)))
    if start is not None:
        assert replay(start, entries[1:]) == as_replayed(status)
    return status, entries


def tank_load_agrees(status: dict, entries: list[dict]) -> None:
    """Load delta = the Costs of Tank's standing acts (Tank never starts a turn: nothing resets it)."""
    tank = next(c for c in status["creatures"] if c["name"] == "Tank")
    costs = sum(e["cost"] for e in entries if e["kind"] in ("act", "team") and e["actor"] == "Tank")
    assert tank["load"] == costs, (tank["load"], costs)


# --- kills of a forked worker -----------------------------------------------------------------

ACTS_ONLY = [["act", "Tank", "Might", "--dc", "3"]]
MIXED = [
    ["act", "Tank", "Might", "--dc", "3"],
    ["act", "Tank", "Might", "--cost", "2", "--target", "Other"],
    ["act", "Other", "Wits", "--cost", "0"],
    ["team", "Other", "Tank", "--adv", "--aspect", "Wits"],
    ["turn", "start", "Other"],
    ["turn", "end"],
    ["exhaust", "Other", "1"],
    ["undo"],
    ["undo"],
    ["redo"],
]


def _worker(path: Path, commands: list[list[str]], seed: int) -> None:
    """In the forked child: run random *commands* on *path* until killed. Never returns."""
    try:
        with open(os.devnull, "w") as devnull:
            sys.stdout = sys.stderr = devnull
            os.dup2(devnull.fileno(), 1)
            os.dup2(devnull.fileno(), 2)
            os.environ["D4CLI_FILE"] = str(path)
            from d4cli.cli.main import main

            rng = random.Random(seed)
            for number in range(100_000):
                argv = [
                    *rng.choice(commands),
                    "--json",
                ]  # JSON: less time rendering, more in the write
                try:
                    main(
                        [*argv, "--seed", str(number)]
                        if argv[0] == "act" and rng.random() < 0.5
                        else argv
                    )
                except SystemExit:
                    pass
    finally:
        os._exit(0)


def _wait_for_size_change(path: Path, size: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.stat().st_size != size:
            return
        time.sleep(0.0001)


def kill_loop(
    folder: Path, commands: list[list[str]], kills: int, figures: dict, *, tank_check: bool
) -> None:
    rng = random.Random(os.environ.get("D4CLI_CRASH_SEED", random.randrange(10**9)))
    path, start = new_encounter(folder)
    for number in range(kills):
        if number % 50 == 49:
            path, start = new_encounter(folder)  # keeps the history short, so checks stay fast
        journal = path.with_name(path.name + ".journal")
        size = journal.stat().st_size
        pid = os.fork()
        if pid == 0:
            _worker(path, commands, rng.randrange(10**9))
        if rng.random() < 0.5:
            time.sleep(rng.uniform(0, 0.05))  # anywhere in the run of changes
        else:
            # Aimed: the moment the journal moves, a change is writing; kill within 3 ms of it.
            _wait_for_size_change(journal, size, timeout=0.5)
            time.sleep(rng.uniform(0, 0.003))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        count(figures, "kills survived")
        status, entries = check_consistent(path, start)
        note_where_the_kill_came(path, entries, figures)
        if tank_check:
            tank_load_agrees(status, entries)
        # The next change after a kill goes through at once (the dead worker's lock is gone).
        started = time.monotonic()
        ok("act", "Other", "Wits", "--cost", "0", "--json", file=path)
        assert time.monotonic() - started < 3


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_sigkill_inside_acts_leaves_old_or_new_and_the_log_agrees(tmp_path, reliability_figures):
    """Acts only: after each kill the Load delta / Cost equals the number of standing act entries."""
    kill_loop(tmp_path, ACTS_ONLY, FORK_KILLS, reliability_figures, tank_check=True)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_sigkill_inside_mixed_changes_and_undos_replays_serially(tmp_path, reliability_figures):
    """Acts, Team Actions, turns, Exhaustion, undos and redos: after each kill the log replays to the file."""
    kill_loop(tmp_path, MIXED, FORK_KILLS, reliability_figures, tank_check=True)


def test_sigkill_real_d4cli_processes(tmp_path, reliability_figures):
    """Real `python -m d4cli act` processes, killed at random delays around their write."""
    path, start = new_encounter(tmp_path)
    env = subprocess_env(D4CLI_FILE=str(path), PYTHONPATH=str(REPO))
    argv = [sys.executable, "-m", "d4cli", "act", "Tank", "Might", "--dc", "3"]
    started = time.monotonic()
    subprocess.run(argv, env=env, check=True, capture_output=True, timeout=30)
    whole_run = time.monotonic() - started
    rng = random.Random()
    for _ in range(PROCESS_KILLS):
        process = subprocess.Popen(
            argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(rng.uniform(0.3, 1.0) * whole_run)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        count(reliability_figures, "kills survived")
        status, entries = check_consistent(path, start)
        tank_load_agrees(status, entries)
        note_where_the_kill_came(path, entries, reliability_figures)


# --- a full disk, a read-only folder: every write step fails in turn ---------------------------

FAULTS = ("open", "write", "fsync", "replace", "ftruncate", "fchmod", "lseek", "pread")
ERRNOS = (errno.ENOSPC, errno.EROFS, errno.EIO, errno.EDQUOT, errno.EACCES)


class FaultInjector:
    """Wraps the os calls a change makes; the *fail_at*-th call (1-based) raises OSError(*code*)."""

    def __init__(self, monkeypatch, fail_at: int | None, code: int = errno.ENOSPC) -> None:
        self.calls: list[str] = []
        self.fail_at = fail_at
        self.code = code
        self.failed: str | None = None
        for name in FAULTS:
            real = getattr(os, name)
            monkeypatch.setattr(os, name, self._wrap(name, real))

    def _wrap(self, name, real):
        def wrapper(*args, **kwargs):
            self.calls.append(name)
            if self.fail_at is not None and len(self.calls) == self.fail_at:
                self.failed = name
                raise OSError(self.code, os.strerror(self.code))
            return real(*args, **kwargs)

        return wrapper


WRITE_COMMANDS = [
    ["act", "Tank", "Might", "--seed", "1", "--target", "Other"],
    ["turn", "start"],
    ["turn", "end"],
    ["add", "Newcomer", "--aspect", "Might=2"],
    ["remove", "Other"],
    ["exhaust", "Other", "2"],
    ["team", "Other", "Tank", "--adv"],
    ["check", "Tank", "--dc", "3", "--seed", "1"],
    ["damage", "Other", "1"],
    ["move", "Other", "--first"],
    ["effect", "add", "Tank", "blessed", "--adv", "--rounds", "1"],
    ["action", "add", "Tank", "slam", "--aspect", "Might"],
    ["undo"],
    ["redo"],
    ["init", "--force", "--from", "duel"],
]


def restore(folder: Path, files: dict[str, bytes]) -> None:
    """Put *folder* back to *files* (its lock file stays, as it would between two commands)."""
    for item in folder.iterdir():
        if not item.name.endswith(".lock"):
            item.unlink()
    for name, data in files.items():
        (folder / name).write_bytes(data)


@pytest.mark.parametrize("argv", WRITE_COMMANDS, ids=" ".join)
def test_every_failing_write_step_leaves_old_or_new(
    tmp_path, monkeypatch, argv, reliability_figures
):
    """ENOSPC, EROFS, EIO, EDQUOT, EACCES at each os call of the change in turn (you are root: chmod
    stops nothing, so the failures are injected). Either exit 2 with one line naming the error and
    every file as it was, or (a failed best-effort fsync of the folder after the rename) exit 0
    with the new state, consistent with its history. Never exit 1."""
    path, start = new_encounter(tmp_path)
    ok("turn", "start", "Tank", file=path)
    ok("team", "Other", "Tank", "--dis", "--aspect", "Wits", "--source", "tripped", file=path)
    if argv == ["redo"]:
        ok("undo", file=path)  # something to redo
    pristine = snapshot(tmp_path)
    with monkeypatch.context() as patch:
        counter = FaultInjector(patch, None)
        ok(*argv, file=path)
    steps = len(counter.calls)
    assert steps >= 5, counter.calls  # lock, journal, temp file, fsyncs, rename at the least
    outcomes = {0: 0, 2: 0}
    for step in range(1, steps + 1):
        restore(tmp_path, pristine)
        code = ERRNOS[step % len(ERRNOS)]
        with monkeypatch.context() as patch:
            fault = FaultInjector(patch, step, code)
            out = run(*argv, file=path)
        count(reliability_figures, "failed writes checked")
        assert out.exit_code in (0, 2), f"fault in {fault.failed} #{step}: {out}"
        outcomes[out.exit_code] += 1
        leftovers = [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]
        assert not leftovers, f"fault in {fault.failed} #{step}: temp file left {leftovers}"
        if out.exit_code == 2:
            assert out.stdout == ""
            lines = out.stderr.splitlines()
            assert len(lines) == 1 and lines[0].startswith("d4cli: error: "), (
                f"fault in {fault.failed}: {out}"
            )
            assert os.strerror(code) in lines[0], f"fault in {fault.failed}: {out}"
            assert snapshot(tmp_path) == pristine, (
                f"fault in {fault.failed} #{step} changed the files: {out}"
            )
        else:
            check_consistent(path, None if argv[0] == "init" else start)
            assert snapshot(tmp_path) != pristine
    # Any fault up to the rename must fail the command: most steps come before it.
    assert outcomes[2] >= steps // 2, outcomes
    if "replace" in counter.calls:
        restore(tmp_path, pristine)
        with monkeypatch.context() as patch:
            fault = FaultInjector(patch, counter.calls.index("replace") + 1, errno.ENOSPC)
            out = run(*argv, file=path)
        assert fault.failed == "replace"
        assert out.exit_code == 2 and "No space left on device" in out.stderr, str(out)
        assert snapshot(tmp_path) == pristine
