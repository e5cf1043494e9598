"""Batched dice: a `d4cli.rules.dice.DiceSource` over ``random.Random`` that draws each kind of die
in batches, for the simulator's runs (`BatchedDice`) and the rolls of ``--times`` (`times_dice`).

``roll_many`` and ``roll_rows`` hand out the very dice that as many ``randint(1, sides)`` calls
would, so `d4cli.rules.dice.roll_dice` and `d4cli.rules.pool.roll_pools` take a pool's dice in one
call with the same results (R5, R6).
"""

from __future__ import annotations

import random
from collections.abc import Iterable


class BatchedDice:
    """A `DiceSource` over ``random.Random`` that draws each kind of die in batches:
    ``rng.choices(range(1, sides + 1), k=batch)``.

    ``randint(1, sides)`` gives uniform dice as ``rng.randint`` does, fewer calls apart;
    any other range, a die not among *sides*, and ``randrange`` (the simulator's
    ``random`` target rule) go to *rng* itself, as they are asked for.

    Args:
        rng: the random source (``random.Random``).
        batch: how many dice of one kind each ``choices`` call draws.
        sides: the dice drawn in batches; None for every die.
        in_order: hand each batch out in the order drawn; else last drawn first.

    The defaults are the simulator's (`d4cli.sim.engine`: its recorded runs fix them);
    `times_dice` gives the ``--times`` rolls' source.
    """

    def __init__(
        self,
        rng: random.Random,
        batch: int = 64,
        *,
        sides: Iterable[int] | None = None,
        in_order: bool = False,
    ) -> None:
        self.rng = rng
        self.randrange = rng.randrange
        self.batch = batch
        self._sides = None if sides is None else frozenset(sides)
        self._in_order = in_order
        self._left: dict[int, list[int]] = {}

    def reseed(self, seed: str) -> BatchedDice:
        """Start afresh from *seed*: the very dice of a new source over ``random.Random(seed)``, without making it."""
        self.rng.seed(seed)
        self._left.clear()
        return self

    def randint(self, a: int, b: int) -> int:
        if a != 1:
            return self.rng.randint(a, b)
        left = self._left.get(b)
        if not left:
            left = self._draw(b)
            if left is None:
                return self.rng.randint(a, b)
        return left.pop()

    def _draw(self, sides: int) -> list[int] | None:
        """A new batch of d*sides* (kept reversed: `randint` pops from the end), None for a die not batched."""
        if self._sides is not None and sides not in self._sides:
            return None
        left = self._left[sides] = self.rng.choices(range(1, sides + 1), k=self.batch)
        if self._in_order:
            left.reverse()
        return left

    def roll_many(self, count: int, sides: int) -> tuple[int, ...]:
        """*count* dice of *sides*: the very dice of *count* ``randint(1, sides)`` calls (`roll_dice`)."""
        left = self._left.get(sides)
        if left is not None and 0 < count <= len(left):
            taken = tuple(left[: -count - 1 : -1])  # randint pops from the end: the last die first
            del left[-count:]
            return taken
        randint = self.randint
        return tuple([randint(1, sides) for _ in range(count)])

    def roll_rows(self, rolls: int, count: int, sides: int) -> list[tuple[int, ...]]:
        """*rolls* rows of *count* dice of *sides*: the very dice of *rolls* `roll_many` calls, drawn at once."""
        if self._sides is not None and sides not in self._sides:
            return [self.roll_many(count, sides) for _ in range(rolls)]
        need = rolls * count
        coming = self._left.get(sides, [])[::-1]  # the dice to come, next first
        while len(coming) < need:
            batch = self._draw(sides)
            assert batch is not None  # a batched die
            coming += batch[::-1]
        rest = coming[need:]
        rest.reverse()
        self._left[sides] = rest
        flat = tuple(coming[:need])
        return [flat[start : start + count] for start in range(0, need, count)]


def times_dice(rng: random.Random) -> BatchedDice:
    """The dice of ``--times`` after its first roll (which *rng* makes alone, as ``--seed`` does):
    d4s in batches of 4096 in the order drawn, any other die from ``rng.randint`` as asked.

    ``--json``, ``--quiet`` and the summary use it alike, so they see the same dice for a seed.
    """
    return BatchedDice(rng, 4096, sides=(4,), in_order=True)
