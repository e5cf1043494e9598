"""What the players see, as the GM's screens say it: the one-line summaries of ``reveal``,
``conceal`` and ``alias`` (from the journal's entries read typed, like
`d4cli.output.render.entry_lines.summary`), and the marks beside a creature's name on the GM's
``status`` of what the players do not see (hidden, an alias).
"""

from __future__ import annotations

from d4cli.fight.encounter_state import Creature
from d4cli.journal.changes import ViewChange
from d4cli.output.render import escape


def view_summary(change: ViewChange) -> str:
    """One line (Rich markup) for a ``reveal``, ``conceal`` or ``alias`` journal entry."""
    actor = "[bold]" + escape(str(change.actor)) + "[/]"
    if change.kind == "reveal":
        return f"{actor} is on the player view" + (
            "" if change.hidden_before else " (it was not hidden)"
        )
    if change.kind == "conceal":
        return f"{actor} is hidden from the player view" + (
            "" if not change.hidden_before else " (it already was)"
        )
    if change.alias_after is None:
        return f"{actor} is shown to the players by its own name"
    return f"{actor} is shown to the players as '{escape(change.alias_after)}'"


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
