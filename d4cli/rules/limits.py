"""Limits of sane input (L1-L3) and the one parser of whole numbers.

Every number that reaches the rules, from the command line or from the
encounter file, passes through `parse_whole` (text) or `check_whole` (a value
read from TOML), so the same field gets the same answer everywhere.
"""

from __future__ import annotations

import re

from d4cli.rules.errors import InputError

Range = tuple[int, int]

# L1: Aspects, Loads, modifiers (and the Advantage of a pool) within -1000..1000.
ASPECT: Range = (-1000, 1000)
LOAD: Range = (-1000, 1000)
MODIFIER: Range = (-1000, 1000)
# L1: Costs, Exhaustion and Load Buffers are also >= 0.
COST: Range = (0, 1000)
EXHAUSTION: Range = (0, 1000)
BUFFER: Range = (0, 1000)
# L1: DCs, Evasion and hp within -100,000..100,000 (Evasion and hp >= 0).
DC: Range = (-100_000, 100_000)
EVASION: Range = (0, 100_000)
HP: Range = (0, 100_000)
# C3: Advantage Level 0..5; a count of Disadvantages is a whole number >= 0.
ADVANTAGE_LEVEL: Range = (0, 5)
DISADVANTAGE_COUNT: Range = (0, 1000)
# docs/cli.md ranges.
TIMES: Range = (1, 1_000_000)
SEED: Range = (0, 2**63 - 1)
LAST: Range = (1, 10**9)
ROUND: Range = (0, 10**9)
# L2: one roll is at most this many dice, pool and extra dice together.
MAX_DICE = 10_000
# L3: extra dice have 1..1000 faces.
FACES: Range = (1, 1000)
# L4: exact odds are offered for at most this many possible totals.
MAX_TOTALS = 100_000
# Bounded work: one command rolls at most this many dice in all (--times x dice per roll).
MAX_ROLLED_DICE = 20_000_000

# A whole number of more digits than this is out of every range above, so it is refused as
# such before `int` converts it: conversion is quadratic in the digits, and Python refuses
# more than 4,300 with a ValueError of its own.
MAX_DIGITS = 30

# `add NAME --count N` adds at most this many creatures at once.
MAX_COUNT = 100

# Free text of a creature's notes: at most this many characters.
MAX_NOTES = 10_000

_WHOLE = re.compile(r"-?[0-9]+")


def parse_whole(text: str, field: str, bounds: Range) -> int:
    """Parse a plain whole number typed by a user (L3) and check its range (L1).

    Only an optional minus sign and ASCII digits are accepted: ``3.0``,
    ``3_000``, ``" 3"``, ``+3`` and ``true`` are refused. A number of more than
    `MAX_DIGITS` digits (leading zeros aside) is out of range without being converted.

    Args:
        text: the text as typed.
        field: the field, for the message (``load``).
        bounds: the inclusive (low, high) range.

    Returns:
        The number.

    Raises:
        InputError: not a plain whole number, or out of range.
    """
    if not _WHOLE.fullmatch(text):
        raise InputError(field, text, "must be a whole number")
    if len(text) > MAX_DIGITS:
        # `int` counts leading zeros against its own limit: convert only the digits that count.
        digits = text.lstrip("-").lstrip("0")
        if len(digits) > MAX_DIGITS:
            low, high = bounds
            raise InputError(field, text, f"must be within {low}..{high}")
        value = int(digits or "0")
        return check_range(-value if text.startswith("-") else value, field, bounds)
    return check_range(int(text), field, bounds)


def check_whole(value: object, field: str, bounds: Range) -> int:
    """Check a value read from a file is a whole number within range (L1, L3).

    Booleans and floats (``true``, ``3.0``) are refused even though Python
    would treat them as numbers.

    Raises:
        InputError: wrong type, or out of range.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(field, value, "must be a whole number")
    return check_range(value, field, bounds)


def check_range(value: int, field: str, bounds: Range) -> int:
    """Return *value* if it lies within the inclusive *bounds*, else raise InputError."""
    low, high = bounds
    if value < low or value > high:
        raise InputError(field, value, f"must be within {low}..{high}")
    return value


def check_dice(pool_size: int, extra_dice: int) -> None:
    """Refuse a roll of more than 10,000 dice, pool and extra dice together (L2).

    Args:
        pool_size: the pool's d4s (R5).
        extra_dice: the extra dice (R6).

    Raises:
        InputError: naming the fields that add dice and the count of each.
    """
    total = pool_size + extra_dice
    if total > MAX_DICE:
        field = "aspect/advantage/extra" if extra_dice else "aspect/advantage"
        problem = f"dice ({pool_size:,} in the pool + {extra_dice:,} extra): one roll has at most {MAX_DICE:,} (L2)"
        raise InputError(field, total, problem)


def check_rolled_dice(dice_per_roll: int, times: int) -> int:
    """Refuse at once a command that would roll more than `MAX_ROLLED_DICE` dice in all.

    ``--times 1000000`` of a 5d4 pool is 5 million dice; of a roll of 10,000 dice
    (L2) it would be 10 billion, hours of work: an input error before the first roll.

    Returns:
        The dice in all.

    Raises:
        InputError: naming ``times``, the dice in all and the bound.
    """
    total = dice_per_roll * times
    if total > MAX_ROLLED_DICE:
        raise InputError(
            "times",
            times,
            f"{times:,} rolls of {dice_per_roll:,} dice are {total:,} dice; one command rolls at most {MAX_ROLLED_DICE:,}",
        )
    return total
