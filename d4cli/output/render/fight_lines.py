"""One-line summaries of the fight's changes: ``move``, ``damage``, ``heal`` (R13, R16, R18, R19).

They read the journal's entries typed (`d4cli.journal.changes`), like
`d4cli.output.render.entry_lines.summary`.
"""

from __future__ import annotations

from d4cli.journal.changes import HpChange, MoveChange
from d4cli.journal.roll_facts import DiceFacts
from d4cli.output.render import escape


def _name(value: object) -> str:
    return "[bold]" + escape(str(value)) + "[/]" if value is not None else "nobody"


def _next(follower: str | None) -> str:
    return f"next: {_name(follower)}" if follower else "the next turn starts a new round"


def move_summary(move: MoveChange) -> str:
    """One line (Rich markup) for a ``move`` (R13, R19)."""
    order = ", ".join(escape(name) for name in move.order)
    return (
        f"moved {_name(move.actor)} from place {move.position_before} to {move.position_after}"
        f" (R13): {order}; {_next(move.next)}"
    )


def hp_summary(change: HpChange, *, same_roll: bool = False) -> str:
    """One line (Rich markup) for a ``damage`` or ``heal`` (R16, R18, R19); *same_roll*: a part
    of a change of several after the first, whose amount is the first line's dice."""
    actor = _name(change.actor)
    amount = change.amount
    given = f"{amount}{' (the same roll)' if same_roll else _rolled(change.roll)}"
    before, after = change.hp_before, change.hp_after
    if after is None:
        return f"{actor} takes {given} damage; it has no hp, so nothing changes (R16)"
    cap = f" of {change.max_hp}" if change.max_hp is not None else ""
    damage = change.kind == "damage"
    text = f"{actor} {'takes' if damage else 'heals'} {given}: HP {before} -> {after}{cap}"
    if damage:
        if change.down_before:
            return text + " [red bold](already down, R18)[/]"
        if change.down_after:
            return text + " [red bold](down: its turns are skipped, R18)[/]"
        return text + " (R16)"
    if change.down_before and not change.down_after:
        if change.next_round:
            round_ = change.round or 0
            later = f"; round {change.round} is done for it: its next turn is in round {round_ + 1} (R19)"
            return text + f" [green](back in the turn order, R18)[/]{later}"
        return text + " [green](back in the turn order, R18)[/]"
    if (
        change.max_hp is not None
        and after == change.max_hp
        and (before or 0) + (amount or 0) > after
    ):
        return text + " (stops at max_hp, R18)"
    return text + " (R18)"


def _rolled(roll: DiceFacts | None) -> str:
    """`` (2d6+1: 4 2 +1 = 7)``: the dice that gave a damage or heal amount; "" for a number."""
    if roll is None:
        return ""
    parts = []
    for term in roll.terms:
        shown = " ".join(str(die) for die in term.dice)
        modifier = term.modifier or 0
        parts.append(shown + (f" {modifier:+d}" if modifier else ""))
    total = roll.total
    below = "; below 0 takes nothing" if isinstance(total, int) and total < 0 else ""
    return f" ({escape(str(roll.expression))}: {' + '.join(parts)} = {total}{below})"
