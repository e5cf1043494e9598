"""What the players see, as the GM's screens say it: the one-line summaries of ``reveal``,
``conceal`` and ``alias`` (from the journal's plain entries, like
`d4cli.output.render.encounter.summary`), and the marks beside a creature's name on the GM's
``status`` of what the players do not see (hidden, an alias).
"""

from __future__ import annotations

from typing import Any

from d4cli.fight.encounter import Creature
from d4cli.output.render import escape


def view_summary(entry: dict[str, Any]) -> str:
    """One line (Rich markup) for a ``reveal``, ``conceal`` or ``alias`` journal entry."""
    kind = entry.get("kind")
    actor = "[bold]" + escape(str(entry.get("actor"))) + "[/]"
    if kind == "reveal":
        return f"{actor} is on the player view" + (
            "" if entry.get("hidden_before") else " (it was not hidden)"
        )
    if kind == "conceal":
        return f"{actor} is hidden from the player view" + (
            "" if not entry.get("hidden_before") else " (it already was)"
        )
    after = entry.get("alias_after")
    if after is None:
        return f"{actor} is shown to the players by its own name"
    return f"{actor} is shown to the players as '{escape(str(after))}'"


def gm_marks(creature: Creature, *, side: bool = True) -> str:
    """``foes, hidden, as 'Sniper'``: its side (with *side*) and what the players see otherwise
    of it (R20); "" when there is nothing to say."""
    marks = [escape(creature.side)] if creature.side and side else []
    if creature.hidden:
        marks.append("hidden")
    if creature.alias:
        marks.append(f"as '{escape(creature.alias)}'")
    return ", ".join(marks)


def gm_name(creature: Creature, *, side: bool = True) -> str:
    """The creature's name with its `gm_marks` in parentheses: ``Goblin Archer (foes, as 'Sniper')``."""
    marks = gm_marks(creature, side=side)
    return escape(creature.name) + (f" [dim]({marks})[/]" if marks else "")
