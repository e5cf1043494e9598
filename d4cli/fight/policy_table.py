"""A creature's ``policy`` table on its sheet: how the playtest simulator plays it (C8).

The table is part of the creature's file row and is checked when the row is read;
the simulator (`d4cli.sim.policy`) turns it into a `Policy`.
"""

from __future__ import annotations

from collections.abc import Mapping

from d4cli.rules.errors import InputError
from d4cli.rules.limits import COST, check_whole
from d4cli.rules.names import fold_name

TARGET_RULES: tuple[str, ...] = ("lowest-hp", "random")
POLICY_KEYS: tuple[str, ...] = ("target", "reserve", "reaction")
PolicyTable = tuple[tuple[str, str | int], ...]


def check_policy(table: object, aspects: tuple[tuple[str, int], ...]) -> PolicyTable:
    """A creature's ``policy`` table: ``target``, ``reserve``, ``reaction``; returned as pairs.

    Raises:
        InputError: naming ``policy.KEY``: not a table, an unknown key, an unknown
            target rule, a reserve that is not a whole number 0..1000, a reaction
            that is neither ``best``, ``none`` nor one of the creature's Aspects.
    """
    if not isinstance(table, Mapping):
        raise InputError(
            "policy", table, 'must be a table such as { target = "random", reserve = 1 }'
        )
    pairs: list[tuple[str, str | int]] = []
    for key, value in table.items():
        if key not in POLICY_KEYS:
            raise InputError(
                f"policy.{key}", None, "unknown key; known keys: " + ", ".join(POLICY_KEYS)
            )
        if key == "target":
            pairs.append((key, check_target(value, "policy.target")))
        elif key == "reserve":
            pairs.append((key, check_whole(value, "policy.reserve", COST)))
        else:
            pairs.append((key, _reaction(value, aspects)))
    return tuple(pairs)


def check_target(value: object, field: str = "target") -> str:
    """A target rule: ``lowest-hp`` or ``random``.

    Raises:
        InputError: anything else.
    """
    if not isinstance(value, str) or value not in TARGET_RULES:
        raise InputError(field, value, "must be " + " or ".join(TARGET_RULES))
    return value


def _reaction(value: object, aspects: tuple[tuple[str, int], ...]) -> str:
    if isinstance(value, str):
        if value in ("weigh", "always", "best", "none"):
            return value
        for name, _ in aspects:
            if fold_name(name) == fold_name(value):
                return name
    have = ", ".join(name for name, _ in aspects) or "none"
    raise InputError(
        "policy.reaction",
        value,
        f"must be weigh, always, best, none or one of its Aspects ({have})",
    )
