"""``d4cli board``: one frame in a pipe (``--once``), pinned at 80 and 120 columns; the live board in tmux.

conftest's autouse fixture points D4CLI_FILE at a temp folder and chdirs there.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from _cli import fails, ok, run

FILE = Path("encounter.toml")
# What the GM hides in `_hidden_skirmish`: none of it may reach a player's screen.
SECRETS = ("Goblin Brute", "Goblin Archer", "cursed", "a hidden foe")


def _hidden_skirmish() -> None:
    """The skirmish with one foe hidden, one aliased, one GM-only effect and a note."""
    ok("init", "--from", "skirmish")
    ok("conceal", "Goblin Brute")
    ok("alias", "Goblin Archer", "Goblin 2")
    ok("effect", "add", "Borin", "cursed", "--dis", "--gm-only")
    ok("effect", "add", "Aria", "blessed", "--adv", "--rounds", "2")
    ok("turn", "start")
    ok("damage", "Goblin Archer", "3", "--note", "a hidden foe watches")


def _frame(*args: str, columns: int = 80) -> str:
    result = run("board", *args, "--once", env={"COLUMNS": str(columns), "LINES": "24"})
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("columns", [80, 120])
def test_players_board_once_shows_the_projection_only(snapshot, columns: int):
    _hidden_skirmish()
    text = _frame("--players", columns=columns)
    assert text == snapshot
    for secret in SECRETS:
        assert secret not in text
    assert "Goblin 2" in text and "Hurt" in text and "blessed" in text
    lines = text.splitlines()
    assert len(lines) <= 24 and max(len(line) for line in lines) <= columns


@pytest.mark.parametrize("columns", [80, 120])
def test_gm_board_once_shows_everything_and_the_log(snapshot, columns: int):
    _hidden_skirmish()
    text = _frame(columns=columns)
    assert text == snapshot
    assert (
        "Goblin Brute (hidden)" in text
        and "Goblin Archer as Goblin 2" in text
        and "cursed -1d4 (GM only)" in text
    )
    lines = text.splitlines()
    assert len(lines) <= 24 and max(len(line) for line in lines) <= columns


def test_board_once_on_a_bad_file_is_one_line_and_exit_2():
    FILE.write_text("schema_version = 3\nmode = 'turn'\nround = 'x'\n")
    line = fails(2, FILE, "board", "--once")
    assert "round" in line and "'x'" in line
    fails(2, FILE, "board", "--players", "--once")


# --- the live board in a real terminal (tmux) ---------------------------------------------------


def _tmux(socket: str, *args: str) -> str:
    done = subprocess.run(
        ["tmux", "-L", socket, *args], capture_output=True, text=True, timeout=10, check=False
    )
    return done.stdout


def _wait_for(socket: str, pattern: str, timeout: float = 5.0) -> tuple[str, float]:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        screen = _tmux(socket, "capture-pane", "-p", "-t", "board")
        if re.search(pattern, screen):
            return screen, time.monotonic() - start
        time.sleep(0.05)
    raise AssertionError(f"{pattern!r} not on the screen:\n{screen}")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.parametrize(("key", "code"), [("q", 0), ("C-c", 130), ("C-\\", 131)])
def test_live_board_redraws_on_a_change_and_quits_cleanly(tmp_path: Path, key: str, code: int):
    _hidden_skirmish()
    socket = f"d4cli-test-{uuid.uuid4().hex[:8]}"
    d4cli = Path(sys.executable).parent / "d4cli"
    env = f"cd {tmp_path} && export D4CLI_FILE={tmp_path / 'encounter.toml'} NO_COLOR=1 TERM=xterm-256color"
    try:
        _tmux(
            socket,
            "new-session",
            "-d",
            "-s",
            "board",
            "-x",
            "80",
            "-y",
            "24",
            "bash",
            "--norc",
            "--noprofile",
        )
        _tmux(
            socket,
            "send-keys",
            "-t",
            "board",
            f"{env}; clear; {d4cli} board --players; echo EXIT=$?",
            "Enter",
        )
        screen, _ = _wait_for(socket, r"Goblin 2 +Hurt")
        assert not any(secret in screen for secret in SECRETS)
        subprocess.run(
            [str(d4cli), "damage", "Goblin Archer", "9"],
            cwd=tmp_path,
            check=True,
            capture_output=True,
            env={**os.environ, "D4CLI_FILE": str(tmp_path / "encounter.toml")},
        )
        screen, waited = _wait_for(socket, r"Goblin 2 +Down")
        assert (
            waited < 1.0
        )  # polled at 5 Hz: drawn well within half a second, plus the capture's own time
        _tmux(socket, "send-keys", "-t", "board", key)
        screen, _ = _wait_for(socket, rf"EXIT={code}")
        assert "Goblin 2" not in screen  # the alternate screen is gone: the shell's screen is back
        # The terminal is left in its normal mode: a typed line echoes again.
        _tmux(socket, "send-keys", "-t", "board", "echo typed-back", "Enter")
        _wait_for(socket, r"echo typed-back\s*\ntyped-back")
    finally:
        _tmux(socket, "kill-server")


def test_board_json_is_the_projection_with_players_else_the_status():
    _hidden_skirmish()
    view = run("board", "--players", "--json")
    assert view.exit_code == 0
    obj = view.json()
    assert obj["kind"] == "player-view" and [c["name"] for c in obj["creatures"]] == [
        "Aria",
        "Borin",
        "Goblin 2",
    ]
    assert not any(secret in view.stdout for secret in SECRETS)
    status = run("board", "--json").json()
    assert [c["name"] for c in status["creatures"]][-1] == "Goblin Brute" and status["creatures"][
        -1
    ]["hidden"] is True


def test_board_at_seq_shows_the_encounter_as_it_stood_then():
    _hidden_skirmish()
    seq = [
        entry["seq"]
        for entry in run("log", "--json").json()["entries"]
        if entry["kind"] == "conceal"
    ][0]
    then = run("board", "--players", "--at", str(seq), "--json").json()
    assert [c["name"] for c in then["creatures"]] == [
        "Aria",
        "Borin",
        "Goblin 2",
    ]  # the alias set later hides the real name from the players' replay too
    text = run("board", "--at", str(seq), "--once", env={"COLUMNS": "80"}).stdout
    assert "Goblin Brute (hidden)" in text and "Goblin 2" not in text
    assert "--at" in fails(2, FILE, "board", "--at", "999")
