"""Suggestions for a mistyped name or option: shown, never acted on (N1).

`closest` ranks known words by similarity (`difflib`) to what was typed, by
their N1-folded forms (case, spaces and accents do not count against a match);
`did_you_mean` phrases the result for an error message. A suggestion only
ever appears in an error: the command still refuses (exit 2).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from d4cli.rules.names import fold_name

# Similarity below which a word is not worth suggesting (difflib's ratio, 0..1).
CUTOFF = 0.7


def closest(typed: str, known: Iterable[str], limit: int = 3, cutoff: float = CUTOFF) -> list[str]:
    """Up to *limit* of *known* closest to *typed*, best first; [] when none is close.

    Options are compared without their leading dashes (``--quiet`` is not close to
    ``--file`` for sharing ``--``); a known word that starts with what was typed, or
    that what was typed starts with (``--advantage`` for ``--adv``), counts as close.
    """

    def key(word: str) -> str:
        return fold_name(word.lstrip("-"))

    wanted = key(typed)
    if not wanted:
        return []
    scored: list[tuple[float, str]] = []
    for word in dict.fromkeys(known):
        other = key(word)
        if not other:
            continue
        ratio = difflib.SequenceMatcher(None, wanted, other).ratio()
        if other == wanted:
            ratio = 2.0
        elif min(len(other), len(wanted)) >= 3 and other.startswith(wanted):
            ratio = max(ratio, 1.0)  # an abbreviation: ``--adv`` for ``--advantage``
        elif min(len(other), len(wanted)) >= 3 and wanted.startswith(other):
            ratio = max(
                ratio, cutoff
            )  # close, but never above a closer spelling (``load`` for ``load_bufer``)
        if ratio >= cutoff:
            scored.append((ratio, word))
    scored.sort(key=lambda pair: -pair[0])
    return [word for _, word in scored[:limit]]


def did_you_mean(typed: str, known: Iterable[str]) -> str:
    """``"; did you mean 'Sir Aldric'?"`` for the closest of *known*, or "" when none is close."""
    found = closest(typed, known)
    if not found:
        return ""
    return "; did you mean " + " or ".join(f"'{word}'" for word in found) + "?"


def unknown_key(key: str, allowed: tuple[str, ...]) -> str:
    """The problem of an unknown key of a file's table: ``unknown key (did you mean 'x'?); known keys: ...``."""
    found = closest(key, allowed, limit=1)
    hint = f" (did you mean {found[0]!r}?)" if found else ""
    return f"unknown key{hint}; known keys: {', '.join(allowed)}"
