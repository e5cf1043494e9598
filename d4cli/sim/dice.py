"""The simulator's dice: `d4cli.rules.dice.BatchedDice` as each run draws them, from one
``random.Random`` per run (its defaults: small batches of every die, last drawn first)."""

from __future__ import annotations

from d4cli.rules.dice import BatchedDice as BatchedDice

__all__ = ["BatchedDice"]
