"""The simulator's runs cut into pieces of work, played here or on a process pool or a given executor.

`run_all` splits every setup's runs into pieces (`chunks`); a piece is the ``run_chunk``
of the engine that plays (`d4cli.sim.engines`: the batch engine when it can express the
setups, else the reference engine `d4cli.sim.engine`). A worker's d4cli error comes back as data and is
raised again in the parent as the same error (exit 2 or 3, never a broken
pool). The local pool has at most one worker per piece; it is always shut
down waiting for its threads (a shutdown without waiting races the
interpreter's exit hook and can print a traceback); on Ctrl-C or a failure its
workers are stopped first.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import signal
from collections.abc import Callable
from concurrent.futures import Executor, as_completed
from typing import Any

from d4cli.rules.errors import InputError, RefusedError
from d4cli.sim.engines import EngineChoice, choose, chunk_player, piece_unit
from d4cli.sim.setup import Setup
from d4cli.sim.tally import Tally

# What a worker hands back for a d4cli error (`_run_piece`): its kind and its class's arguments.
Failure = tuple[str, tuple[Any, ...]]


# Fewer runs than this (all setups together) the batch engine plays in this process: a pool
# of processes would cost more to start than it saves.
LOCAL_BATCH_RUNS = 100_000


def chunks(runs: int, jobs: int, unit: int = 1) -> list[tuple[int, int]]:
    """Split ``range(runs)`` into pieces: about four per job, at most 20,000 runs each (or one
    *unit*), every piece but the last a whole number of *unit* runs."""
    units = -(-runs // unit)
    pieces = max(1, min(units, max(jobs * 4, runs // 20_000)))
    size = -(-units // pieces) * unit
    return [(start, min(start + size, runs)) for start in range(0, runs, size)]


def run_all(
    setups: list[tuple[str, str, Setup]],
    runs: int,
    seed: int,
    jobs: int,
    progress: Callable[[int], None] | None = None,
    executor: Executor | None = None,
    engine: EngineChoice | None = None,
) -> dict[str, Tally]:
    """Play *runs* fights of every ``(label, mode, setup)``, split over *jobs* processes.

    *executor* (any `concurrent.futures.Executor`) replaces the local process
    pool; *progress* is called with the runs each finished piece played; *engine*
    (`d4cli.sim.engines.choose`) says which engine plays, by default the batch engine
    when it can express every setup. The result does not depend on *jobs* nor on the
    executor: every run (reference engine) or block of runs (batch engine) has its own seed.

    Returns:
        The merged `Tally` of each label.
    """
    choice = engine or choose([setup for _, _, setup in setups])
    tallies = {
        label: Tally(len(setup.sides), creatures=len(setup.side_of)) for label, _, setup in setups
    }
    tasks = [
        (label, mode, setup, start, stop)
        for label, mode, setup in setups
        for start, stop in chunks(runs, jobs, piece_unit(choice.name))
    ]
    local = choice.name == "batch" and runs * len(setups) < LOCAL_BATCH_RUNS
    if executor is None and (jobs <= 1 or local):
        play = chunk_player(choice.name)
        for label, mode, setup, start, stop in tasks:
            tallies[label].merge(play(setup, seed, mode, start, stop))
            if progress is not None:
                progress(stop - start)
        return tallies
    return run_pieces(tasks, tallies, seed, jobs, progress, executor, choice.name)


def run_pieces(
    tasks: list[tuple[str, str, Setup, int, int]],
    tallies: dict[str, Tally],
    seed: int,
    jobs: int,
    progress: Callable[[int], None] | None,
    executor: Executor | None,
    engine: str = "reference",
) -> dict[str, Tally]:
    """Play every ``(label, mode, setup, start, stop)`` piece with *engine* (`d4cli.sim.engines.ENGINES`)
    on *executor* or on at most *jobs* local processes.

    Each piece's `Tally` merges into *tallies* by label; *progress* gets its run count.

    Raises:
        InputError / RefusedError: one raised in a worker, as it was raised there.
    """
    pool = executor
    if pool is None:
        # Looked up on the module when used (a test counts the pools made).
        pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=min(jobs, len(tasks)),
            mp_context=multiprocessing.get_context("fork"),
            initializer=_ignore_interrupts,
        )
    try:
        futures = {
            pool.submit(_run_piece, setup, seed, mode, start, stop, engine): (label, stop - start)
            for label, mode, setup, start, stop in tasks
        }
        for future in as_completed(futures):
            label, size = futures[future]
            tallies[label].merge(_unwrap(future.result()))
            if progress is not None:
                progress(size)
    except BaseException:
        # Ctrl-C (or a failure): stop the workers now rather than after their pieces, then wait for
        # the pool to close (a shutdown without waiting races the interpreter's exit hook).
        if executor is None:
            processes = getattr(pool, "_processes", None) or {}
            for process in list(processes.values()):
                process.terminate()
            pool.shutdown(wait=True, cancel_futures=True)
        raise
    if executor is None:
        pool.shutdown(wait=True)
    return tallies


def _run_piece(
    setup: Setup, seed: int, mode: str, start: int, stop: int, engine: str = "reference"
) -> Tally | Failure:
    """*engine*'s `run_chunk` in a worker: a d4cli error comes back as data (its class's arguments do not pickle)."""
    try:  # `run_chunk` looked up now: a stand-in set on its module reaches the forked workers
        return chunk_player(engine)(setup, seed, mode, start, stop)
    except InputError as error:
        return ("input", (error.field, error.value, error.problem))
    except RefusedError as error:
        return ("refused", (str(error),))


def _unwrap(result: Tally | Failure) -> Tally:
    """A worker's `Tally`, or its error raised here as the very error it was."""
    if not isinstance(result, tuple):
        return result
    kind, args = result
    raise InputError(*args) if kind == "input" else RefusedError(*args)


def _ignore_interrupts() -> None:
    """In a worker: leave Ctrl-C to the parent, which stops the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
