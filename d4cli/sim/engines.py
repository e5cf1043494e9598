"""The simulator's two engines by name, and which one plays a setup (R11, R12, R20).

* ``reference`` (`d4cli.sim.engine`): one fight at a time through the very transitions of the
  commands, records and all; it can play every encounter the simulator accepts, and its
  recorded traces explain a fight step by step.
* ``batch`` (`d4cli.sim.batch`): many runs of one setup at once on arrays (numpy), in
  lockstep, under the same rules and policy. It plays a setup only when it can express all
  of it (`d4cli.sim.batch_scope.batch_limit`); else the reference engine plays instead,
  never another policy, and the choice says why.

`ENGINES` gives each engine's ``run_chunk``; the batch engine's module is imported only when
it plays, so numpy loads on that path alone (the engine boundary, as the command list is the
command boundary). Nothing else here needs numpy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from d4cli.rules.errors import InputError
from d4cli.sim import engine
from d4cli.sim.batch_scope import BLOCK, batch_limit
from d4cli.sim.setup import Setup
from d4cli.sim.tally import Tally

ChunkPlayer = Callable[[Setup, int, str, int, int], Tally]


def _batch() -> ChunkPlayer:
    # Deferred: numpy loads only when the batch engine plays (never on another command's start-up).
    from d4cli.sim import batch

    return batch.run_chunk


def _reference() -> ChunkPlayer:
    return engine.run_chunk  # looked up when asked: a stand-in set on the module is found


# name -> the function that gives its `run_chunk(setup, seed, mode, start, stop) -> Tally`.
ENGINES: dict[str, Callable[[], ChunkPlayer]] = {"batch": _batch, "reference": _reference}
DEFAULT = "batch"


@dataclass(frozen=True)
class EngineChoice:
    """Which engine plays, and why not the one asked for.

    Attributes:
        name: the engine that plays (a key of `ENGINES`).
        asked: the engine asked for (the default is `DEFAULT`).
        reason: what the batch engine cannot express (one of
            `d4cli.sim.batch_scope.LIMITS`), when the reference engine plays although the
            batch engine was asked for; None otherwise.
    """

    name: str
    asked: str
    reason: str | None = None


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
        InputError: *asked* is not a key of `ENGINES` (`check_engine`).
    """
    wanted = check_engine(asked) or DEFAULT
    if wanted == "batch":
        for setup in setups:
            reason = batch_limit(setup)
            if reason is not None:
                return EngineChoice("reference", wanted, reason)
    return EngineChoice(wanted, wanted)


def chunk_player(name: str) -> ChunkPlayer:
    """The ``run_chunk`` of engine *name* (`ENGINES`)."""
    return ENGINES[name]()


def piece_unit(name: str) -> int:
    """The runs a piece of work of engine *name* is a whole multiple of: `BLOCK` for the batch
    engine (its dice come per block), 1 for the reference engine (per run)."""
    return BLOCK if name == "batch" else 1
