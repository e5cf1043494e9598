"""One-line summaries of the changes of what the players see: ``reveal``, ``conceal``, ``alias``.

They read the journal's plain entries, like `d4cli.output.render.encounter.summary`.
"""

from __future__ import annotations

from typing import Any

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
