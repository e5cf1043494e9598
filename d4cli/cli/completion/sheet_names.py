"""Tab completion of sheet names: a creature's attributes, proficiencies, specializations, actions (C8)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from d4cli.cli.completion import matching
from d4cli.cli.completion.creatures import creatures_on_line, named_creature


def complete_stat(kind: str) -> Callable[[Any, str], list[str]]:
    """A completer of the *kind* names (``attributes``, ``actions`` ...) of the creature already typed."""

    def complete(ctx: Any, incomplete: str) -> list[str]:
        try:
            creature = named_creature(ctx, creatures_on_line(ctx))
            if creature is None:
                return []
            if kind == "actions":
                names = [action.name for action in creature.actions]
            elif kind == "aspects+actions":
                names = [name for name, _ in creature.aspects] + [
                    action.name for action in creature.actions
                ]
            else:
                names = [name for name, _ in getattr(creature, kind)]
            return matching((str(name) for name in names), incomplete)
        except Exception:  # noqa: BLE001
            return []

    return complete


complete_attribute = complete_stat("attributes")
complete_proficiency = complete_stat("proficiencies")
complete_specialization = complete_stat("specializations")
complete_action = complete_stat("actions")
complete_aspect_or_action = complete_stat("aspects+actions")
