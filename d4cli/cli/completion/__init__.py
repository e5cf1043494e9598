"""Tab completion: the value completers (docs/cli.md); the shells in `d4cli.cli.completion.shells`.

The completers return plain values (``"Goblin Archer"``); the shell classes
below quote them for the shell that asked, so a name with spaces, a colon or
non-ASCII letters completes into exactly one shell word. A completer never
raises and never writes: a missing or damaged encounter file simply gives no
candidates (exit 0, nothing on stderr).

This module holds the completers of fixed words (DC tiers, help topics, formats,
modes, the bundled examples), which read no file; matching follows N1
(`d4cli.rules.names.fold_name`), by prefix.

Submodules, imported from where they are used: `creatures` (the names the
encounter file holds: creatures, Aspects, effects), `sheets` (stats and named
actions, C8), `shells` (the bash/zsh/fish classes and scripts), `words`
(splitting the typed line, bash quoting). They read this module's state (the
words typed), so it imports none of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from d4cli.api.inputs import DC_TIERS, fold_name
from d4cli.output.rules_reference import TOPICS

FORMATS: tuple[str, ...] = ("table", "markdown", "csv", "json", "svg")


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


def matching(candidates: Iterable[str], incomplete: str) -> list[str]:
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
typed_words: list[str] = []


def complete_example(incomplete: str) -> list[str]:
    """Names of the bundled example encounters (``d4cli/fileformat/examples/*.toml``)."""
    try:
        folder = Path(__file__).resolve().parent.parent.parent / "fileformat" / "examples"
        names = sorted(path.stem for path in folder.glob("*.toml"))
        return matching(names, incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_dc_tier(incomplete: str) -> list[str]:
    """The named Difficulty Classes (C2) that start with *incomplete*."""
    try:
        return matching(DC_TIERS, incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_topic(incomplete: str) -> list[str]:
    """The ``d4cli help`` topics that start with *incomplete*."""
    try:
        return matching(TOPICS, incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_format(incomplete: str) -> list[str]:
    """The output formats of `odds` (table, markdown, csv, json, svg) that start with *incomplete*."""
    return matching(FORMATS, incomplete)


def complete_mode(incomplete: str) -> list[str]:
    """The Load reset modes (turn, round; R12) that start with *incomplete*."""
    return matching(("turn", "round"), incomplete)
