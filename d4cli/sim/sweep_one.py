"""A sweep over one creature's setting: ``reserve:NAME`` (its policy's reserve) or ``buffer:NAME`` (its Load Buffer, R1).

Pure: the encounter with that creature's value changed, for `d4cli.sim.setup.prepare`.
"""

from __future__ import annotations

from d4cli.fight.encounter import Encounter
from d4cli.rules.errors import InputError


def split_key(key: str) -> tuple[str, str | None]:
    """``reserve:Aria`` -> ("reserve", "Aria"); ``reserve`` -> ("reserve", None)."""
    base, colon, name = key.partition(":")
    return (base, name) if colon else (base, None)


def with_setting(encounter: Encounter, key: str, name: str, value: int) -> Encounter:
    """*encounter* with creature *name*'s *key* (``reserve`` or ``buffer``) set to *value*.

    Raises:
        InputError: naming ``sweep``: no creature called *name* (N1).
    """
    try:
        position = encounter.position_of(name, "sweep")
    except InputError as error:
        raise InputError("sweep", f"{key}:{name}", error.problem, mentions=error.mentions) from None
    creature = encounter.creatures[position]
    if key == "buffer":
        changed = creature._replace(load_buffer=value)
    else:
        changed = creature._replace(
            policy=tuple(p for p in creature.policy if p[0] != "reserve") + (("reserve", value),)
        )
    return encounter.with_creature(position, changed)
