"""The simulator's two engines by name, and which one plays a setup (R11, R12, R20).

* ``reference`` (`d4cli.sim.engine`): one fight at a time through the very transitions of the
  commands, records and all; it can play every encounter the simulator accepts, and its
  recorded traces explain a fight step by step.
* ``batch`` (`d4cli.sim.batch`): many runs of one setup at once on arrays (numpy), in
  lockstep, under the same rules and policy. It plays a setup only when it can express all
  of it; `batch_limit` says what it cannot, and then the reference engine plays instead
  (never another policy).

`ENGINES` names each engine's ``run_chunk`` as ``module:function``; `chunk_player` imports
the one module a run needs, so numpy loads only when the batch engine plays (the engine
boundary, as the command list is the command boundary). Nothing here imports numpy.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from d4cli.rules.errors import InputError
from d4cli.sim.setup import Setup
from d4cli.sim.tally import Tally

# name -> "module:function" of its `run_chunk(setup, seed, mode, start, stop) -> Tally`.
ENGINES: dict[str, str] = {
    "batch": "d4cli.sim.batch:run_chunk",
    "reference": "d4cli.sim.engine:run_chunk",
}
DEFAULT = "batch"
# Runs the batch engine plays in lockstep from one seed: a piece of work is whole blocks, so
# the report is the same however the runs are split over processes or a cluster.
BLOCK = 8192
# What the batch engine's tables hold at most: creatures x Loads x creatures entries.
MAX_TABLE = 2_000_000
# Dice of one action the batch engine rolls at most (pool and extra dice, R5, R6).
MAX_BATCH_DICE = 256

ChunkPlayer = Callable[[Setup, int, str, int, int], Tally]


@dataclass(frozen=True)
class EngineChoice:
    """Which engine plays, and why not the one asked for.

    Attributes:
        name: the engine that plays (a key of `ENGINES`).
        asked: the engine asked for (the default is `DEFAULT`).
        reason: what the batch engine cannot express (one of `LIMITS`), when the reference
            engine plays although the batch engine was asked for; None otherwise.
    """

    name: str
    asked: str
    reason: str | None = None


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


# What the batch engine cannot express (`batch_limit`), by code; the words are the output's.
LIMITS: tuple[str, ...] = ("effects", "tables", "dice")


def batch_limit(setup: Setup) -> str | None:
    """What of *setup* the batch engine cannot express, as one of `LIMITS`; None when it can play it all.

    ``effects``: lasting effects or Team Action grants already on a creature (R11, R20: they
    change rolls and end at turn boundaries); ``tables``: tables of more than `MAX_TABLE`
    entries (creatures times Loads times creatures); ``dice``: an action that can roll more
    than `MAX_BATCH_DICE` dice (R5, R6).
    """
    creatures = setup.encounter.creatures
    if any(c.effects for c in creatures):
        return "effects"
    low, high = load_span(setup)
    if len(creatures) ** 2 * (high - low + 1) > MAX_TABLE:
        return "tables"
    for moves in setup.moves:
        for move in moves:
            dice = max(1, move.value + move.net) + sum(e.count for e in move.extra)
            if dice > MAX_BATCH_DICE:
                return "dice"
    return None


def check_engine(name: str | None, field: str = "engine") -> str | None:
    """An engine's name as given (None: the default, `DEFAULT`).

    Raises:
        InputError: naming *field*: not a key of `ENGINES`.
    """
    if name is not None and name not in ENGINES:
        raise InputError(field, name, "unknown engine; one of " + ", ".join(ENGINES))
    return name


def choose(setups: Sequence[Setup], asked: str | None = None) -> EngineChoice:
    """The engine that plays *setups*: *asked* (default `DEFAULT`) when it can play every one.

    Raises:
        ValueError: *asked* is not a key of `ENGINES` (the shell checks its option first).
    """
    wanted = DEFAULT if asked is None else asked
    if wanted not in ENGINES:
        raise ValueError(f"unknown engine {wanted!r}")
    if wanted == "batch":
        for setup in setups:
            reason = batch_limit(setup)
            if reason is not None:
                return EngineChoice("reference", wanted, reason)
    return EngineChoice(wanted, wanted)


def chunk_player(name: str) -> ChunkPlayer:
    """The ``run_chunk`` of engine *name*, its module imported now (`ENGINES`)."""
    module, _, function = ENGINES[name].partition(":")
    player: ChunkPlayer = getattr(importlib.import_module(module), function)
    return player


def piece_unit(name: str) -> int:
    """The runs a piece of work of engine *name* is a whole multiple of: `BLOCK` for the batch
    engine (its dice come per block), 1 for the reference engine (per run)."""
    return BLOCK if name == "batch" else 1
