"""``roll pool --times N --json`` at speed: one JSON line per roll, written in blocks.

The first roll is made and printed as any single roll (so ``--seed S --times N`` begins
with the roll that ``--seed S`` alone makes); the following rolls draw their d4s in
batches (`d4cli.sim.batched_dice.times_dice`, as ``--quiet`` and the summary do), a block of
rolls at a time (`d4cli.rules.pool.roll_pools`). Each roll is the rules' own
`d4cli.rules.pool.PoolResult`, and its line the serializer's text of it
(`d4cli.output.serialize.rolls_json.pool_lines`: the same bytes as ``json.dumps`` of its object).
Each block of `BLOCK` lines goes out as soon as it is made (a few milliseconds), so a
reader of a live pipe sees them promptly, whole even when Ctrl-C stops the run
(`d4cli.output.line_guard.LineBoundary`).

Only for a pool the gate allows, from a random source with ``choices``; otherwise
`write_pool_lines` returns False and the caller uses the general printer.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from d4cli.output.line_guard import LineBoundary
from d4cli.output.serialize.rolls_json import pool_lines
from d4cli.rules.pool import PoolPlan, PoolResult, roll_pool, roll_pools
from d4cli.sim.batched_dice import times_dice

BLOCK = 2048  # rolls made and written per block


def write_pool_lines(
    plan: PoolPlan, rng: Any, count: int, to_json: Callable[[PoolResult], dict[str, Any]]
) -> bool:
    """Print *count* rolls of *plan* as JSON Lines; False (nothing printed) when the fast path does not apply.

    Args:
        plan: an allowed pool.
        rng: ``random.Random`` (its ``choices`` draws the batches).
        count: how many rolls, 2 or more.
        to_json: the object of one roll (`d4cli.journal.roll_facts.pool_json`, with ``odds`` when asked).
    """

    if not plan.gate.allowed or not hasattr(rng, "choices"):
        return False
    first = roll_pool(plan, rng)
    line = pool_lines(to_json, first)
    out = sys.stdout
    out.write(line(first) + "\n")  # first through the stream: a closed stdout stops here
    out.flush()
    dice = times_dice(rng)
    left = count - 1
    with LineBoundary() as boundary:
        while left > 0:
            rolls = min(BLOCK, left)
            left -= rolls
            boundary.write(out, "\n".join(map(line, roll_pools(plan, dice, rolls))) + "\n")
    return True
