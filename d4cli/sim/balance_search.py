"""The search of ``balance``: the whole value of one setting that gives a side a target chance to win (R21).

Pure and on plain data: `search` asks a function for the wins at a value (one `Point`) and
never plays a fight itself, so a monotone stand-in proves it. The caller plays every
value with the same seeds (common random numbers), so neighbouring values differ by the
setting and not by the dice, and a side's chance moves one way as the value grows.

The search: both ends of the range first, which say whether the chance rises or falls
with the value and whether the target lies between them; then bisection over the whole
numbers between the ends, until two neighbours bracket the target; then the nearer of
the two, and its neighbours, walking on while a neighbour is nearer still (the dice can
make the curve wobble by a point). At most `most_values` values are played.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from d4cli.rules.errors import InputError
from d4cli.rules.records import notebook
from d4cli.sim.report import wilson

# Steps the final walk may take past the bisection's bracket toward a nearer neighbour.
WALK = 3
# ``A..B``: each end a number, whole or with decimals (``2.5..7.5`` holds 3..7).
_RANGE = re.compile(r"(-?\d{1,9}(?:\.\d{1,9})?)\.\.(-?\d{1,9}(?:\.\d{1,9})?)")


@notebook
@dataclass(frozen=True)
class Point:
    """A side's wins at one value: ``wins`` of ``runs``, ``rate`` in 0..1 and its 95% Wilson interval."""

    value: int
    wins: int
    runs: int

    @property
    def rate(self) -> float:
        return self.wins / self.runs if self.runs else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.runs)


@notebook
@dataclass(frozen=True)
class Search:
    """What `search` found.

    Attributes:
        target: the chance asked for, in 0..1.
        low / high: the range of whole values searched.
        found: the value whose chance is nearest the target.
        below / above: the values just below and above it (None at an end of the range).
        reached: the target lies between the lowest and the highest chance played;
            else *found* is the nearest the range gets.
        direction: +1 when the chance rises with the value, -1 when it falls, 0 when both
            ends give the same chance.
        points: every value played, by value (the curve).
    """

    target: float
    low: int
    high: int
    found: Point
    below: Point | None
    above: Point | None
    reached: bool
    direction: int
    points: tuple[Point, ...]


def most_values(low: int, high: int) -> int:
    """The most values `search` plays over ``low..high``: both ends, the bisection, its last
    neighbour and the walk."""
    span = high - low
    if span <= 0:
        return 1
    return min(span + 1, 2 + math.ceil(math.log2(span)) + 1 + WALK)


def search(chance: Callable[[int], Point], low: int, high: int, target: float) -> Search:
    """The whole value in ``low..high`` whose chance (``chance(value).rate``) is nearest *target*.

    *chance* is called at most once per value and at most `most_values` times.

    Raises:
        ValueError: an empty range or a target outside 0..1 (the caller checks both first).
    """
    if high < low or not 0.0 <= target <= 1.0:
        raise ValueError("an empty range or a target outside 0..1")
    played: dict[int, Point] = {}

    def at(value: int) -> Point:
        if value not in played:
            played[value] = chance(value)
        return played[value]

    first, last = at(low), at(high)
    direction = (last.rate > first.rate) - (last.rate < first.rate)
    reached = min(first.rate, last.rate) <= target <= max(first.rate, last.rate)
    if reached and direction:
        lo, hi = _bisect(at, low, high, target, direction)
        found = min((at(lo), at(hi)), key=lambda point: abs(point.rate - target))
    else:
        found = min((first, last), key=lambda point: abs(point.rate - target))
    found = _walk(at, found, low, high, target)
    below = at(found.value - 1) if found.value > low else None
    above = at(found.value + 1) if found.value < high else None
    rates = [point.rate for point in played.values()]
    return Search(
        target,
        low,
        high,
        found,
        below,
        above,
        reached or min(rates) <= target <= max(rates),
        direction,
        tuple(played[value] for value in sorted(played)),
    )


def _bisect(
    at: Callable[[int], Point], low: int, high: int, target: float, direction: int
) -> tuple[int, int]:
    """Two neighbours (or one value twice) whose chances bracket *target*, by halving ``low..high``."""
    lo, hi = low, high
    while hi - lo > 1:
        middle = (lo + hi) // 2
        if direction * (at(middle).rate - target) < 0:
            lo = middle
        else:
            hi = middle
    return lo, hi


def _walk(at: Callable[[int], Point], found: Point, low: int, high: int, target: float) -> Point:
    """From *found*, step to a neighbour while it is nearer the target (at most `WALK` steps)."""
    for _ in range(WALK):
        near = [at(v) for v in (found.value - 1, found.value + 1) if low <= v <= high]
        better = min(near, key=lambda point: abs(point.rate - target), default=found)
        if abs(better.rate - target) >= abs(found.rate - target):
            return found
        found = better
    return found


@notebook
class Vary(NamedTuple):
    """The setting to vary: creature *creature*'s *field* over the whole values ``low..high``.

    *text* is the setting as given (``Goblin Brute:hp=5..40``), for errors. *asked* is the high
    end as given when the range was capped (``hp`` of a hurt creature goes up to its
    ``max_hp``, R18), else None.
    """

    creature: str
    field: str
    low: int
    high: int
    text: str = ""
    asked: int | None = None

    @classmethod
    def parse(cls, text: str, field: str = "vary") -> Vary:
        """``Goblin Brute:hp=5..40`` -> ``Vary("Goblin Brute", "hp", 5, 40, text)``: the one
        reading of a setting and its range, for ``balance`` and the sweeps of ``simulate``.

        The range holds the whole numbers from A to B (``2.5..7.5`` holds 3..7). The creature
        and the field are checked against an encounter later (`d4cli.api.creature_settings`).

        Raises:
            InputError: naming *field*: not ``CREATURE:FIELD=A..B``, a range with no whole
                number in it.
        """
        key, sign, span = text.rpartition("=")
        creature, colon, name = key.rpartition(":")
        found = _RANGE.fullmatch(span.strip())
        if not (sign and colon and creature.strip() and name.strip() and found):
            raise InputError(
                field, text, "must be CREATURE:FIELD=A..B, such as 'Goblin Brute:hp=5..40'"
            )
        low = math.ceil(Decimal(found.group(1)))
        high = math.floor(Decimal(found.group(2)))
        if high < low:
            raise InputError(field, text, f"the range {span.strip()} holds no whole number")
        return cls(creature.strip(), name.strip(), low, high, text)


@notebook
@dataclass(frozen=True)
class Balance:
    """What `balance` found.

    Attributes:
        encounter / mode: the encounter's name and the simulator's mode of its file (R12).
        side: the side whose chance is sought, as the file spells it.
        vary: the setting varied (the creature as the file spells it).
        runs / seed: fights per value, and the seed every value shares.
        search: the `d4cli.sim.balance_search.Search` (the value, its neighbours, the curve).
    """

    encounter: str
    mode: str
    side: str
    vary: Vary
    runs: int
    seed: int
    search: Search
