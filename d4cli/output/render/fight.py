"""One-line summaries of the fight's changes: ``move``, ``damage``, ``heal`` (R13, R16, R18, R19).

They read the journal's plain entries, like `d4cli.output.render.encounter.summary`.
"""

from __future__ import annotations

from typing import Any

from d4cli.output.render import escape

# A part of a change of several creatures whose amount is the dice of the first part's line.
SAME_ROLL = "same"


def _name(value: object) -> str:
    return "[bold]" + escape(str(value)) + "[/]" if value is not None else "nobody"


def _next(entry: dict[str, Any]) -> str:
    follower = entry.get("next")
    return f"next: {_name(follower)}" if follower else "the next turn starts a new round"


def fight_summary(entry: dict[str, Any]) -> str:
    """One line (Rich markup) for a ``move``, ``damage`` or ``heal`` journal entry."""
    kind = entry.get("kind")
    actor = _name(entry.get("actor"))
    if kind == "move":
        order = ", ".join(escape(str(name)) for name in entry.get("order", []))
        return (
            f"moved {actor} from place {entry.get('position_before')} to {entry.get('position_after')}"
            f" (R13): {order}; {_next(entry)}"
        )
    amount = entry.get("amount")
    given = f"{amount}{_rolled(entry.get('roll'))}"
    before, after = entry.get("hp_before"), entry.get("hp_after")
    if after is None:
        return f"{actor} takes {given} damage; it has no hp, so nothing changes (R16)"
    cap = f" of {entry['max_hp']}" if entry.get("max_hp") is not None else ""
    text = (
        f"{actor} {'takes' if kind == 'damage' else 'heals'} {given}: HP {before} -> {after}{cap}"
    )
    if kind == "damage":
        if entry.get("down_before"):
            return text + " [red bold](already down, R18)[/]"
        if entry.get("down_after"):
            return text + " [red bold](down: its turns are skipped, R18)[/]"
        return text + " (R16)"
    if entry.get("down_before") and not entry.get("down_after"):
        if entry.get("next_round"):
            later = f"; round {entry.get('round')} is done for it: its next turn is in round {(entry.get('round') or 0) + 1} (R19)"
            return text + f" [green](back in the turn order, R18)[/]{later}"
        return text + " [green](back in the turn order, R18)[/]"
    if (
        entry.get("max_hp") is not None
        and after == entry["max_hp"]
        and (before or 0) + (amount or 0) > after
    ):
        return text + " (stops at max_hp, R18)"
    return text + " (R18)"


def _rolled(roll: object) -> str:
    """`` (2d6+1: 4 2 +1 = 7)``: the dice that gave a damage or heal amount; "" for a number."""
    if roll == SAME_ROLL:
        return " (the same roll)"
    if not isinstance(roll, dict):
        return ""
    parts = []
    for term in roll.get("terms") or ():
        shown = " ".join(str(die) for die in term.get("dice") or ())
        modifier = term.get("modifier") or 0
        parts.append(shown + (f" {modifier:+d}" if modifier else ""))
    total = roll.get("total")
    below = "; below 0 takes nothing" if isinstance(total, int) and total < 0 else ""
    return f" ({escape(str(roll.get('expression')))}: {' + '.join(parts)} = {total}{below})"
