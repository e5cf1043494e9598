"""The settings of one creature that ``balance`` searches and ``simulate`` sweeps: a field of
its sheet over a range of whole values (R1, R15, R16, R18), read by `d4cli.sim.balance_search.Vary.parse`.

A value's encounter is made by the very transition ``balance --apply`` writes (``set``'s
checks, ``exhaust``, ``add --like``), so what is played is what would be written. A sweep
may name a side instead of a creature: every creature on it takes the value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from d4cli.api.add_sheets import AddSpec, added_creatures
from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.several import side_positions
from d4cli.fight.turns import add_creatures, set_exhaustion
from d4cli.fileformat.edits import set_creature_fields
from d4cli.rules.errors import InputError
from d4cli.rules.limits import MAX_COUNT
from d4cli.rules.names import fold_name
from d4cli.sim.balance_search import Vary

__all__ = [
    "FIELDS",
    "checked_vary",
    "checked_setting",
    "value_transition",
    "value_encounter",
    "setting_encounter",
]

# The fields a value may set; an Aspect is ``aspect.NAME`` (R1).
FIELDS: tuple[str, ...] = ("hp", "max_hp", "evasion", "load_buffer", "exhaustion", "count")
ASPECT = "aspect."


def checked_vary(encounter: Encounter, vary: Vary, field_name: str = "vary") -> Vary:
    """*vary* with its creature and Aspect as the file spells them.

    ``hp`` of a hurt creature (hp below its max_hp) goes no higher than its ``max_hp``
    (healing stops there, R18): a range past it is capped there, with ``asked`` the high end
    given. Varying ``max_hp`` moves both numbers of a hurt creature (`value_transition`).

    Raises:
        InputError: naming *field_name*: no such creature (N1), an unknown field or Aspect, an
            empty range (after the cap: a hurt creature's whole range above its max_hp), a
            count outside 1..`MAX_COUNT`.
    """
    try:
        creature = encounter.find(vary.creature, field_name)
    except InputError as error:
        raise InputError(field_name, vary.text, error.problem) from None
    field = vary.field
    if field.startswith(ASPECT):
        wanted = fold_name(field[len(ASPECT) :])
        held = [aspect for aspect, _ in creature.aspects if fold_name(aspect) == wanted]
        if not held:
            known = ", ".join(aspect for aspect, _ in creature.aspects)
            raise InputError(
                field_name, vary.text, f"{creature.name} has no such Aspect; it has {known}"
            )
        field = ASPECT + held[0]
    elif field not in FIELDS:
        known = ", ".join([*FIELDS, "aspect.NAME"])
        raise InputError(field_name, vary.text, f"unknown field {field!r}; one of {known}")
    if vary.high < vary.low:
        raise InputError(field_name, vary.text, "the range holds no whole number")
    if field == "count" and not (1 <= vary.low and vary.high <= MAX_COUNT):
        raise InputError(field_name, vary.text, f"a count must be within 1..{MAX_COUNT}")
    ceiling = creature.max_hp
    if field == "hp" and _hurt(creature) and ceiling is not None and vary.high > ceiling:
        if vary.low > ceiling:
            raise InputError(
                field_name,
                vary.text,
                f"{creature.name} is hurt: its hp goes up to its max_hp {ceiling} (R18);"
                " vary max_hp to move both",
            )
        vary = vary._replace(high=ceiling, asked=vary.high)
    return vary._replace(creature=creature.name, field=field)


def _hurt(creature: Creature) -> bool:
    """Below its max_hp (a creature without hp or without a maximum is never hurt)."""
    return creature.hp is not None and creature.max_hp is not None and creature.hp < creature.max_hp


def value_transition(
    vary: Vary, value: int, path: object = None
) -> Callable[[Encounter], tuple[Encounter, Any]]:
    """The pure transition that sets *vary*'s field to *value*: the one `apply_balance` writes.

    ``hp`` and ``max_hp`` of an unhurt creature (hp at its max_hp) move together, so it
    stays unhurt (R18). Of a hurt creature, ``hp`` moves alone (up to its max_hp) and
    ``max_hp`` moves both, keeping the damage it has taken (max_hp 20 with 4 taken: hp 16). ``count`` N adds N - 1 copies of
    its sheet, as ``add NAME --count N-1 --like NAME`` does (count 1 changes nothing).
    """
    name, field = vary.creature, vary.field
    if field == "exhaustion":
        return lambda encounter: set_exhaustion(encounter, name, value)
    if field == "count":

        def copies(encounter: Encounter) -> tuple[Encounter, Any]:
            spec = AddSpec(name, copies=value - 1, like=name)
            added, like = added_creatures(spec, encounter)
            return add_creatures(encounter, added, like=like)

        return copies

    def fields(encounter: Encounter) -> tuple[Encounter, Any]:
        creature = encounter.find(name)
        changes: dict[str, object] = {field: value}
        if field in ("hp", "max_hp") and creature.hp is not None and creature.hp == creature.max_hp:
            changes = {"max_hp": value, "hp": value}
        elif field == "max_hp" and _hurt(creature):
            taken = (creature.max_hp or 0) - (creature.hp or 0)
            changes = {"max_hp": value, "hp": value - taken}
        return set_creature_fields(encounter, name, changes, path)

    return fields


def value_encounter(encounter: Encounter, vary: Vary, value: int) -> Encounter:
    """*encounter* with *vary*'s field at *value* (count 1: as it is)."""
    if vary.field == "count" and value == 1:
        return encounter
    return value_transition(vary, value)(encounter)[0]


def checked_setting(encounter: Encounter, vary: Vary, field_name: str = "vary") -> tuple[Vary, ...]:
    """*vary* checked for each creature it names: the creature (N1), else every creature on
    the side of that name, each as `checked_vary` checks it. A hurt creature's ``hp`` caps
    the range of all of them (the lowest cap).

    Raises:
        InputError: naming *field_name*: no creature and no side of that name, or what
            `checked_vary` refuses for one of them.
    """
    try:
        encounter.find(vary.creature, field_name)
    except InputError as error:
        try:
            positions = side_positions(encounter, vary.creature)
        except InputError:
            raise InputError(field_name, vary.text, error.problem + ", nor a side") from None
        each = [
            checked_vary(
                encounter, vary._replace(creature=encounter.creatures[at].name), field_name
            )
            for at in positions
        ]
        high = min(one.high for one in each)
        asked = vary.high if high < vary.high else None
        return tuple(one._replace(high=high, asked=asked) for one in each)
    return (checked_vary(encounter, vary, field_name),)


def setting_encounter(
    encounter: Encounter, varies: Sequence[Vary], value: int, field_name: str = "vary"
) -> Encounter:
    """*encounter* with each of *varies* (`checked_setting`) at *value*.

    Raises:
        InputError: naming *field_name*: a value the file refuses.
    """
    for vary in varies:
        try:
            encounter = value_encounter(encounter, vary, value)
        except InputError as error:
            raise InputError(field_name, vary.text, f"{vary.field}={value}: {error}") from None
    return encounter
