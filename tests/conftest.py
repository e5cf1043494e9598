"""Shared fixtures: every test runs with its own encounter path and no stray settings."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def isolated_env(tmp_path, monkeypatch):
    """No test touches the user's real files or inherits their seed, colour or file settings."""
    monkeypatch.setenv("D4CLI_FILE", str(tmp_path / "encounter.toml"))
    for name in ("D4CLI_SEED", "FORCE_COLOR", "D4CLI_DEBUG", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.chdir(tmp_path)
    return tmp_path
