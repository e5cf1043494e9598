"""The end of a fight (R21): which sides still have a creature up, and whether one of them has won.

A creature's ``side`` is free text (``party``, ``foes``); creatures without one stand
aside. `fight_end` is the one reading of the rule: `status`, `recap`, `forecast`, the
boards, the players' view, every change's ``fight_over`` and both simulator engines
(`d4cli.sim.engine`; `d4cli.sim.batch` holds its form over arrays, tested equal to it) use it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from d4cli.fight.encounter_state import Encounter

Side = TypeVar("Side", bound=Hashable)


@dataclass(frozen=True)
class FightEnd(Generic[Side]):
    """A fight that is over (R21).

    Attributes:
        winner: the one side left with a creature up; None when no side has one
            (every creature on a side is down: the fight is over with no winner).
    """

    winner: Side | None


def fight_end(creatures: Iterable[tuple[Side | None, bool]]) -> FightEnd[Side] | None:
    """Whether the fight of *creatures* is over (R21), and who won: None while it goes on.

    *creatures* are ``(side, up)`` pairs, one per creature: its side (None: it stands
    aside) and whether it is up (not down, R18; a creature without hp is always up, so a
    side whose creatures have no hp is never beaten). A fight needs two sides or more; it
    is over when at most one of them has a creature up, which wins (none: no winner).
    Sides are told apart by equality, in order of first appearance.
    """
    up: dict[Side, bool] = {}
    for side, standing in creatures:
        if side is not None:
            up[side] = up.get(side, False) or standing
    if len(up) < 2:
        return None  # fewer than two sides: no fight between sides to end
    left = [side for side, standing in up.items() if standing]
    if len(left) > 1:
        return None
    return FightEnd(left[0] if left else None)


def encounter_end(encounter: Encounter) -> FightEnd[str] | None:
    """`fight_end` of the encounter as it stands (R21): its sides as written, ``""`` standing aside."""
    return fight_end((creature.side or None, not creature.down) for creature in encounter.creatures)


def ended_fight(before: Encounter, after: Encounter) -> FightEnd[str] | None:
    """How the change of *before* into *after* ended the fight (R21): the `encounter_end` of
    *after* when it is over and *before* was not over that way (still going on, or won by a
    side this change took down: every creature is down now); else None, no new ending."""
    end = encounter_end(after)
    return end if end is not None and end != encounter_end(before) else None
