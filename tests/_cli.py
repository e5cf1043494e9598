"""In-process CLI helpers shared by the command tests: run, expect success, expect a clean failure."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from d4cli.cli.app import app

runner = CliRunner()


def run(*args: str, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    """``d4cli ARGS`` in process (CliRunner): its result, stdout and stderr apart."""
    return runner.invoke(app, list(args), env=env)


def ok(*args: str):  # type: ignore[no-untyped-def]
    """Run a command that must succeed (exit 0)."""
    result = run(*args)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result


def ok_json(*args: str) -> dict:
    """Run a command with ``--json`` that must succeed; its one JSON object."""
    return json.loads(ok(*args, "--json").stdout)


def files(path: Path) -> dict[str, bytes]:
    """Every file beside *path* (the encounter, its journal, redo file) by name, lock files aside."""
    return {p.name: p.read_bytes() for p in sorted(path.parent.iterdir()) if p.is_file() and not p.name.endswith(".lock")}


def fails(code: int, path: Path, *args: str) -> str:
    """Run a command that must fail with *code*, leaving the file and journal as they were.

    Returns its one stderr line; on exit 2 stdout is empty too.
    """
    before = files(path)
    result = run(*args)
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert files(path) == before
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    if code == 2:
        assert result.stdout == ""
    assert len(lines) == 1, lines
    return lines[0]


def interrupted(args: list[str], after: float, cwd: Path | None = None) -> tuple[int, bytes, bytes]:
    """``d4cli ARGS`` as its own process group, Ctrl-C'd as a terminal does (SIGINT to the
    whole group: the command and its workers) after *after* seconds; ``(exit code, stdout, stderr)``."""
    import os
    import signal
    import subprocess
    import sys
    import time

    script = Path(sys.executable).parent / "d4cli"
    process = subprocess.Popen(
        [str(script), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, start_new_session=True,
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
