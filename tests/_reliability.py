"""Helpers shared by the reliability tests: d4cli in real processes (killed, Ctrl-C'd, holding
the lock), a whole folder's snapshot, the invariant every answer keeps, a serial replay.

Not a test module (no ``test_`` prefix). Running d4cli in process is tests/_cli.py's
(`run`, `ok`, `ok_json`); nothing here repeats it.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

from _cli import Outcome, run

FUZZ_LONG = os.environ.get("D4CLI_FUZZ", "") == "long"
REPO = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(path.stem for path in (REPO / "d4cli" / "fileformat" / "examples").glob("*.toml"))


def subprocess_env(**extra: str) -> dict[str, str]:
    """The environment for a d4cli child process: this interpreter's, no colour, no stray settings."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("D4CLI_")}
    env.update({"NO_COLOR": "1", "PYTHONDONTWRITEBYTECODE": "1"})
    env.update(extra)
    return env


def interrupted(args: list[str], after: float, cwd: Path | None = None) -> tuple[int, bytes, bytes]:
    """``d4cli ARGS`` as its own process group, Ctrl-C'd as a terminal does (SIGINT to the
    whole group: the command and its workers) after *after* seconds; ``(exit code, stdout, stderr)``."""
    script = Path(sys.executable).parent / "d4cli"
    process = subprocess.Popen(
        [str(script), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(after)
    os.killpg(process.pid, signal.SIGINT)
    try:
        out, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        raise
    return process.returncode, out, err


# What another d4cli command does while it changes the file: hold an exclusive flock on the lock file.
FLOCK_HOLDER = """\
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); fcntl.flock(fd, fcntl.LOCK_EX)
print('locked', flush=True); time.sleep(30)
"""


@contextlib.contextmanager
def lock_held_elsewhere(
    target: Path, script: str = FLOCK_HOLDER, env: Mapping[str, str] | None = None
) -> Iterator[subprocess.Popen]:
    """Another process runs *script* on *target* (by default: holds the lock file *target*) and
    says ``locked``; the block runs while it holds it, and the process is killed after."""
    holder = subprocess.Popen(
        [sys.executable, "-c", script, str(target)],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(env) if env is not None else None,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "locked"
        yield holder
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()


# --- the invariant -----------------------------------------------------------------------------

LOCK_SUFFIX = ".lock"


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under *folder* (relative name -> bytes), lock files aside.

    A lock file is the one thing a failed command may leave behind: it holds
    no data. Symlinks are recorded by their target, FIFOs and folders by kind.
    A folder that holds nothing but lock files counts as lock debris too: a
    failed change on ``--file missing/x.toml`` leaves ``missing/x.toml.lock``
    (an older lock made the folder); test_hostile_files pins that on its own.
    """
    out: dict[str, bytes] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            full = Path(root, name)
            rel = str(full.relative_to(folder))
            if name.endswith(LOCK_SUFFIX):
                continue
            if full.is_symlink():
                out[rel] = b"symlink -> " + os.readlink(full).encode("utf-8", "surrogateescape")
            elif full.is_dir():
                out[rel] = b"<dir>"
            elif full.is_file():
                out[rel] = full.read_bytes()
            else:
                out[rel] = b"<special>"
    for rel in [rel for rel, data in out.items() if data == b"<dir>"]:
        if not any(other.startswith(rel + os.sep) for other in out):
            del out[rel]
    return out


def check_answer(out: Outcome) -> None:
    """Exit 0/2/3, no traceback, and on 2 an empty stdout and one clear error line (docs/cli.md)."""
    assert out.exit_code in (0, 2, 3), str(out)
    assert "Traceback" not in out.stderr + out.stdout, str(out)
    assert "internal error" not in out.stderr, str(out)
    if out.exit_code == 2:
        assert out.stdout == "", str(out)
        lines = out.stderr.splitlines()
        # "a usage line and a hint may precede it" (docs/cli.md): the error is the last line.
        assert 1 <= len(lines) <= 3, str(out)
        assert lines[-1].startswith("d4cli: error: "), str(out)
        assert len(lines[-1]) > len("d4cli: error: ") + 3, str(out)
        for line in lines:
            assert "\x1b" not in line and "\x9b" not in line, str(out)
            assert not any(ch in line for ch in "╭╮╰╯│"), str(out)  # no box drawing


@contextlib.contextmanager
def scratch_folder(files: Mapping[str, bytes] = {}) -> Iterator[Path]:
    """A fresh temporary folder holding *files*, made the working directory for the block."""
    old = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="d4rel-") as name:
        folder = Path(name)
        for rel, data in files.items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_bytes(data)
        os.chdir(folder)
        try:
            yield folder
        finally:
            os.chdir(old)


def count(figures: dict[str, int], name: str, n: int = 1) -> None:
    figures[name] = figures.get(name, 0) + n


# --- the history against the file: a serial replay ---------------------------------------------


def fold(name: str) -> str:
    from d4cli.rules.names import fold_name

    return fold_name(name)


def replay(start: dict, entries: list[dict]) -> dict:
    """The state a serial replay of the log *entries* gives, from the ``status --json`` *start*.

    Every entry is checked against the state the entries before it left: an
    ``act`` or ``team`` saw the Load the previous change left (``load_before``),
    used exactly the grants pending (``grants_used``), a reset started from the
    Load it found. An update lost by a race, or an entry whose change never
    reached the file, breaks the chain and fails here.

    Returns:
        ``{"round", "current", "creatures": {name: {load, hp, exhaustion, pending}}}``
    """
    creatures = {
        c["name"]: {
            "load": c["load"],
            "hp": c["hp"],
            "exhaustion": c["exhaustion"],
            "pending": {
                "advantage": list(c["pending"]["advantage"]),
                "disadvantage": list(c["pending"]["disadvantage"]),
            },
        }
        for c in start["creatures"]
    }
    state = {"round": start["round"], "current": start["current"], "creatures": creatures}
    for number, entry in enumerate(entries):
        where = f"entry #{number} {entry}"
        kind = entry["kind"]
        actor = entry.get("actor")
        if kind in ("act", "team"):
            me = creatures[actor]
            assert entry["load_before"] == me["load"], (
                f"lost update before {where}: Load was {me['load']}"
            )
            me["load"] = entry["load_after"]
            assert entry["load_after"] == entry["load_before"] + entry["cost"], where
        if kind == "act":
            assert entry["grants_used"] == me["pending"], (
                f"grants mismatch at {where}: pending {me['pending']}"
            )
            me["pending"] = {"advantage": [], "disadvantage": []}
            if entry.get("target") is not None and entry.get("hp_before") is not None:
                target = creatures[entry["target"]]
                assert entry["hp_before"] == target["hp"], f"lost hp update before {where}"
                target["hp"] = entry["hp_after"]
        elif kind == "team":
            names = creatures[entry["target"]]["pending"][entry["grant"]]
            if fold(entry["source"]) not in {fold(n) for n in names}:
                names.append(entry["source"])
        elif kind == "turn-start":
            for reset in entry["resets"]:
                who = creatures[reset["name"]]
                assert reset["load_before"] == who["load"], (
                    f"lost update before {where}: Load was {who['load']}"
                )
                who["load"] = reset["load_after"]
            state["current"] = actor
        elif kind == "turn-end":
            assert state["current"] == actor, where
            state["current"] = None
        elif kind == "exhaust":
            assert entry["exhaustion_before"] == creatures[actor]["exhaustion"], where
            creatures[actor]["exhaustion"] = entry["exhaustion_after"]
        elif kind in ("damage", "heal"):
            assert entry["hp_before"] == creatures[actor]["hp"], f"lost hp update before {where}"
            creatures[actor]["hp"] = entry["hp_after"]
        elif kind == "move":
            pass  # only the order changes
        elif kind == "check":  # no Load change (C8); the Team Action grants it counted are used up
            me = creatures[actor]
            for grant, names in entry["grants_used"].items():
                pending = me["pending"][grant]
                for name in names:
                    assert fold(name) in {fold(n) for n in pending}, (
                        f"grants mismatch at {where}: pending {me['pending']}"
                    )
                    pending[:] = [n for n in pending if fold(n) != fold(name)]
        elif kind == "effect":  # only a Team Action grant shows as pending (R11)
            effect = entry["effect"]
            if effect["origin"] == "team-action":
                names = creatures[actor]["pending"][effect["grant"]]
                if entry["action"] == "add":
                    names.append(effect["source"])
                else:
                    names[:] = [n for n in names if fold(n) != fold(effect["source"])]
        elif kind in ("action-add", "action-remove"):
            pass  # only the sheet changes
        elif kind == "add":
            creatures[actor] = {
                "load": entry["load_after"],
                "hp": entry["hp_after"],
                "exhaustion": entry["exhaustion"],
                "pending": {"advantage": [], "disadvantage": []},
            }
        elif kind == "remove":
            assert entry["load_before"] == creatures[actor]["load"], where
            del creatures[actor]
            if entry.get("ended_turn"):
                state["current"] = None
        else:
            raise AssertionError(f"replay does not know {where}")
        state["round"] = entry["round"]
    return state


def as_replayed(status: dict) -> dict:
    """A ``status --json`` object in the shape `replay` returns."""
    return {
        "round": status["round"],
        "current": status["current"],
        "creatures": {
            c["name"]: {
                "load": c["load"],
                "hp": c["hp"],
                "exhaustion": c["exhaustion"],
                "pending": c["pending"],
            }
            for c in status["creatures"]
        },
    }


def raw_journal(path: Path) -> list[bytes]:
    """The journal's raw lines (keeping their newlines), for checks the public log cannot make."""
    journal = path.with_name(path.name + ".journal")
    return journal.read_bytes().splitlines(keepends=True) if journal.exists() else []


def file_matches_last_entry(path: Path, entries: list[dict]) -> bool:
    """The file is byte-for-byte what the newest standing change wrote (its ``after`` hash)."""
    import hashlib

    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    seq = entries[-1]["seq"]
    for raw in reversed(raw_journal(path)):
        try:
            entry = json.loads(raw)
        except ValueError:
            continue
        if isinstance(entry, dict) and entry.get("seq") == seq:
            return entry.get("after") == digest
    return False


def status_and_log(path: Path) -> tuple[dict, list[dict]]:
    """``status --json`` and ``log --json`` of *path*; both must exit 0."""
    status = run("status", "--json", file=path)
    assert status.exit_code == 0, str(status)
    history = run("log", "--json", file=path)
    assert history.exit_code == 0, str(history)
    return status.json(), history.json()["entries"]


def tank_and_other(name: str) -> str:
    """An encounter file for the crash and stress tests: "Tank" (Might 1000) and "Other"."""
    return """\
schema_version = 1
name = "@NAME@"
mode = "turn"
round = 0

[[creature]]
name = "Tank"
load_buffer = 0
exhaustion = 0
load = 0
aspects = { Might = 1000 }

[[creature]]
name = "Other"
load_buffer = 1
exhaustion = 0
load = -1
hp = 100000
aspects = { Wits = 1000 }
""".replace("@NAME@", name)
