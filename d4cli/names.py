"""Matching of names: creatures, Aspects and Advantage sources (RULINGS N1, R4)."""

from __future__ import annotations

import unicodedata


def fold_name(name: str) -> str:
    """Return the key under which *name* matches other names (N1, R4).

    Unicode NFC normalisation, case folding, surrounding white space dropped and
    inner runs of white space folded to one space: ``"Watch  My Back "`` and
    ``"watch my back"`` give the same key. There is no prefix matching.
    """
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def distinct_sources(names: tuple[str, ...] | list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Split source names into those counted and those folded as repeats (R4).

    Args:
        names: the source names as given, in order.

    Returns:
        ``(counted, repeats)``: the first spelling of each distinct source, in
        order of first appearance, and every later name that matched one of them.
    """
    seen: set[str] = set()
    counted: list[str] = []
    repeats: list[str] = []
    for name in names:
        key = fold_name(name)
        if key in seen:
            repeats.append(name)
        else:
            seen.add(key)
            counted.append(name)
    return tuple(counted), tuple(repeats)
