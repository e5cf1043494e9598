"""Sides of a fight: when one side is the last with a creature up, the fight is over (R18).

A creature's ``side`` is free text (``party``, ``foes``); creatures without one stand
aside. The simulator ends its fights by the same reading (`d4cli.sim.engine`).
"""

from __future__ import annotations

from d4cli.fight.encounter import Encounter


def winner(encounter: Encounter) -> str | None:
    """The one side left with a creature up (not down, R18) among two or more sides; else None.

    Sides are the distinct ``side`` texts, as written; a creature without hp is never
    down, so its side is always up.
    """
    up: dict[str, bool] = {}
    for creature in encounter.creatures:
        if creature.side:
            up[creature.side] = up.get(creature.side, False) or not creature.down
    if len(up) < 2:
        return None
    standing = [side for side, is_up in up.items() if is_up]
    return standing[0] if len(standing) == 1 else None


def ended_fight(before: Encounter, after: Encounter) -> str | None:
    """The winning side when the change of *before* into *after* left one side alone up (R18), else None."""
    won = winner(after)
    return won if won is not None and winner(before) is None else None
