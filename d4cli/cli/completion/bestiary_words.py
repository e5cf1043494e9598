"""Tab completion of the GM's bestiary: its templates (``init --from``, ``next --from``, beside
the bundled examples) and its creatures (``add --from``, ``next --add``).

Names come from the file names alone (`d4cli.api.bestiary.Bestiary.names`); a missing or
unreadable folder gives no bestiary names (the bundled examples still complete).
"""

from __future__ import annotations

from d4cli.api.bestiary import Bestiary
from d4cli.cli.bestiary_place import bestiary_folder
from d4cli.cli.completion import complete_example, matching


def _names() -> tuple[tuple[str, ...], tuple[str, ...]]:
    try:
        return Bestiary(bestiary_folder()).names()
    except Exception:  # noqa: BLE001 - a completer must never fail or print
        return (), ()


def complete_template(incomplete: str) -> list[str]:
    """The bestiary's templates, then the bundled examples, that start with *incomplete* (N1)."""
    templates, _ = _names()
    return matching([*matching(templates, incomplete), *complete_example(incomplete)], "")


def complete_bestiary_creature(incomplete: str) -> list[str]:
    """The bestiary's creatures that start with *incomplete* (N1)."""
    _, creatures = _names()
    return matching(creatures, incomplete)
