"""``d4cli play``'s history file: never a hang, never more readable than 0600, never a file
d4cli did not make (other text, the encounter file, its journal).

prompt_toolkit stops on an error of its history ("Press ENTER to continue"), so a
history path that cannot be read or appended to is one warning line and a session
that runs without saved history. Each case runs the real prompt in a pseudo-terminal.
"""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pytestmark = pytest.mark.slow  # a real terminal per case


def _env(history: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("D4CLI_")}
    env.update(
        NO_COLOR="1", TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="160", D4CLI_HISTORY=history
    )
    return env


def _session(tmp_path: Path, history: str) -> str:
    """Run ``play`` on a terminal: one command, then Ctrl-D. Everything it printed."""
    subprocess.run(
        [sys.executable, "-m", "d4cli", "init"],
        cwd=tmp_path,
        env=_env(history),
        check=True,
        capture_output=True,
    )
    child = pexpect.spawn(
        sys.executable,
        ["-m", "d4cli", "play"],
        cwd=str(tmp_path),
        env=_env(history),
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 160),
    )
    child.logfile_read = seen = io.StringIO()
    try:
        # The prompt comes, never prompt_toolkit's question, and commands run.
        assert child.expect_exact(["[not started] d4cli>", "Press ENTER"]) == 0, child.before
        child.sendline("status --json")
        assert child.expect_exact(['"round": 0', "Press ENTER"]) == 0, child.before
        child.expect_exact("d4cli>")
        child.sendline("add Aria --aspect Might=3 --note secret")
        assert child.expect_exact(["[not started] d4cli>", "Press ENTER"]) == 0, child.before
        child.sendline("exit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    return " ".join(seen.getvalue().split())  # a long warning wraps on the terminal


def _bad_paths(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "a folder").mkdir()
    (tmp_path / "a file").write_text("")
    os.mkfifo(tmp_path / "a fifo")
    (tmp_path / "elsewhere").write_text("")
    (tmp_path / "a link").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    return {
        "other text": str(tmp_path / "passwd"),
        "the encounter": str(tmp_path / "encounter.toml"),
        "its journal": str(tmp_path / "encounter.toml.journal"),
        "directory": str(tmp_path / "a folder"),
        "in /proc": "/proc/self/status",
        "new in /proc": "/proc/d4cli-history",
        "folder is a file": str(tmp_path / "a file" / "history"),
        "fifo": str(tmp_path / "a fifo"),
        "symlink": str(tmp_path / "a link"),
    }


@pytest.mark.parametrize(
    "case",
    [
        "directory",
        "in /proc",
        "new in /proc",
        "folder is a file",
        "fifo",
        "symlink",
        "other text",
        "the encounter",
        "its journal",
    ],
)
def test_a_history_that_cannot_be_used_is_one_warning_and_the_session_runs(
    tmp_path: Path, case: str
):
    history = _bad_paths(tmp_path)[case]
    seen = _session(tmp_path, history)
    assert seen.count("d4cli: warning: history") == 1
    assert "this session keeps no history" in seen
    assert (tmp_path / "elsewhere").read_text() == ""  # the symlink's target was never written
    assert (tmp_path / "passwd").read_text() == "root:x:0:0:root:/root:/bin/bash\n"
    assert "status --json" not in (tmp_path / "encounter.toml").read_text()
    assert "Aria" in (tmp_path / "encounter.toml").read_text()


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give the file away"
)
def test_a_history_of_another_user_is_not_used(tmp_path: Path):
    history = tmp_path / "history"
    history.write_text("")
    os.chown(history, 65534, 65534)
    seen = _session(tmp_path, str(history))
    assert "owned by another user" in seen
    assert history.read_text() == ""


def test_the_history_is_created_0600_and_a_wider_one_not_its_own_is_refused(tmp_path: Path):
    new = tmp_path / "new" / "history"
    _session(tmp_path, str(new))
    assert stat.S_IMODE(new.stat().st_mode) == 0o600
    assert "--note secret" in new.read_text()
    wide = tmp_path / "wide"
    wide.write_text("")
    wide.chmod(0o644)
    (tmp_path / "encounter.toml").unlink()
    seen = _session(tmp_path, str(wide))
    assert "others may read it (mode 644" in seen and "this session keeps no history" in seen
    assert stat.S_IMODE(wide.stat().st_mode) == 0o644 and wide.read_text() == ""
