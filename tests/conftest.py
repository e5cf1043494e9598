"""Shared fixtures: every test runs with its own encounter path and no stray settings."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def isolated_env(tmp_path, monkeypatch):
    """No test touches the user's real files or inherits their seed, colour or file settings."""
    monkeypatch.setenv("D4CLI_FILE", str(tmp_path / "encounter.toml"))
    # The GM's bestiary of a test is its own (never the user's config folder).
    monkeypatch.setenv("D4CLI_BESTIARY", str(tmp_path / "bestiary"))
    for name in ("D4CLI_SEED", "FORCE_COLOR", "D4CLI_DEBUG", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- Reliability suite: hypothesis profiles and the figures it measured -------------
#
# The fuzz tests use the "d4cli-fuzz" profile: bounded so CI stays fast. `D4CLI_FUZZ=long`
# selects "d4cli-fuzz-long" instead (and loads it for every hypothesis test), and makes the
# crash and concurrency tests run longer too. The figures (fuzz cases run, kills survived,
# commands checked against a serial replay) are collected in `reliability_figures` and
# printed at the end of the run.

import os as _os

from _reliability import FUZZ_LONG
from hypothesis import HealthCheck as _HealthCheck
from hypothesis import settings as _settings

_settings.register_profile(
    "d4cli-fuzz",
    max_examples=150,
    deadline=None,
    suppress_health_check=[_HealthCheck.too_slow, _HealthCheck.data_too_large],
)
_settings.register_profile(
    "d4cli-fuzz-long",
    max_examples=3000,
    deadline=None,
    suppress_health_check=[_HealthCheck.too_slow, _HealthCheck.data_too_large],
)
if FUZZ_LONG:
    _settings.load_profile("d4cli-fuzz-long")

_RELIABILITY_FIGURES: dict[str, int] = {}


@pytest.fixture(scope="session")
def reliability_figures() -> dict[str, int]:
    """A tally the reliability tests add to (``figures["fuzz cases"] += 1``); printed at the end."""
    return _RELIABILITY_FIGURES


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if _RELIABILITY_FIGURES:
        terminalreporter.section("reliability figures")
        for name, count in sorted(_RELIABILITY_FIGURES.items()):
            terminalreporter.write_line(f"{name}: {count:,}")


@pytest.fixture
def long_integers():
    """Python refuses to read integers of more than 4,300 digits unless told (exact odds of 10,000 d4)."""
    import sys

    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    yield
    sys.set_int_max_str_digits(limit)


@pytest.fixture
def encounter_file(isolated_env):
    """A fresh encounter file (D4CLI_FILE) with Aria and a Goblin Archer, both with hp."""
    from pathlib import Path

    from _cli import ok

    path = Path(_os.environ["D4CLI_FILE"])
    ok("init", "--name", "Test")
    ok(
        "add",
        "Aria",
        "--aspect",
        "Finesse=4",
        "--aspect",
        "Might=2",
        "--evasion",
        "11",
        "--hp",
        "12",
    )
    ok("add", "Goblin Archer", "--aspect", "Finesse=3", "--evasion", "10", "--hp", "7")
    return path
