"""In ``play`` on a terminal, ``approve N`` of a request the table changed under asks the GM:
no denies it, the seat reading what changed as the reason; yes carries it out. Piped, it is
refused as on the command line (exit 3, nothing written)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from _cli import files, ok

from d4cli.api.encounter import Tracker
from d4cli.api.front_ends import SeatAction, SeatDesk, Seats


def _env(tmp_path: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("D4CLI_")}
    env.update(NO_COLOR="1", D4CLI_HISTORY=str(tmp_path / "history"), COLUMNS="160")
    env.update(TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1")
    return env


def _sent(tmp_path: Path, count: int) -> Path:
    path = tmp_path / "encounter.toml"
    ok("init", "--from", "skirmish", file=path)
    token = Seats(path).add("Aria").token
    for _ in range(count):
        SeatDesk(Tracker(path)).submit(token, SeatAction("Finesse", target="Goblin Archer"))
    ok("damage", "Goblin Archer", "7", file=path)
    return path


def test_piped_approve_of_a_changed_request_is_refused_and_writes_nothing(tmp_path: Path):
    path = _sent(tmp_path, 1)
    before = files(path)
    done = subprocess.run(
        [sys.executable, "-m", "d4cli", "play"],
        input="approve 1\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(tmp_path),
        timeout=60,
    )
    assert done.returncode == 3, done.stderr
    assert "Goblin Archer is down now (R18)" in done.stderr
    assert files(path) == before


@pytest.mark.slow
def test_play_asks_and_no_denies_with_what_changed_and_yes_carries_it_out(tmp_path: Path):
    pexpect = pytest.importorskip("pexpect")
    path = _sent(tmp_path, 2)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "d4cli", "play"],
        cwd=str(tmp_path),
        env=_env(tmp_path),
        encoding="utf-8",
        timeout=20,
        dimensions=(50, 200),
    )
    try:
        child.expect_exact("d4cli>")
        child.sendline("approve 1")
        child.expect_exact("Carry it out anyway? [y/N]")
        child.sendline("n")
        child.expect("denied")
        child.expect_exact("d4cli>")
        child.sendline("approve 2 --seed 3")
        child.expect_exact("Carry it out anyway? [y/N]")
        child.sendline("y")
        child.expect("request 2")
        child.expect_exact("d4cli>")
        child.sendcontrol("d")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    rows = {row.number: row for row in SeatDesk(Tracker(path)).all()}
    assert rows[1].status == "denied"
    assert rows[1].reason == (
        "the table changed since you sent it: Goblin Archer is down now (R18)"
    )
    assert rows[2].status == "approved"
