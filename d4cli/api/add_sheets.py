"""The sheets an ``add`` makes: from the values given, or copied from another creature (R1, R13, R18, C8).

`AddSpec` holds what was asked for; `added_creatures` turns it into the creatures to add
once the encounter is known (numbered names skip the names in use; ``like`` finds its
template in the encounter, else in a bundled example).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from d4cli.fight.encounter_state import Creature, Encounter, new_creature, same_name
from d4cli.fight.sheets import copy_sheet, with_stats
from d4cli.fight.turns import numbered_names
from d4cli.fileformat.encounter_toml import bundled_examples, parse_encounter
from d4cli.rules.errors import InputError
from d4cli.rules.suggest import did_you_mean
from d4cli.store.files import read_text


class AddSpec(NamedTuple):
    """What ``add`` asks for; None (or empty) where a value was not given.

    Attributes:
        name: the creature's name, or the base of numbered names with *copies* (N1).
        aspects: ``(Aspect, value)`` pairs (L1); needed unless *like*.
        load_buffer / exhaustion / evasion / hp / max_hp: the sheet's numbers (R1, R7, R15, R16, R18).
        stats: ``attributes`` / ``proficiencies`` / ``specializations`` -> ``NAME=N`` texts (C8).
        side: the creature's side; hidden: kept off the players' view (R20).
        copies: add this many copies named ``NAME 1``.. (skipping names in use).
        like: copy this creature's sheet (of the encounter, else of a bundled example).
        sheet: copy this sheet (a creature of the GM's bestiary, ``add --from``).
    """

    name: str
    aspects: tuple[tuple[str, int], ...] | None = None
    load_buffer: int | None = None
    exhaustion: int | None = None
    evasion: int | None = None
    hp: int | None = None
    max_hp: int | None = None
    stats: Mapping[str, Sequence[str]] = {}
    side: str | None = None
    hidden: bool = False
    copies: int | None = None
    like: str | None = None
    sheet: Creature | None = None


def sheet_of(spec: AddSpec, name: str, template: Creature | None) -> Creature:
    """The creature *name* as *spec* describes it, on top of *template*'s sheet when given.

    Raises:
        InputError: no Aspect, bad values, hp above max_hp (`new_creature`); a stat's
            problem, naming the creature first.
    """
    given = {
        key: value
        for key, value in (
            ("load_buffer", spec.load_buffer),
            ("exhaustion", spec.exhaustion),
            ("evasion", spec.evasion),
            ("hp", spec.hp),
            ("max_hp", spec.max_hp),
        )
        if value is not None
    }
    aspects = spec.aspects or ()
    if template is None:
        creature = new_creature(name, aspects, **given)
    else:
        creature = copy_sheet(template, name, aspects=aspects, **given)
    stats = {kind: list(texts) for kind, texts in spec.stats.items() if texts}
    if stats or spec.side is not None:
        try:
            creature = with_stats(creature, stats, spec.side)
        except InputError as error:
            raise InputError(
                error.field, error.value, error.problem, mentions=error.mentions, where=name
            ) from None
    if spec.hidden:
        creature = creature._replace(hidden=True)
    return creature


def template_creature(encounter: Encounter, name: str) -> Creature:
    """The creature ``like`` names (N1): of *encounter*, else of a bundled example.

    Raises:
        InputError: naming ``like``: nobody of that name in either (with a did-you-mean).
    """
    for creature in encounter.creatures:
        if same_name(creature.name, name):
            return creature
    known = [creature.name for creature in encounter.creatures]
    for path in bundled_examples().values():
        for creature in parse_encounter(read_text(path), path).creatures:
            if same_name(creature.name, name):
                return creature
            known.append(creature.name)
    examples = ", ".join(bundled_examples())
    problem = f"no such creature in the encounter or the bundled examples ({examples})"
    raise InputError("like", name, problem + did_you_mean(name, known))


def added_creatures(
    spec: AddSpec, encounter: Encounter, checked: Creature | None = None
) -> tuple[tuple[Creature, ...], str | None]:
    """The creatures *spec* adds to *encounter*, and the name of the sheet they copy (or None).

    *checked* is the single sheet already made from *spec* (no ``like``, no ``count``).
    """
    template = spec.sheet
    if template is None and spec.like is not None:
        template = template_creature(encounter, spec.like)
    if checked is not None and spec.copies is None:
        return (checked,), None
    names = (
        (spec.name,) if spec.copies is None else numbered_names(encounter, spec.name, spec.copies)
    )
    added = tuple(sheet_of(spec, each, template) for each in names)
    return added, None if template is None else template.name
