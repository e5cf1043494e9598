"""d4cli in pipes and scripts: colour, width, encoding, errors, streaming, --quiet.

Where a real pipe or terminal matters the tests run the program in a
subprocess (a pipe, or a pseudo-terminal); elsewhere they use CliRunner.
"""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from _cli import run

BOX = set("╭╮╰╯│─┃━┏┓┗┛┡┩╇┳┻")
SGR = re.compile(r"\x1b\[([0-9;]*)m")
LONG_NAME = "the torch of " + "very " * 30 + "long name"


def base_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("NO_COLOR", "FORCE_COLOR", "COLUMNS", "D4CLI_SEED", "PYTHONIOENCODING"):
        env.pop(name, None)
    env.update(extra)
    return env


def d4(
    *args: str, env: dict[str, str] | None = None, **kwargs
) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m d4cli ARGS`` with stdout and stderr as pipes."""
    return subprocess.run(
        [sys.executable, "-m", "d4cli", *args],
        env=env or base_env(),
        capture_output=True,
        **kwargs,
        check=False,
    )


def on_terminal(*args: str, env: dict[str, str]) -> bytes:
    """Run d4cli with stdout and stderr on a pseudo-terminal; everything it wrote."""
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.execve(sys.executable, [sys.executable, "-m", "d4cli", *args], env)
    out = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    os.close(fd)
    return out


def colour_codes(data: bytes) -> list[str]:
    """The SGR parameters that set a colour (bold, italic and reset are not colours)."""
    found = []
    for params in SGR.findall(data.decode("utf-8", "replace")):
        for part in params.split(";"):
            if part and (30 <= int(part) <= 49 or 90 <= int(part) <= 107):
                found.append(params)
    return found


# --- colour --------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ("roll", "pool", "4", "--adv", "torch", "--dc", "5", "--seed", "1"),
        ("roll", "check", "--attribute", "2", "--dc", "hard", "--seed", "1"),
        ("roll", "pool", "4", "--times", "50", "--seed", "1"),
        ("help", "gate"),
        ("help",),
    ],
)
def test_piped_output_has_no_escape_codes(args):
    result = d4(*args)
    assert result.returncode == 0
    assert result.stdout
    assert b"\x1b" not in result.stdout


@pytest.mark.slow
@pytest.mark.parametrize("extra", [{"NO_COLOR": "1", "FORCE_COLOR": "1"}, {"FORCE_COLOR": "1"}])
def test_a_pipe_never_gets_escape_codes(extra):
    result = d4("roll", "pool", "4", "--seed", "1", env=base_env(**extra))
    assert result.returncode == 0
    assert b"Pool roll" in result.stdout
    assert b"\x1b" not in result.stdout


@pytest.mark.slow
def test_terminal_has_colour_and_no_color_removes_it():
    env = base_env(TERM="xterm-256color")
    coloured = on_terminal("roll", "pool", "4", "--seed", "1", env=env)
    assert colour_codes(coloured), "the control run on a terminal should be coloured"
    plain = on_terminal(
        "roll", "pool", "4", "--seed", "1", env=dict(env, NO_COLOR="1", FORCE_COLOR="1")
    )
    assert b"Pool roll" in plain
    assert colour_codes(plain) == []


# --- width and encoding --------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("columns", [None, "80", "40"])
def test_long_name_stays_on_one_line_when_piped(columns):
    env = base_env(**({"COLUMNS": columns} if columns else {}))
    result = d4("roll", "pool", "4", "--adv", LONG_NAME, "--seed", "1", env=env)
    assert result.returncode == 0
    lines = result.stdout.decode().splitlines()
    assert any(LONG_NAME in line for line in lines), result.stdout.decode()


@pytest.mark.slow
def test_long_creature_name_stays_on_one_line_in_status(tmp_path: Path):
    pytest.importorskip("d4cli.store")
    path = tmp_path / "encounter.toml"
    name = "Goblin " + "Archer " * 20 + "the Last"
    env = base_env(D4CLI_FILE=str(path), COLUMNS="80")
    assert d4("init", env=env).returncode == 0
    assert d4("add", name, "--aspect", "Might=3", env=env).returncode == 0
    result = d4("status", env=env)
    assert result.returncode == 0
    assert any(name in line for line in result.stdout.decode().splitlines())


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ("roll", "pool", "4", "--adv", "Zoë's torch", "--seed", "1"),
        ("roll", "pool", "4", "--adv", "Zoë's torch", "--times", "20", "--seed", "1"),
        ("roll", "check", "--dc", "easy", "--seed", "1"),
        ("help", "gate"),
        ("roll", "pool", "Zoë"),  # an error message naming a non-ASCII value
    ],
)
def test_ascii_only_stdout_does_not_crash(args):
    result = d4(*args, env=base_env(PYTHONIOENCODING="ascii"))
    assert result.returncode == (2 if args == ("roll", "pool", "Zoë") else 0), result.stderr
    assert b"Traceback" not in result.stderr
    assert b"internal error" not in result.stderr
    result.stdout.decode("ascii")  # nothing but ASCII reached the pipe
    if "--adv" in args and "--times" not in args:
        assert b"Zo\\xeb's torch" in result.stdout


@pytest.mark.slow
def test_ascii_only_json_keeps_the_name():
    result = d4(
        "roll",
        "pool",
        "4",
        "--adv",
        "Zoë's torch",
        "--json",
        "--seed",
        "1",
        env=base_env(PYTHONIOENCODING="ascii"),
    )
    assert result.returncode == 0
    assert json.loads(result.stdout.decode("ascii"))["advantage"] == ["Zoë's torch"]


# --- usage errors --------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "names"),
    [
        (("roll",), "COMMAND"),
        (("roll", "pool"), "ASPECT"),
        (("roll", "pool", "4", "--load"), "--load"),
        (("roll", "pool", "x"), "ASPECT"),
        (("roll", "pool", "4", "--times", "0"), "--times"),
        (("roll", "check", "--dc", "impossible"), "--dc"),
        (("rol",), "rol"),
        (("help", "nope"), "TOPIC"),
    ],
)
def test_usage_errors_are_short_plain_text_on_stderr(args, names):
    result = d4(*args)
    assert result.returncode == 2
    assert result.stdout == b""
    err = result.stderr.decode()
    lines = err.splitlines()
    assert 1 <= len(lines) <= 4, err
    assert lines[-1].startswith("d4cli: error: ")
    assert names in lines[-1]
    assert not BOX & set(err), err
    assert "Traceback" not in err and "\x1b" not in err


def test_usage_error_through_clirunner_has_the_same_shape():
    result = run("roll", "pool", "4", "--cost", "-1")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines()[-1].startswith("d4cli: error: --cost")


# --- streaming and closed pipes ------------------------------------------------------------------


@pytest.mark.slow
def test_times_json_streams_each_roll_as_it_is_made():
    """The first JSON line arrives while the other 999,999 rolls are still to come."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "d4cli",
            "roll",
            "pool",
            "4",
            "--times",
            "1000000",
            "--json",
            "--seed",
            "7",
        ],
        env=base_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = json.loads(proc.stdout.readline())
    assert first["kind"] == "pool" and len(first["dice"]) == 4
    assert proc.poll() is None  # still rolling: the line was not held back to the end
    proc.stdout.close()  # the reader goes away, as `head -1` does
    code = proc.wait(timeout=120)
    err = proc.stderr.read()
    proc.stderr.close()
    assert code == 0
    assert err == b""


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        "roll pool 4 --times 1000000 --json",
        "roll pool 4 --times 200000",
        "roll pool 4 --times 200000 --quiet",
        "roll check --times 200000 --json",
        "roll pool 4",
        "help",
    ],
)
def test_head_closing_the_pipe_is_not_an_error(args):
    """`d4cli ... | head -1`: one line, exit 0 (pipefail), no BrokenPipe traceback."""
    command = f"set -o pipefail; '{sys.executable}' -m d4cli {args} | head -1"
    result = subprocess.run(
        ["bash", "-c", command], env=base_env(), capture_output=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr.decode()
    assert len(result.stdout.splitlines()) == 1
    assert result.stderr == b""


def _max_rss_kib(args: list[str]) -> int:
    proc = subprocess.Popen(
        [sys.executable, "-m", "d4cli", *args], env=base_env(), stdout=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0
    return usage.ru_maxrss


@pytest.mark.slow
def test_times_runs_in_constant_memory():
    """50 times more rolls, no more memory (each JSON object is written and dropped)."""
    small = _max_rss_kib(["roll", "pool", "4", "--adv", "torch", "--times", "1000", "--json"])
    large = _max_rss_kib(["roll", "pool", "4", "--adv", "torch", "--times", "50000", "--json"])
    assert large < small * 1.2, (small, large)
    table_small = _max_rss_kib(["roll", "pool", "4", "--times", "1000"])
    table_large = _max_rss_kib(["roll", "pool", "4", "--times", "50000"])
    assert table_large < table_small * 1.2, (table_small, table_large)


# --- --quiet -------------------------------------------------------------------------------------


def _json_lines(*args: str) -> list[dict]:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.parametrize(
    ("args", "key"),
    [
        (("roll", "pool", "4", "--seed", "11"), "total"),
        (("roll", "pool", "3", "--adv", "torch", "--extra", "1d8", "--seed", "5"), "total"),
        (("roll", "pool", "4", "--evasion", "3", "--seed", "2"), "damage"),
        (("roll", "check", "--attribute", "2", "--advantage", "1", "--seed", "3"), "total"),
        (("roll", "pool", "4", "--times", "5", "--seed", "4"), "total"),
    ],
)
def test_quiet_prints_only_the_essential_number(args, key):
    expected = [str(obj[key]) for obj in _json_lines(*args)]
    result = run(*args, "--quiet")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == expected
    assert all(re.fullmatch(r"-?\d+", line) for line in result.stdout.splitlines())


def test_quiet_refused_roll_prints_nothing_on_stdout():
    result = run("roll", "pool", "2", "--load", "1", "--cost", "2", "--quiet")
    assert result.exit_code == 3
    assert result.stdout == ""
    assert "refused" in result.stderr


# --- streams that cannot be written ----------------------------------------------------------------


@pytest.mark.slow
def test_closed_stdout_is_not_a_crash():
    result = subprocess.run(
        ["bash", "-c", f'"{sys.executable}" -m d4cli roll pool 3 --json >&-'],
        env=base_env(),
        capture_output=True,
        check=False,
    )
    assert result.returncode == 0
    assert b"Traceback" not in result.stderr


@pytest.mark.slow
def test_closed_stderr_keeps_exit_code_2():
    result = subprocess.run(
        ["bash", "-c", f'"{sys.executable}" -m d4cli roll pool abc 2>&-'],
        env=base_env(),
        capture_output=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stdout == b""


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_full_output_device_says_so_in_one_line():
    with open("/dev/full", "wb") as full:
        result = subprocess.run(
            [sys.executable, "-m", "d4cli", "roll", "pool", "3", "--json"],
            env=base_env(),
            stdout=full,
            stderr=subprocess.PIPE,
            check=False,
        )
    assert result.returncode == 1
    lines = result.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "No space left" in lines[0] and "internal" not in lines[0]


@pytest.mark.slow
@pytest.mark.parametrize("columns", ["20", "30", "60"])
def test_narrow_terminal_keeps_every_number(columns):
    """Below a table's width the rows become `Header: value` lines; nothing is cut short."""
    env = base_env(TERM="xterm", NO_COLOR="1", COLUMNS=columns)
    wide = d4("roll", "pool", "3", "--dc", "5", "--seed", "1", "--json")
    total = json.loads(wide.stdout)["total"]
    out = on_terminal("roll", "pool", "3", "--dc", "5", "--seed", "1", env=env).decode()
    # A squeezed cell may fold mid-word: compare with the layout taken out.
    squashed = re.sub(r"[\s│┃:]+", "", out)
    assert re.search(f"Total(Whathappened)?{total}", squashed)
    assert "success" in squashed
    assert "…" not in out


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_seat_added_onto_a_full_device_points_to_the_seat_list_not_the_log(tmp_path):
    """Seats are not in the journal: the line names ``seat list`` (F9), the seat is kept."""
    encounter = tmp_path / "encounter.toml"
    env = {**base_env(), "D4CLI_FILE": str(encounter)}
    subprocess.run(
        [sys.executable, "-m", "d4cli", "init"], env=env, check=True, capture_output=True
    )
    add = [sys.executable, "-m", "d4cli", "add", "Borin", "--aspect", "Might=2"]
    subprocess.run(add, env=env, check=True, capture_output=True)
    with open("/dev/full", "wb") as full:
        result = subprocess.run(
            [sys.executable, "-m", "d4cli", "seat", "add", "Borin"],
            env=env,
            stdout=full,
            stderr=subprocess.PIPE,
            check=False,
        )
    line = result.stderr.decode().strip()
    assert result.returncode == 1 and "log" not in line
    assert line.endswith("any change it made was saved ('d4cli seat list' shows them)")
    listed = subprocess.run(
        [sys.executable, "-m", "d4cli", "seat", "list", "--json"], env=env, capture_output=True
    )
    assert "Borin" in listed.stdout.decode()
