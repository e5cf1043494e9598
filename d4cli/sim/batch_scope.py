"""What the batch engine can express: its blocks of runs, the Loads its tables span, its limits (R2, R5, R6, R11, R20).

Plain Python (no numpy): `d4cli.sim.engines` reads it to choose an engine before any
array is made, and `d4cli.sim.batch` and `d4cli.sim.batch_tables` build on it.
"""

from __future__ import annotations

from d4cli.sim.setup import Setup

# Runs the batch engine plays in lockstep from one seed: a piece of work is whole blocks, so
# the report is the same however the runs are split over processes or a cluster.
BLOCK = 8192
# What the batch engine's tables hold at most: creatures x Loads x creatures entries.
MAX_TABLE = 2_000_000
# Dice of one action the batch engine rolls at most (pool and extra dice, R5, R6).
MAX_BATCH_DICE = 256
# Lasting effects (R20) the batch engine follows at most: its net Advantage table holds each
# move's net for every set of them that can apply (2 ** MAX_EFFECTS sets).
MAX_EFFECTS = 8
# What the batch engine cannot express (`batch_limit`), by code; the words are the output's.
LIMITS: tuple[str, ...] = ("effects", "tables", "dice")


def load_span(setup: Setup) -> tuple[int, int]:
    """The lowest and highest Load any creature can have in a fight of *setup* (R1, R2, R8, R12).

    Loads start at the file's or the reset value and only rise, by a Cost the gate allowed
    (so to at most the Aspect paid with) or by a reaction's Cost of 1 (the same).
    """
    encounter = setup.encounter
    low = min(min(c.load, encounter.reset_to(c)) for c in encounter.creatures)
    high = max(
        max([c.load, encounter.reset_to(c), *(value for _, value in c.aspects)])
        for c in encounter.creatures
    )
    return low, high


def batch_limit(setup: Setup) -> str | None:
    """What of *setup* the batch engine cannot express, as one of `LIMITS`; None when it can play it all.

    ``effects``: more than `MAX_EFFECTS` lasting effects and Team Action grants on the
    creatures (R11, R20); ``tables``: tables of more than `MAX_TABLE`
    entries (creatures times Loads times creatures); ``dice``: an action that can roll more
    than `MAX_BATCH_DICE` dice (R5, R6).
    """
    creatures = setup.encounter.creatures
    effects = [effect for c in creatures for effect in c.effects]
    if len(effects) > MAX_EFFECTS:
        return "effects"
    # Each Advantage effect may add a d4 to a pool (R4, R5, R20).
    lifts = len({e.key for e in effects if e.grant == "advantage"})
    low, high = load_span(setup)
    if len(creatures) ** 2 * (high - low + 1) > MAX_TABLE:
        return "tables"
    for moves in setup.moves:
        for move in moves:
            dice = max(1, move.value + move.net + lifts) + sum(e.count for e in move.extra)
            if dice > MAX_BATCH_DICE:
                return "dice"
    return None
