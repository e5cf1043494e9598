"""Output never turns a finished command into a failure: any encoding, any error handler, a
reader that went away, a device that is full. Every output command, help and version included,
runs in a real process with real pipes (CliRunner's streams cannot be closed or mis-encoded)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Every output command in a real process, under each encoding that cannot hold a name, into closed and full pipes.
pytestmark = pytest.mark.slow

# Encodings and handlers that cannot hold "ë": each must end in an escape, never an error.
ENCODINGS = {
    "ascii": {"PYTHONIOENCODING": "ascii", "LC_ALL": "C.UTF-8"},
    "ascii:surrogateescape": {"PYTHONIOENCODING": "ascii:surrogateescape", "LC_ALL": "C.UTF-8"},
    "C locale, no UTF-8 mode": {"LC_ALL": "C", "PYTHONUTF8": "0"},
}

# Every command that prints (ASCII arguments: under the C locale argv cannot carry "ë",
# and the names come from the file instead). Run in this order on one encounter.
OUTPUT_COMMANDS: list[list[str]] = [
    ["--help"],
    ["--version"],
    ["roll", "--help"],
    ["act", "--help"],
    ["help"],
    ["help", "gate"],
    ["help", "R14"],
    ["help", "--json", "r14"],
    ["roll", "pool", "4", "--seed", "1", "--adv", "torch"],
    ["roll", "pool", "4", "--seed", "1", "--json"],
    ["roll", "pool", "3", "--dc", "8", "--odds", "--seed", "1"],
    ["roll", "check", "--dc", "hard", "--seed", "1", "--rule-of-three"],
    ["roll", "pool", "2", "--times", "3", "--seed", "1"],
    ["odds", "pool", "--aspect", "1..3", "--dc", "4..6"],
    ["odds", "damage", "--aspect", "1..2", "--evasion", "0..2"],
    ["odds", "check", "--dc", "10..12"],
    [
        "odds",
        "compare",
        "--aspect",
        "1..2",
        "--modifier",
        "0..1",
        "--dc",
        "4..6",
        "--format",
        "markdown",
    ],
    ["status"],
    ["status", "--json"],
    ["turn", "start"],
    ["act", "Bram", "Might", "--dc", "1", "--seed", "1"],
    ["act", "Bram", "Might", "--dry-run", "--odds", "--dc", "3", "--seed", "1"],
    ["team", "Cora", "Bram", "--adv"],
    ["exhaust", "Bram", "1"],
    ["turn", "end"],
    ["log"],
    ["log", "--json"],
    ["undo"],
    ["remove", "Cora"],
    ["add", "Dana", "--aspect", "Wits=2", "--json"],
    ["init", "--force", "--from", "duel"],
]


def env_with(tmp_path: Path, extra: dict[str, str]) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONIOENCODING", "PYTHONUTF8", "LANG", "LC_ALL", "LC_CTYPE")
    }
    env.update({"D4CLI_FILE": str(tmp_path / "encounter.toml"), "NO_COLOR": "1"})
    env.update(extra)
    return env


def d4(args: list[str], env: dict[str, str], **kwargs) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "d4cli", *args], env=env, check=False, **kwargs)


def make_encounter(tmp_path: Path) -> None:
    """Zoë (a name no ASCII stream can hold), Bram and Cora, written under UTF-8."""
    env = env_with(tmp_path, {"LC_ALL": "C.UTF-8"})
    for args in (
        ["init"],
        ["add", "Zoë", "--aspect", "Might=3", "--hp", "10"],
        ["add", "Bram", "--aspect", "Might=4", "--hp", "8"],
        ["add", "Cora", "--aspect", "Wits=2"],
    ):
        assert d4(args, env, capture_output=True).returncode == 0


def no_crash(result: subprocess.CompletedProcess[bytes], args: list[str]) -> str:
    stderr = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 0, (args, stderr)
    assert "Traceback" not in stderr and "internal error" not in stderr, (args, stderr)
    return stderr


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_every_output_command_survives_an_encoding_that_cannot_hold_a_name(tmp_path, name):
    make_encounter(tmp_path)
    env = env_with(tmp_path, ENCODINGS[name])
    for args in OUTPUT_COMMANDS:
        result = d4(args, env, capture_output=True)
        no_crash(result, args)
        text = result.stdout.decode("ascii")  # every byte written is ASCII
        assert text.strip(), args
        if args == ["status"]:
            assert "Zo\\xeb" in text  # escaped, not dropped
        if args == ["status", "--json"]:
            assert json.loads(text)["creatures"][0]["name"] == "Zoë"  # JSON escapes keep the name
        if args == ["log", "--json"]:
            assert "Zo\\u00eb" in text and len(json.loads(text)["entries"]) >= 4


def test_table_columns_stay_aligned_when_a_name_is_escaped(tmp_path):
    make_encounter(tmp_path)
    result = d4(["status"], env_with(tmp_path, ENCODINGS["ascii"]), capture_output=True)
    rows = [line for line in result.stdout.decode("ascii").splitlines() if line.startswith("|")]
    assert len({len(row) for row in rows}) == 1


def test_a_saved_act_is_not_reported_as_a_failure_under_ascii_surrogateescape(tmp_path):
    # The exact case: the act was saved, then printing "Zoë" crashed with exit 1.
    make_encounter(tmp_path)
    env = env_with(tmp_path, ENCODINGS["ascii:surrogateescape"])
    result = d4(["act", "Zoë", "Might", "--dc", "1", "--seed", "3"], env, capture_output=True)
    no_crash(result, ["act"])
    assert "Zo\\xeb" in result.stdout.decode("ascii")
    entries = json.loads(d4(["log", "--json"], env, capture_output=True).stdout)["entries"]
    assert [entry["kind"] for entry in entries].count("act") == 1


def test_a_closed_pipe_ends_every_command_with_exit_0(tmp_path):
    make_encounter(tmp_path)
    env = env_with(tmp_path, {"LC_ALL": "C.UTF-8"})
    for args in OUTPUT_COMMANDS:
        read, write = os.pipe()
        os.close(read)  # the reader is gone before the first byte
        try:
            result = d4(args, env, stdout=write, stderr=subprocess.PIPE)
        finally:
            os.close(write)
        assert result.returncode == 0, (args, result.stderr.decode())
        assert result.stderr == b"", args
        if args[0] == "act" and not {"--dry-run", "--help"} & set(args):
            # The change stands although nobody read its output.
            entries = json.loads(d4(["log", "--json"], env, capture_output=True).stdout)["entries"]
            assert entries[-1]["kind"] == "act", (args, [entry["kind"] for entry in entries])


def test_help_and_version_into_a_reader_that_quits_exit_0(tmp_path):
    make_encounter(tmp_path)
    env = env_with(tmp_path, {"LC_ALL": "C.UTF-8"})
    # `true` reads nothing and exits at once, long before Python has started (like `head -0`).
    script = f'"{sys.executable}" -m d4cli "$@" | true; exit ${{PIPESTATUS[0]}}'
    for args in (["--help"], ["--version"], ["roll", "--help"], ["help"], ["status"]):
        result = subprocess.run(
            ["bash", "-c", script, "d4", *args], env=env, capture_output=True, check=False
        )
        assert result.returncode == 0, (args, result.stderr)
        assert b"Traceback" not in result.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_lost_after_a_change_says_the_change_was_saved(tmp_path):
    make_encounter(tmp_path)
    env = env_with(tmp_path, {"LC_ALL": "C.UTF-8"})
    with open("/dev/full", "wb") as full:
        result = d4(
            ["act", "Bram", "Might", "--dc", "1", "--seed", "1"],
            env,
            stdout=full,
            stderr=subprocess.PIPE,
        )
    assert result.returncode == 1
    lines = result.stderr.decode().strip().splitlines()
    assert len(lines) == 1, lines
    assert (
        "No space left on device" in lines[0]
        and "was saved" in lines[0]
        and "internal" not in lines[0]
    )
    entries = json.loads(d4(["log", "--json"], env, capture_output=True).stdout)["entries"]
    assert entries[-1]["kind"] == "act"  # the change stands: repeating the command would act twice
