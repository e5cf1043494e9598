"""The simulator's dice: uniform dice drawn in small batches from one ``random.Random`` per run."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import random


class BatchedDice:
    """A `DiceSource` over ``random.Random`` that draws each kind of die in small batches.

    ``randint(1, sides)`` gives uniform dice as ``rng.randint`` does, fewer calls
    apart; ``randrange`` (the ``random`` target rule) goes to *rng* itself.
    """

    BATCH = 64

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.randrange = rng.randrange
        self._left: dict[int, list[int]] = {}

    def reseed(self, seed: str) -> BatchedDice:
        """Start afresh from *seed*: the very dice of ``BatchedDice(random.Random(seed))``, without making them."""
        self.rng.seed(seed)
        self._left.clear()
        return self

    def randint(self, a: int, b: int) -> int:
        if a != 1:
            return self.rng.randint(a, b)
        left = self._left.get(b)
        if not left:
            left = self._left[b] = self.rng.choices(range(1, b + 1), k=self.BATCH)
        return left.pop()

    def roll_many(self, count: int, sides: int) -> tuple[int, ...]:
        """*count* dice of *sides*: the very dice of *count* ``randint(1, sides)`` calls (`d4cli.rules.dice.roll_dice`)."""
        left = self._left.get(sides)
        if left is not None and 0 < count <= len(left):
            taken = tuple(left[:-count - 1:-1])  # randint pops from the end: the last die first
            del left[-count:]
            return taken
        randint = self.randint
        return tuple([randint(1, sides) for _ in range(count)])
