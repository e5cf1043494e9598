"""What changed for a seat's request since it was sent, in words: what ``approve`` tells the GM
and what a denial for it tells the seat (`d4cli.fight.request_sight.Changed` records).

The words name only what the seat itself saw: its target as it named it, its own Load and pool,
effect sources as its page names them, and the round (never whose turn it is: that creature may
be hidden).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from d4cli.fight.request_sight import Changed


def change_line(change: Changed, target: str | None) -> str:
    """One change in a few words, with its rule id: ``Goblin 2 is down now (R18)``,
    ``Load 1 -> 3 (R8)``, ``pool 5d4 -> 3d4 (R5)``, ``effect 'blessed' (+1d4) ended (R20)``,
    ``the turn moved on: round 1 -> round 2 (R13)``."""
    kind, before, after = change
    if kind == "target_down":
        return f"{target or 'the target'} is down now (R18)"
    if kind == "load":
        return f"Load {before} -> {after} (R8)"
    if kind == "pool":
        return f"pool {_pool(before)} -> {_pool(after)} (R5)"
    if kind in ("effect_ended", "effect_began"):
        source, grant = before if kind == "effect_ended" else after
        word = "ended" if kind == "effect_ended" else "began"
        return f"effect '{source}' ({_sign(grant)}) {word} (R20)"
    (round_then, _), (round_now, _) = before, after
    if round_then == round_now:
        return f"the turn moved on in round {round_now} (R13)"
    return f"the turn moved on: round {round_then} -> round {round_now} (R13)"


def changes_text(number: int, changes: Sequence[Changed], target: str | None) -> str:
    """``request 6: since it was sent, Goblin 2 is down now (R18); Load 1 -> 3 (R8)``."""
    return f"request {number}: since it was sent, " + "; ".join(
        change_line(change, target) for change in changes
    )


def denial_reason(changes: Sequence[Changed], target: str | None) -> str:
    """The reason a seat reads when the GM denies its request for what changed (one line)."""
    return "the table changed since you sent it: " + "; ".join(
        change_line(change, target) for change in changes
    )


def _pool(size: Any) -> str:
    return f"{size}d4" if size else "no roll"


def _sign(grant: str) -> str:
    return "+1d4" if grant == "advantage" else "-1d4"
