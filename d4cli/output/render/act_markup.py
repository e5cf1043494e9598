"""Rich markup around a roll a creature makes (``act``, ``check``): the table's title, the lines under it.

Markup only: no Rich table is built here.
Every name goes through `escape` (N1).
"""

from __future__ import annotations

from typing import Any

from d4cli.fight.actions import ActRecord
from d4cli.fight.encounter_state import same_name
from d4cli.journal.effect_facts import end_reason
from d4cli.output.render import escape


def act_title(record: ActRecord, *, dry_run: bool = False) -> str:
    """The title of an act's steps table (markup): ``Aria: Finesse``, ``Aria: dagger (Finesse)`` for a
    named action, ``(off-turn, R10)``, ``(GM-called, R9)``, ``(dry run)``."""
    title = f"{escape(record.actor)}: {escape(record.aspect)}"
    if record.action is not None:
        title = f"{escape(record.actor)}: {escape(record.action)} ({escape(record.aspect)})"
    if record.result.plan.request.gm:
        title += " (GM-called, R9)"
    elif record.off_turn:
        title += " (off-turn, R10)"
    if dry_run:
        title += " (dry run)"
    return title


def used_up_lines(record: Any) -> list[str]:
    """What a roll (an act or a check: *record* with ``grants_used`` and ``effects_ended``) used up:
    its Team Action grants (R11), then the lasting effects it ended (R20), one line each (markup)."""
    used = [f"+{escape(n)}" for n in record.grants_used.advantage]
    used += [f"-{escape(n)}" for n in record.grants_used.disadvantage]
    lines = [f"Team Action grants used up: {', '.join(used)} (R11)"] if used else []

    for gone in record.effects_ended:
        if gone.effect.origin != "team":
            lines.append(
                f"{escape(gone.effect.source)} on {escape(gone.creature)} ended: {escape(end_reason(gone))} (R20)"
            )
    return lines


def act_lines(record: ActRecord, *, dry_run: bool = False) -> list[str]:
    """The lines under an act's table (markup): grants and effects used up, damage to hp, dry run (R11, R16, R18, R20)."""
    lines = used_up_lines(record)
    if record.target is not None and same_name(record.target, record.actor):
        lines.append(
            f"{escape(record.actor)} acts against itself: its own Evasion and hp (R7, R16)"
        )
    if record.target_down and record.target is not None:
        lines.append(f"{escape(record.target)} is already down (R18): hp stays 0")
    elif record.hp_after is not None and record.target is not None:
        lines.append(f"{escape(record.target)}: HP {record.hp_before} -> {record.hp_after} (R16)")
        if record.hp_zero:
            lines.append(f"[red bold]{escape(record.target)} is at 0 HP: down[/] (R16, R18)")
    if record.fight_over is not None and record.fight_over.winner is not None:
        lines.append(f"[bold]The fight is over[/], won by {escape(record.fight_over.winner)} (R18)")
    elif record.fight_over is not None:
        lines.append("[bold]The fight is over[/]: everyone is down (R21)")
    if dry_run:
        lines.append("Dry run: nothing was written.")
    return lines
