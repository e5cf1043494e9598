"""``d4cli play`` at the table: a finished word gets its space, a script's failure names its line,
errors say ``help`` and ``COMMAND --help``, ``clear``, and Ctrl-C leaves the prompt on a fresh line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

D4 = [sys.executable, "-m", "d4cli"]


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("D4CLI_")}
    env.update(NO_COLOR="1", D4CLI_HISTORY=str(tmp_path / "history"), TERM="dumb", COLUMNS="160")
    env.update(extra)
    return env


def _play(tmp_path: Path, script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        D4 + ["play"],
        input=script,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(tmp_path),
        timeout=60,
    )


def test_a_failing_script_names_its_line_number_and_text(tmp_path: Path) -> None:
    done = _play(
        tmp_path, "init --from skirmish\n\n# a comment\nturn start\nact Ari   Might\nturn end\n"
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines[-1] == "d4cli: play: stopped at line 5 (exit 2): act Ari   Might"
    assert "no such creature" in lines[-2]
    refused = _play(tmp_path, "act Borin Might --cost 9\n")
    assert refused.returncode == 3
    assert (
        refused.stderr.strip().splitlines()[-1]
        == "d4cli: play: stopped at line 1 (exit 3): act Borin Might --cost 9"
    )


def test_errors_inside_the_session_say_help_never_d4cli(tmp_path: Path) -> None:
    done = _play(tmp_path, "act Aria\n")
    assert done.stderr.splitlines()[:2] == [
        "Usage: act [OPTIONS] {NAME} {ASPECT|ACTION}",
        "Try 'act --help' for help.",
    ]
    unknown = _play(tmp_path, "rol pool 3\n")
    assert unknown.stderr.splitlines()[0] == "Try 'help' for help."
    assert "Did you mean 'roll'?" in unknown.stderr
    missing = _play(tmp_path, "turn end\n")
    assert "create it with 'init'" in missing.stderr
    for result in (done, unknown, missing):
        assert "d4cli --help" not in result.stderr and "'d4cli " not in result.stderr
    # Outside a session the shell still says d4cli.
    outside = subprocess.run(
        D4 + ["act", "Aria"], capture_output=True, text=True, cwd=tmp_path, env=_env(tmp_path)
    )
    assert "Try 'd4cli act --help' for help." in outside.stderr


def test_clear_is_a_session_word(tmp_path: Path) -> None:
    done = _play(tmp_path, "clear\nroll pool 3 --seed 1 --quiet\n")
    assert done.returncode == 0 and done.stdout.strip().isdigit()  # piped: nothing to clear
    assert "\x1b" not in done.stdout
    from d4cli.cli.play_help import help_lines

    shown = "\n".join(help_lines(80))
    assert "clear the screen" in shown and "'COMMAND --help'" in shown


def test_a_unique_completion_ends_with_a_space(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from d4cli.cli.play_prompt import SessionCompleter
    from d4cli.cli.play_session import Session

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("D4CLI_FILE", str(tmp_path / "encounter.toml"))
    assert _play(tmp_path, "init --from skirmish\n").returncode == 0
    completer = SessionCompleter(Session(None).root)

    def texts(line: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(line), CompleteEvent())]

    assert texts("act Ar") == ["Aria "]
    assert texts("act Aria Fi") == ["Finesse "]
    assert texts('act Aria Finesse --target "Goblin A') == ['"Goblin Archer" ']
    assert sorted(texts("act Goblin")) == ['"Goblin Archer"', '"Goblin Brute"']  # several: no space
    assert texts("roll pool 3 --dc=ha") == ["--dc=hard "]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_in_a_terminal_tab_spaces_and_ctrl_c_leaves_a_fresh_line(tmp_path: Path) -> None:
    assert _play(tmp_path, "init --from skirmish\n").returncode == 0
    name = f"d4play{os.getpid()}"
    command = f"cd {tmp_path} && D4CLI_HISTORY={tmp_path / 'history'} NO_COLOR=1 {sys.executable} -m d4cli play"
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", name, "-x", "100", "-y", "30", command], check=True
    )

    def screen() -> list[str]:
        out = subprocess.run(
            ["tmux", "capture-pane", "-t", name, "-p"], capture_output=True, text=True
        ).stdout
        return [line for line in out.splitlines() if line.strip()]

    def wait_for(text: str) -> list[str]:
        for _ in range(100):
            lines = screen()
            if lines and text in lines[-1]:
                return lines
            time.sleep(0.1)
        raise AssertionError(screen())

    def keys(*words: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", name, *words], check=True)

    try:
        wait_for("d4cli>")
        keys("roll pool 3 --times 1000000", "Enter")
        time.sleep(1.0)
        keys("C-c")
        lines = wait_for("[not started] d4cli>")
        assert lines[-2] == "d4cli: interrupted: nothing was saved" and lines[-1].startswith(
            "[not started] d4cli>"
        )
        keys("act Ar", "Tab")
        time.sleep(0.5)
        keys("Fi", "Tab")
        time.sleep(0.5)
        assert screen()[-1].rstrip() == "[not started] d4cli> act Aria Finesse"
        keys("C-u", "clear", "Enter")
        time.sleep(0.5)
        assert len(screen()) == 1 and screen()[0].startswith("[not started] d4cli>")
        keys("C-d")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
