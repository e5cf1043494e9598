"""Tab completion: the value completers and the shell classes (shared/CLI.md).

The completers return plain values (``"Goblin Archer"``); the shell classes
below quote them for the shell that asked, so a name with spaces, a colon or
non-ASCII letters completes into exactly one shell word. A completer never
raises and never writes: a missing or damaged encounter file simply gives no
candidates (exit 0, nothing on stderr).

Creature names come from the encounter file named by ``--file/-f`` already
typed on the line, else ``D4CLI_FILE``, else ``./encounter.toml``; matching
follows N1 (`d4cli.names.fold_name`), by prefix.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

FORMATS: tuple[str, ...] = ("table", "markdown", "csv", "json")

# Parameter names under which commands keep the encounter path and the creature.
_FILE_PARAMS = ("file", "file_", "path", "encounter", "encounter_file")
_CREATURE_PARAMS = ("name", "actor", "creature")


def _matching(candidates: Iterable[str], incomplete: str) -> list[str]:
    """The candidates whose folded form starts with the folded *incomplete* (N1)."""
    from d4cli.names import fold_name

    wanted = fold_name(incomplete or "")
    out: list[str] = []
    for candidate in candidates:
        if fold_name(candidate).startswith(wanted) and candidate not in out:
            out.append(candidate)
    return out


def _typed_file(ctx: Any) -> str | None:
    """The ``--file`` value already typed on the line, looking up the context chain."""
    while ctx is not None:
        params = getattr(ctx, "params", None) or {}
        for key in _FILE_PARAMS:
            value = params.get(key)
            if value:
                return str(value)
        ctx = getattr(ctx, "parent", None)
    return None


def _encounter(ctx: Any) -> Any:
    """The encounter named on the line (or by D4CLI_FILE / ./encounter.toml), or None."""
    try:
        from d4cli import store

        value = _typed_file(ctx)
        resolve = getattr(store, "resolve_path", None)
        if resolve is not None:
            path = resolve(value)
        else:  # pragma: no cover - only while the store is being written
            path = value or os.environ.get("D4CLI_FILE") or "encounter.toml"
        return store.read_encounter(path)
    except BaseException:  # noqa: BLE001 - a completer must never fail or print
        return None


def _creatures(ctx: Any) -> list[Any]:
    encounter = _encounter(ctx)
    if encounter is None:
        return []
    try:
        return list(encounter.creatures)
    except Exception:  # noqa: BLE001
        return []


def complete_creature(ctx: Any, incomplete: str) -> list[str]:
    """Names of the creatures in the encounter file that start with *incomplete* (N1)."""
    try:
        return _matching((str(c.name) for c in _creatures(ctx)), incomplete)
    except Exception:  # noqa: BLE001
        return []


def _named_creature(ctx: Any, creatures: list[Any]) -> Any:
    """The creature named earlier on the line: a NAME/ACTOR argument, else any typed name."""
    from d4cli.names import fold_name

    by_key = {fold_name(str(c.name)): c for c in creatures}
    params = getattr(ctx, "params", None) or {}
    ordered = [params.get(key) for key in _CREATURE_PARAMS]
    command = getattr(ctx, "command", None)
    for param in getattr(command, "params", None) or ():
        ordered.append(params.get(getattr(param, "name", None) or ""))
    for value in ordered:
        if isinstance(value, str) and fold_name(value) in by_key:
            return by_key[fold_name(value)]
    return None


def complete_aspect(ctx: Any, incomplete: str) -> list[str]:
    """Aspects of the creature named earlier on the line that start with *incomplete*."""
    try:
        creatures = _creatures(ctx)
        creature = _named_creature(ctx, creatures)
        if creature is None:
            return []
        return _matching((str(name) for name in dict(creature.aspects)), incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_example(incomplete: str) -> list[str]:
    """Names of the bundled example encounters (``d4cli/examples/*.toml``)."""
    try:
        from pathlib import Path

        folder = Path(__file__).resolve().parent / "examples"
        names = sorted(path.stem for path in folder.glob("*.toml"))
        return _matching(names, incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_dc_tier(incomplete: str) -> list[str]:
    """The named Difficulty Classes (C2) that start with *incomplete*."""
    try:
        from d4cli.check import DC_TIERS

        return _matching(DC_TIERS, incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_topic(incomplete: str) -> list[str]:
    """The ``d4cli help`` topics that start with *incomplete*."""
    try:
        from d4cli.helptext import TOPICS

        return _matching(TOPICS, incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_format(incomplete: str) -> list[str]:
    """The output formats (table, markdown, csv, json) that start with *incomplete*."""
    return _matching(FORMATS, incomplete)
