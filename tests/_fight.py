"""A scripted two-round fight on the bundled skirmish, seeded: the same dice on every run."""

from __future__ import annotations

from _cli import ok

TWO_ROUNDS: list[tuple[str, ...]] = [
    ("turn", "start"),  # round 1: Aria
    ("act", "Aria", "dagger", "--target", "Goblin Archer", "--seed", "3"),
    ("team", "Goblin Brute", "Aria", "--dis", "--note", "the brute's shove"),
    ("act", "Aria", "dagger", "--target", "Goblin Brute", "--seed", "1"),
    ("turn", "start"),  # Borin
    ("act", "Borin", "axe", "--target", "Goblin Brute", "--seed", "2"),
    ("act", "Goblin Archer", "stab", "--target", "Borin", "--seed", "8"),
    ("turn", "start"),  # Goblin Archer
    ("act", "Goblin Archer", "shortbow", "--target", "Aria", "--seed", "9"),
    ("turn", "start"),  # Goblin Brute
    ("act", "Goblin Brute", "club", "--target", "Borin", "--seed", "4"),
    ("turn", "end"),
    ("turn", "start"),  # round 2: Aria
    ("check", "Aria", "--attribute", "Agility", "--dc", "12", "--seed", "6"),
    ("act", "Aria", "dagger", "--target", "Goblin Archer", "--seed", "7"),
    ("turn", "start"),  # Borin
    ("act", "Borin", "shove", "--target", "Goblin Brute", "--seed", "5"),
    ("turn", "start"),  # Goblin Archer
    ("act", "Goblin Archer", "shortbow", "--target", "Aria", "--seed", "10"),
    ("damage", "Aria", "3", "--note", "a falling beam"),
    ("turn", "start"),  # Goblin Brute
    ("act", "Goblin Brute", "smash", "--target", "Borin", "--seed", "12"),
    ("turn", "end"),
]


def play_two_rounds() -> None:
    """``init --from skirmish``, then `TWO_ROUNDS`."""
    ok("init", "--from", "skirmish")
    for args in TWO_ROUNDS:
        ok(*args)
