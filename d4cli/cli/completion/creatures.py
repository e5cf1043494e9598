"""Tab completion of the names an encounter file holds: creatures, their Aspects and effects.

Creature names come from the encounter file named by ``--file/-f`` already typed on the
line, else ``D4CLI_FILE``, else ``./encounter.toml``, read through `d4cli.api.encounter.Reader`; a
missing or damaged file gives no candidates.
"""

from __future__ import annotations

from typing import Any

from d4cli.api.encounter import Reader
from d4cli.api.inputs import fold_name
from d4cli.cli.completion import matching, typed_words
from d4cli.cli.settings import resolve_path

# Parameter names under which commands keep the encounter path and the creature.
_FILE_PARAMS = ("file", "file_", "path", "encounter", "encounter_file")
_CREATURE_PARAMS = ("name", "actor", "creature")


def typed_file(ctx: Any) -> str | None:
    """The ``--file`` value already typed on the line, looking up the context chain."""
    while ctx is not None:
        params = getattr(ctx, "params", None) or {}
        for key in _FILE_PARAMS:
            value = params.get(key)
            if value:
                return str(value)
        ctx = getattr(ctx, "parent", None)
    words = typed_words
    for index, word in enumerate(words):
        if word in ("--file", "-f") and index + 1 < len(words):
            return words[index + 1]
        if word.startswith("--file="):
            return word[len("--file=") :]
        if word.startswith("-f") and len(word) > 2 and not word.startswith("--"):
            return word[2:]
    return None


def _encounter(ctx: Any) -> Any:
    """The encounter named on the line (or by D4CLI_FILE / ./encounter.toml), or None."""
    try:
        return Reader(resolve_path(typed_file(ctx))).status()
    except BaseException:  # noqa: BLE001 - a completer must never fail or print
        return None


def creatures_on_line(ctx: Any) -> list[Any]:
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
        return matching((str(c.name) for c in creatures_on_line(ctx)), incomplete)
    except Exception:  # noqa: BLE001
        return []


def named_creature(ctx: Any, creatures: list[Any]) -> Any:
    """The creature named earlier on the line: a NAME/ACTOR argument, else any typed name."""

    by_key = {fold_name(str(c.name)): c for c in creatures}
    params = getattr(ctx, "params", None) or {}
    ordered = [params.get(key) for key in _CREATURE_PARAMS]
    command = getattr(ctx, "command", None)
    for param in getattr(command, "params", None) or ():
        ordered.append(params.get(getattr(param, "name", None) or ""))
    ordered.extend(typed_words)
    for value in ordered:
        if isinstance(value, str) and fold_name(value) in by_key:
            return by_key[fold_name(value)]
    return None


def complete_aspect(ctx: Any, incomplete: str) -> list[str]:
    """Aspects of the creature named earlier on the line that start with *incomplete*.

    The creature is the NAME/ACTOR argument when Click parsed it; on
    ``team ACTOR TARGET --aspect <Tab>`` Click stops at the option still waiting
    for its value and ACTOR never reaches ``ctx.params``, so the words typed on
    the line (`typed_words`) are searched too, first creature named first.
    """
    try:
        creatures = creatures_on_line(ctx)
        creature = named_creature(ctx, creatures)
        if creature is None:
            return []
        return matching((str(name) for name in dict(creature.aspects)), incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_effect_source(ctx: Any, incomplete: str) -> list[str]:
    """Sources of the lasting effects (R20) of the creature named earlier on the line."""
    try:
        creature = named_creature(ctx, creatures_on_line(ctx))
        if creature is None:
            return []
        return matching((str(effect.source) for effect in creature.effects), incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_other_creature(ctx: Any, incomplete: str) -> list[str]:
    """`complete_creature` without the creature named earlier on the line (a target is someone else)."""
    try:
        creatures = creatures_on_line(ctx)
        actor = named_creature(ctx, creatures)
        names = (str(c.name) for c in creatures if actor is None or c is not actor)
        return matching(names, incomplete)
    except Exception:  # noqa: BLE001
        return []
