"""A side's win in words: ``goblins win``, ``party wins`` (R18, R21).

The one place a side's win is worded, for every screen that says it (the forecast, balance,
the boards and the players' page): a side is named by a word the GM chose (``party``,
``foes``, ``goblins``), so the verb agrees with that word as written.
"""

from __future__ import annotations

# Endings of a word ending in "s" that is still one thing (``boss``, ``chorus``, ``Atlantis``).
_SINGULAR_S = ("ss", "us", "is")


def side_wins(side: str) -> str:
    """*side* and the verb that agrees with it: ``goblins win``, ``party wins``, ``boss wins``.

    A name whose last word reads as a plural (it ends in ``s``, but not ``ss``, ``us`` or
    ``is``) takes ``win``; any other name, ``wins``. Plain text: the caller escapes it.
    """
    last = side.rstrip().rsplit(maxsplit=1)[-1].casefold() if side.strip() else ""
    plural = last.endswith("s") and not last.endswith(_SINGULAR_S)
    return f"{side} {'win' if plural else 'wins'}"
