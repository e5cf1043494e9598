"""Notes for changes that did what was typed but perhaps not what the GM meant (on stderr).

A creature added without a side while the encounter has a party stands apart from it on
the players' screens; a creature of the party taken off the player view is gone from the
party's own screens too (R20). Each note names the creatures and what to type instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from d4cli.api.encounter import Encounter
from d4cli.api.front_ends import PlayerView
from d4cli.output.wrap import say


def say_note(line: str | None) -> None:
    """``d4cli: note: LINE`` on stderr, wrapped on a terminal (nothing for None)."""
    if line is not None:
        say("d4cli: note: ", line)


def record_names(record: Any) -> list[str]:
    """The creatures a change's record is about: its ``names`` (several, ``add --count``),
    else its ``actor``."""
    names = getattr(record, "names", ()) or (getattr(record, "actor", None),)
    return [str(name) for name in names if name is not None]


def _party(encounter: Encounter) -> PlayerView:
    return encounter.player_view or PlayerView()


def unsided_note(encounter: Encounter, names: Iterable[str]) -> str | None:
    """The note for *names* just added without a side to an encounter that has a party."""
    view = _party(encounter)
    if not any(view.is_party(creature.side) for creature in encounter.creatures):
        return None
    unsided = [c.name for c in encounter.creatures if c.name in set(names) and not c.side]
    if not unsided:
        return None
    return (
        f"{', '.join(unsided)} {'has' if len(unsided) == 1 else 'have'} no side: the players see "
        f"{'it' if len(unsided) == 1 else 'them'} apart from the party (no headroom, HP as "
        f"others_hp); give --side {view.party} or another side to place {'it' if len(unsided) == 1 else 'them'}"
    )


def party_hidden_note(encounter: Encounter, names: Iterable[str]) -> str | None:
    """The note for *names* just hidden that are of the party: its own screens lose them too."""
    view = _party(encounter)
    wanted = set(names)
    hidden = [
        c.name
        for c in encounter.creatures
        if c.name in wanted and c.hidden and view.is_party(c.side)
    ]
    if not hidden:
        return None
    return (
        f"{', '.join(hidden)} {'is' if len(hidden) == 1 else 'are'} of the party: the players' "
        "screens, the party's own included, no longer show "
        f"{'it' if len(hidden) == 1 else 'them'} ('d4cli reveal' puts {'it' if len(hidden) == 1 else 'them'} back)"
    )
