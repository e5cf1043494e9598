"""Human output, pinned: a change of wording or layout shows up as a reviewed snapshot diff.

The output is what a pipe receives (no colour, NO_COLOR set, a fixed width: d4cli
never wraps a pipe), so it does not depend on the terminal running the tests.
Update on purpose with ``pytest tests/output/test_output_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from d4cli.cli.app import app

runner = CliRunner()
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d")
SHORT_TIME = re.compile(r"(?m)^(#\d+ +)\d\d:\d\d")  # `log` lines: #seq HH:MM


def out(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.stderr
    stdout = TIME.sub("2026-01-01T00:00:00+00:00", result.stdout)
    return SHORT_TIME.sub(r"\g<1>00:00", stdout)


@pytest.mark.parametrize(
    "args",
    [
        (
            "roll",
            "pool",
            "4",
            "--adv",
            "torch",
            "--adv",
            "Torch",
            "--dis",
            "darkness",
            "--extra",
            "1d4+1",
            "--dc",
            "10",
            "--seed",
            "1",
        ),
        ("roll", "pool", "4", "--evasion", "8", "--seed", "2"),
        ("roll", "pool", "3", "--gm", "--load", "5", "--seed", "1"),
        ("roll", "pool", "4", "--times", "20", "--dc", "9", "--seed", "3"),
    ],
    ids=["sources-extra-dc", "evasion", "gm", "times"],
)
def test_roll_pool(snapshot, args):
    assert out(*args) == snapshot


def test_roll_pool_refused(snapshot):
    assert out("roll", "pool", "2", "--load", "1", "--cost", "2", code=3) == snapshot


@pytest.mark.parametrize(
    "args",
    [
        (
            "roll",
            "check",
            "--attribute",
            "3",
            "--advantage",
            "2",
            "--dc",
            "hard",
            "--rule-of-three",
            "--seed",
            "5",
        ),
        (
            "roll",
            "check",
            "--advantage",
            "3",
            "--disadvantage",
            "1",
            "--dc",
            "10",
            "--rule-of-three",
            "--seed",
            "9",
        ),
        ("roll", "check", "--seed", "20", "--dc", "12"),
    ],
    ids=["advantage-rule-of-three", "disadvantage-lowers", "plain"],
)
def test_roll_check(snapshot, args):
    assert out(*args) == snapshot


def test_roll_check_impossible(snapshot):
    assert out("roll", "check", "--disadvantage", "2", code=3) == snapshot


def test_encounter_act_team_status_log(snapshot):
    out("init", "--from", "skirmish")
    shown = {
        "turn start": out("turn", "start"),
        "team": out("team", "Borin", "Aria", "--adv", "--aspect", "Might"),
        "act": out(
            "act", "Aria", "Finesse", "--extra", "1d4", "--target", "Goblin Archer", "--seed", "3"
        ),
        "act off-turn dry run": out(
            "act", "Borin", "Might", "--dc", "8", "--seed", "4", "--dry-run"
        ),
        "team refused": out(
            "team", "Borin", "Aria", "--adv", "--aspect", "Might", "--cost", "9", code=3
        ),
        "status": out("status"),
        "log": out("log"),
    }
    assert shown == snapshot
