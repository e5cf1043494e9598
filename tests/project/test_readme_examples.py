"""README's console examples, run in order on a fresh ``init --from skirmish``: every one works as written."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from _cli import run

README = Path(__file__).resolve().parents[2] / "README.md"


def console_commands() -> list[tuple[str, int]]:
    """Every ``$ d4cli ...`` line of README's console blocks (not ``d4cli play``), with its expected exit code."""
    text = README.read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        for line in block.splitlines():
            if not line.startswith("$ d4cli ") or line.startswith("$ d4cli play"):
                continue
            code = 3 if "exit 3" in line else 0
            commands.append((shlex.join(shlex.split(line[2:], comments=True)), code))
    return commands


def test_readme_has_the_examples():
    commands = [command for command, _ in console_commands()]
    assert "d4cli init --from skirmish" in commands
    assert "d4cli team Borin Aria --adv --aspect Wits" in commands
    assert "d4cli act Aria dagger --target 'Goblin Archer'" in commands
    assert len(commands) >= 25


def test_every_readme_console_example_runs_in_order(tmp_path):
    # The rolls first (no encounter needed), then the encounter examples from the init on.
    for command, code in console_commands():
        out = run(*shlex.split(command)[1:], env={"D4CLI_SEED": "7"})
        assert out.exit_code == code, f"{command}\n{out}"
