"""JSON Lines stop at a line boundary: Ctrl-C (exit 130), a reader that goes away (exit 0)
and a stdout closed before the start (stops at once, exit 0) never leave a torn line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from _reliability import interrupted

from d4cli.cli.app import app

RUNS = {
    "fast path": ["roll", "pool", "5", "--times", "1000000", "--json", "--dc", "10"],
    "general path": ["roll", "pool", "5", "--times", "1000000", "--json", "--extra", "1d4"],
    "check": ["roll", "check", "--advantage", "2", "--times", "1000000", "--json", "--dc", "12"],
}


pytestmark = pytest.mark.slow  # real processes, signals and pipes


def whole_lines(out: bytes) -> list[dict]:
    assert out and out.endswith(b"\n"), out[-200:]
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize("run", sorted(RUNS))
def test_ctrl_c_mid_stream_leaves_whole_lines_and_exit_130(tmp_path: Path, run: str):
    # The pipe is not read until the signal: the writer is blocked inside a write when it comes.
    code, out, err = interrupted(RUNS[run], after=1.5, cwd=tmp_path)
    assert code == 130, err
    assert b"Traceback" not in err
    objects = whole_lines(out)
    assert 1 <= len(objects) < 1_000_000


@pytest.mark.parametrize("run", sorted(RUNS))
def test_a_reader_that_goes_away_mid_line_ends_quietly(tmp_path: Path, run: str):
    script = Path(sys.executable).parent / "d4cli"
    with subprocess.Popen(
        [str(script), *RUNS[run]], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.read(100_001)  # stops in the middle of some line
        process.stdout.close()
        err = process.stderr.read()
        assert process.wait(timeout=60) == 0, err
    assert err == b""


@pytest.mark.parametrize("run", sorted(RUNS))
def test_a_closed_stdout_ends_a_times_run_at_once(monkeypatch: pytest.MonkeyPatch, run: str):
    import d4cli.rules.action_roll as action_roll
    import d4cli.rules.pool as pool

    rolls = []
    for module, name in ((pool, "roll_pool"), (action_roll, "roll_check")):
        real = getattr(module, name)
        monkeypatch.setattr(
            module, name, lambda *a, _real=real, **k: rolls.append(1) or _real(*a, **k)
        )
    monkeypatch.setattr(sys, "stdout", None)  # what Python makes of `d4cli ... >&-`
    code = typer.main.get_command(app).run(RUNS[run], prog_name="d4cli")
    sys.stdout.close()  # the stand-in the shell opened on the null device
    assert code == 0
    assert len(rolls) <= 2  # not a million


def test_a_closed_stdout_in_a_real_shell(tmp_path: Path):
    script = Path(sys.executable).parent / "d4cli"
    done = subprocess.run(
        ["bash", "-c", f'"{script}" roll pool 5 --times 1000000 --json --extra 1d4 >&-'],
        capture_output=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0 and done.stderr == b""


def test_an_ignored_sigint_stays_ignored(tmp_path: Path):
    # A job started in the background (SIGINT ignored) is not stopped by a Ctrl-C meant for the shell.
    script = Path(sys.executable).parent / "d4cli"
    process = subprocess.Popen(
        [str(script), "roll", "pool", "3", "--times", "20000", "--json", "--extra", "1d4"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    os.kill(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert len(whole_lines(out)) == 20000
