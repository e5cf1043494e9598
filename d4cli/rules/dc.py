"""Difficulty Classes given on the command line: a whole number or a named tier (C2, L1).

Apart from `d4cli.rules.action_roll` so that ``act --dc`` reads a DC without loading the d20 rules.
"""

from __future__ import annotations

from d4cli.rules.errors import InputError
from d4cli.rules.limits import DC, parse_whole
from d4cli.rules.suggest import did_you_mean

# C2: the named Difficulty Classes.
DC_TIERS: dict[str, int] = {
    "easy": 6,
    "medium": 12,
    "hard": 18,
    "challenging": 24,
    "nearly-impossible": 30,
}


def parse_dc(text: str, field: str = "dc") -> int:
    """Read a DC given as a whole number or a tier name (C2, L1).

    >>> parse_dc("hard"), parse_dc("15")
    (18, 15)

    Raises:
        InputError: neither a whole number within L1 nor a known tier; a mistyped
            tier (``medum``) gets a did-you-mean hint.
    """
    tier = DC_TIERS.get(text.lower())
    if tier is not None:
        return tier
    if text[:1].isascii() and (text[:1].isdigit() or text[:1] == "-"):
        return parse_whole(text, field, DC)
    names = ", ".join(DC_TIERS)
    hint = did_you_mean(text, DC_TIERS)
    raise InputError(field, text, f"must be a whole number or one of {names} (C2){hint}")
