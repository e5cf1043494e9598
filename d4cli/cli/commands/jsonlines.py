"""``roll pool --times N --json`` at speed: JSON Lines built from what changes between rolls.

Of a pool object's keys only ``dice``, ``total``, ``success`` and ``damage``
change from one roll to the next (R7); the rest is fixed by the plan. The first
roll is made and printed as any single roll (so ``--seed S --times N`` begins
with the roll that ``--seed S`` alone makes); its object, with those four keys
left open, becomes a template split around them. The following rolls draw
their d4s in batches (``random.Random.choices``, one call per block of rolls)
and fill the template, so each line is the same JSON object that
`d4cli.output.serialize.pool_json` would give for the same dice. Each block of
`BLOCK` lines goes out as soon as it is made (a few milliseconds), so a reader of a
live pipe sees them promptly, whole even when Ctrl-C stops the run
(`d4cli.cli.commands.line_guard.LineBoundary`).

Only for a pool the gate allows, without extra dice (R6), from a random source
with ``choices``; otherwise `write_pool_lines` returns False and the caller
uses the general printer.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from d4cli.cli.commands.line_guard import LineBoundary

if TYPE_CHECKING:
    from d4cli.rules.pool import PoolPlan, PoolResult

BLOCK = 2048  # rolls drawn and written per block
FACES = (1, 2, 3, 4)
_OPEN = ("dice", "total", "success", "damage")


def _template(obj: dict[str, Any]) -> list[str]:
    """The JSON text of *obj* cut around the values of `_OPEN`, in key order: five pieces."""
    marked = dict(obj)
    for key in _OPEN:
        marked[key] = f"\x00{key}\x00"
    text = json.dumps(marked)
    pieces = []
    for key in _OPEN:
        head, _, text = text.partition(json.dumps(f"\x00{key}\x00"))
        pieces.append(head)
    pieces.append(text)
    return pieces


def write_pool_lines(
    plan: PoolPlan, rng: Any, count: int, to_json: Callable[[PoolResult], dict[str, Any]]
) -> bool:
    """Print *count* rolls of *plan* as JSON Lines; False (nothing printed) when the fast path does not apply.

    Args:
        plan: an allowed pool without extra dice.
        rng: ``random.Random`` (its ``choices`` draws the batches).
        count: how many rolls, 2 or more.
        to_json: the object of one roll (`d4cli.output.serialize.pool_json`, with ``odds`` when asked).
    """
    from d4cli.rules.pool import roll_pool

    if not plan.gate.allowed or plan.request.extra or not hasattr(rng, "choices"):
        return False
    first = roll_pool(plan, rng)
    obj = to_json(first)
    if list(obj).count("dice") != 1 or any(key not in obj for key in _OPEN):
        return False
    out = sys.stdout
    out.write(json.dumps(obj) + "\n")  # first through the stream: a closed stdout stops here
    out.flush()
    with LineBoundary() as boundary:
        _write_rest(plan, rng, count, obj, out, boundary)
    return True


def _write_rest(plan: PoolPlan, rng: Any, count: int, obj: dict[str, Any], out: Any, boundary: LineBoundary) -> None:
    """Rolls 2..*count* of `write_pool_lines`, in blocks of whole lines; Ctrl-C stops between blocks."""
    head, before_total, before_success, before_damage, tail = _template(obj)
    dc, evasion = plan.request.dc, plan.request.evasion
    size = plan.size.size
    choices = rng.choices
    left = count - 1
    if dc is not None:
        middle, end = before_success, before_damage + "null" + tail
    elif evasion is not None:
        middle, end = before_success + "null" + before_damage, tail
    else:
        middle, end = before_success + "null" + before_damage + "null" + tail, ""
    while left > 0:
        rolls = min(BLOCK, left)
        left -= rolls
        flat = choices(FACES, k=size * rolls)
        lines: list[str] = []
        append = lines.append
        for start in range(0, size * rolls, size):
            dice = flat[start : start + size]
            total = sum(dice)
            if dc is not None:
                append(f"{head}{dice}{before_total}{total}{middle}{'true' if total >= dc else 'false'}{end}")
            elif evasion is not None:
                append(f"{head}{dice}{before_total}{total}{middle}{total - evasion if total > evasion else 0}{end}")
            else:
                append(f"{head}{dice}{before_total}{total}{middle}")
        boundary.write(out, "\n".join(lines) + "\n")

