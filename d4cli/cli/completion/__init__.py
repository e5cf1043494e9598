"""Tab completion: the value completers (docs/cli.md); the shells in `d4cli.cli.completion.shells`.

The completers return plain values (``"Goblin Archer"``); the shell classes
below quote them for the shell that asked, so a name with spaces, a colon or
non-ASCII letters completes into exactly one shell word. A completer never
raises and never writes: a missing or damaged encounter file simply gives no
candidates (exit 0, nothing on stderr).

Creature names come from the encounter file named by ``--file/-f`` already
typed on the line, else ``D4CLI_FILE``, else ``./encounter.toml``; matching
follows N1 (`d4cli.rules.names.fold_name`), by prefix.

Submodules, imported from where they are used: `shells` (the bash/zsh/fish
classes and scripts), `words` (splitting the typed line, bash quoting),
`sheets` (stats and named actions, C8). They read this module's state (the
words typed), so it imports none of them and the completers stay cheap.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from d4cli.api.tracker import Tracker
from d4cli.cli.settings import resolve_path
from d4cli.output.helptext import TOPICS
from d4cli.rules.dc import DC_TIERS
from d4cli.rules.names import fold_name

FORMATS: tuple[str, ...] = ("table", "markdown", "csv", "json")

# Parameter names under which commands keep the encounter path and the creature.
_FILE_PARAMS = ("file", "file_", "path", "encounter", "encounter_file")
_CREATURE_PARAMS = ("name", "actor", "creature")


class Candidate(str):
    """A completion value that matches what was typed by N1 folding, not exact case.

    Typer keeps a completer's value only when ``value.startswith(incomplete)``;
    this makes that test the N1 one (``gob`` completes to ``Goblin Archer``).
    """

    __slots__ = ()

    def startswith(self, prefix: Any, *args: Any) -> bool:
        if isinstance(prefix, str) and not args:
            return fold_name(self).startswith(fold_name(prefix))
        return str.startswith(self, prefix, *args)


def _matching(candidates: Iterable[str], incomplete: str) -> list[str]:
    """The candidates whose folded form starts with the folded *incomplete* (N1)."""

    wanted = fold_name(incomplete or "")
    out: list[str] = []
    for candidate in candidates:
        if fold_name(candidate).startswith(wanted) and candidate not in out:
            out.append(Candidate(candidate))
    return out


# The words already typed on the line (set by the shell classes below). Click drops every
# parsed value when the line ends in an option still waiting for its value
# (``team A B --aspect <Tab>``), so the completers fall back on these.
_typed_words: list[str] = []


def _typed_file(ctx: Any) -> str | None:
    """The ``--file`` value already typed on the line, looking up the context chain."""
    while ctx is not None:
        params = getattr(ctx, "params", None) or {}
        for key in _FILE_PARAMS:
            value = params.get(key)
            if value:
                return str(value)
        ctx = getattr(ctx, "parent", None)
    words = _typed_words
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
        return Tracker(resolve_path(_typed_file(ctx))).status()
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

    by_key = {fold_name(str(c.name)): c for c in creatures}
    params = getattr(ctx, "params", None) or {}
    ordered = [params.get(key) for key in _CREATURE_PARAMS]
    command = getattr(ctx, "command", None)
    for param in getattr(command, "params", None) or ():
        ordered.append(params.get(getattr(param, "name", None) or ""))
    ordered.extend(_typed_words)
    for value in ordered:
        if isinstance(value, str) and fold_name(value) in by_key:
            return by_key[fold_name(value)]
    return None


def complete_aspect(ctx: Any, incomplete: str) -> list[str]:
    """Aspects of the creature named earlier on the line that start with *incomplete*.

    The creature is the NAME/ACTOR argument when Click parsed it; on
    ``team ACTOR TARGET --aspect <Tab>`` Click stops at the option still waiting
    for its value and ACTOR never reaches ``ctx.params``, so the words typed on
    the line (`_typed_words`) are searched too, first creature named first.
    """
    try:
        creatures = _creatures(ctx)
        creature = _named_creature(ctx, creatures)
        if creature is None:
            return []
        return _matching((str(name) for name in dict(creature.aspects)), incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_effect_source(ctx: Any, incomplete: str) -> list[str]:
    """Sources of the lasting effects (R20) of the creature named earlier on the line."""
    try:
        creature = _named_creature(ctx, _creatures(ctx))
        if creature is None:
            return []
        return _matching((str(effect.source) for effect in creature.effects), incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_example(incomplete: str) -> list[str]:
    """Names of the bundled example encounters (``d4cli/fileformat/examples/*.toml``)."""
    try:
        folder = Path(__file__).resolve().parent.parent.parent / "fileformat" / "examples"
        names = sorted(path.stem for path in folder.glob("*.toml"))
        return _matching(names, incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_dc_tier(incomplete: str) -> list[str]:
    """The named Difficulty Classes (C2) that start with *incomplete*."""
    try:
        return _matching(DC_TIERS, incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_topic(incomplete: str) -> list[str]:
    """The ``d4cli help`` topics that start with *incomplete*."""
    try:
        return _matching(TOPICS, incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_format(incomplete: str) -> list[str]:
    """The output formats (table, markdown, csv, json) that start with *incomplete*."""
    return _matching(FORMATS, incomplete)


def complete_mode(incomplete: str) -> list[str]:
    """The Load reset modes (turn, round; R12) that start with *incomplete*."""
    return _matching(("turn", "round"), incomplete)


def complete_other_creature(ctx: Any, incomplete: str) -> list[str]:
    """`complete_creature` without the creature named earlier on the line (a target is someone else)."""
    try:
        creatures = _creatures(ctx)
        actor = _named_creature(ctx, creatures)
        names = (str(c.name) for c in creatures if actor is None or c is not actor)
        return _matching(names, incomplete)
    except Exception:  # noqa: BLE001
        return []
