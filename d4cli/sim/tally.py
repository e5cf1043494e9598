"""The simulator's integer sums over runs (`Tally`) and what one fight shows of each creature (`Fight`).

Every figure is an integer sum, so tallies of pieces played apart merge into
the very tally one process would have made (`Tally.merge`; order never matters).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The per-run figures, in `Tally.sums` / `Tally.products` order; damage per side follows.
FIGURES: tuple[str, ...] = ("rounds", "turns", "actions", "reactions", "stuck")


@dataclass
class Tally:
    """Integer sums over runs of one mode; `merge` adds two (order never matters).

    Attributes:
        runs / wins (per side) / draws.
        rounds: runs by number of rounds played.
        loads: turns by the Load at their start (after the reset).
        sums / products: per-run figures (`FIGURES`, then damage dealt per side)
            summed, and their pairwise products summed (for the intervals).
        creatures / per_creature: per creature in turn order, `CREATURE_SUMS`
            summed over runs (empty when *creatures* is 0).
    """

    sides: int
    runs: int = 0
    draws: int = 0
    wins: list[int] = field(default_factory=list)
    rounds: dict[int, int] = field(default_factory=dict)
    loads: dict[int, int] = field(default_factory=dict)
    sums: list[int] = field(default_factory=list)
    products: list[int] = field(default_factory=list)
    creatures: int = 0
    per_creature: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        width = len(FIGURES) + self.sides
        self.wins = self.wins or [0] * self.sides
        self.sums = self.sums or [0] * width
        self.products = self.products or [0] * (width * width)
        self.per_creature = self.per_creature or [0] * (len(CREATURE_SUMS) * self.creatures)

    def add_creatures(self, fight: Fight, side_of: tuple[int, ...], figures: list[int]) -> None:
        """Add one run's per-creature figures (`CREATURE_SUMS`); *figures* are that run's `play` figures."""
        sums, width = self.per_creature, len(CREATURE_SUMS)
        for me, (dealt, down) in enumerate(zip(fight.dealt, fight.down)):
            side_dealt = figures[len(FIGURES) + side_of[me]]
            row = me * width
            sums[row] += down
            sums[row + 1] += dealt
            sums[row + 2] += dealt * dealt
            sums[row + 3] += dealt * side_dealt

    def add_run(self, winner: int | None, figures: list[int], loads: dict[int, int]) -> None:
        self.runs += 1
        if winner is None:
            self.draws += 1
        else:
            self.wins[winner] += 1
        self.rounds[figures[0]] = self.rounds.get(figures[0], 0) + 1
        for load, count in loads.items():
            self.loads[load] = self.loads.get(load, 0) + count
        width = len(figures)
        sums, products = self.sums, self.products
        nonzero = [(i, a) for i, a in enumerate(figures) if a]
        for i, a in nonzero:
            sums[i] += a
            row = i * width
            for j, b in nonzero:
                products[row + j] += a * b

    def merge(self, other: Tally) -> Tally:
        self.runs += other.runs
        self.draws += other.draws
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        for mine, theirs in ((self.rounds, other.rounds), (self.loads, other.loads)):
            for key, count in theirs.items():
                mine[key] = mine.get(key, 0) + count
        self.sums = [a + b for a, b in zip(self.sums, other.sums)]
        self.products = [a + b for a, b in zip(self.products, other.products)]
        self.per_creature = [
            a + b for a, b in zip(self.per_creature, other.per_creature)
        ] or other.per_creature
        self.creatures = max(self.creatures, other.creatures)
        return self


# Per creature, summed over runs: went down (0/1), damage dealt, its square, and its product
# with its side's damage (for the intervals of its damage per fight and its share of its side's).
CREATURE_SUMS: tuple[str, ...] = ("downs", "dealt", "dealt_squared", "dealt_by_side")


@dataclass
class Fight:
    """What `play` saw of each creature in one fight, when asked (its *fight* argument).

    Attributes:
        dealt: hp each creature's attacks took off (R16), in turn order.
        down: whether each creature was down when the fight ended (R18; the simulator never heals).
    """

    dealt: list[int] = field(default_factory=list)
    down: list[int] = field(default_factory=list)
