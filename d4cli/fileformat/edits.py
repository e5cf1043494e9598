"""Fields of an encounter set mid-fight, validated as a read of the file validates them (``set``).

Pure: the encounter's document (`encounter_document`) takes the new values and goes
through `encounter_from_document`, the very checks a hand edit of the file meets (ranges,
``hp <= max_hp``, names by N1, HP displays), so ``set`` can write nothing a read would
refuse. A refused value is an `InputError` naming the field as the file names it.

The fields: a creature's `CREATURE_FIELDS`, a number in one of its `STAT_TABLES`
(``aspect.Might``, ``attribute.Agility``: an Aspect or stat it has, or a new one), and
the ``[player_view]`` table's `VIEW_FIELDS`. A value is given as the file holds it (a
number, a text, true/false) or as text to be read so (``"3"``, ``"true"``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from d4cli.fight.encounter_state import Encounter
from d4cli.fight.events import FieldChange, SetEvent
from d4cli.fight.view_settings import PlayerView
from d4cli.fileformat.encounter_toml import encounter_document, encounter_from_document
from d4cli.fileformat.player_view_toml import player_view_document
from d4cli.rules.errors import FileError, InputError
from d4cli.rules.limits import MAX_DIGITS, parse_whole
from d4cli.rules.names import fold_name
from d4cli.rules.suggest import did_you_mean

# A creature's fields that ``set`` changes, with the type the file holds.
CREATURE_FIELDS: Mapping[str, type] = {
    "hp": int,
    "max_hp": int,
    "evasion": int,
    # The Load as it stands: any whole number of L1's range; negative is what R1's reset gives.
    "load": int,
    "load_buffer": int,
    "side": str,
    "hp_shown": str,
    "evasion_shown": bool,
}
# ``PREFIX.NAME``: a number in the creature's table (Aspects R1, stored stats C8).
STAT_TABLES: Mapping[str, str] = {
    "aspect": "aspects",
    "attribute": "attributes",
    "proficiency": "proficiencies",
    "specialization": "specializations",
}
# The ``[player_view]`` table's fields.
VIEW_FIELDS: Mapping[str, type] = {
    "party": str,
    "party_hp": str,
    "others_hp": str,
    "seats": str,
    "dc_shown": bool,
    "odds_shown": bool,
}

# Wide enough for any text of digits the file's own checks then put in range (L1).
_ANY_WHOLE = (-(10**MAX_DIGITS), 10**MAX_DIGITS)

Slot = tuple[dict[str, Any], str, type]


def set_creature_fields(
    encounter: Encounter, name: str, changes: Mapping[str, object], path: object
) -> tuple[Encounter, SetEvent]:
    """The encounter with the creature *name*'s fields set to *changes* (``{"hp": 5,
    "aspect.Might": "3"}``), and the record of what changed (a value already held is left out).

    Raises:
        InputError: no such creature (N1); an unknown field; a value of the wrong type, out
            of the file's range, or against another field (``hp`` above ``max_hp``).
    """
    position = encounter.position_of(name)
    document = encounter_document(encounter)
    row = document["creature"][position]
    done = _apply(changes, lambda field: _creature_slot(row, field))
    new = _validated(document, path)
    return new, SetEvent(encounter.round, encounter.current, new.creatures[position].name, done)


def set_view_fields(
    encounter: Encounter, changes: Mapping[str, object], path: object
) -> tuple[Encounter, SetEvent]:
    """The encounter with its ``[player_view]`` fields set to *changes* (``{"party_hp":
    "label"}``), and the record of what changed (``actor`` None).

    Raises:
        InputError: an unknown field; a party that is not a name, an HP display that is not
            ``exact``, ``label`` or ``none``.
    """
    document = encounter_document(encounter)
    settings = encounter.player_view or PlayerView()
    # every field as it stands, the defaults too: setting one to what it holds changes nothing
    table = {
        **player_view_document(settings),
        "seats": settings.seats,
        "dc_shown": settings.dc_shown,
        "odds_shown": settings.odds_shown,
    }
    document["player_view"] = table
    done = _apply(changes, lambda field: _view_slot(table, field))
    return _validated(document, path), SetEvent(encounter.round, encounter.current, None, done)


def _apply(
    changes: Mapping[str, object], slot_of: Callable[[str], Slot]
) -> tuple[FieldChange, ...]:
    if not changes:
        raise InputError("changes", None, "give at least one field and its value")
    done: list[FieldChange] = []
    for field, value in changes.items():
        table, key, kind = slot_of(field)
        before = table.get(key)
        after = _file_value(field, kind, value)
        if before != after or type(before) is not type(after):
            table[key] = after
            done.append(FieldChange(field, before, after))
    return tuple(done)


def _creature_slot(row: dict[str, Any], field: str) -> Slot:
    """Where *field* lives in a creature's row: ``(table, key, type)``."""
    if field in CREATURE_FIELDS:
        return row, field, CREATURE_FIELDS[field]
    prefix, dot, stat = field.partition(".")
    if dot and prefix in STAT_TABLES and stat:
        table = row.setdefault(STAT_TABLES[prefix], {})
        held = [key for key in table if fold_name(key) == fold_name(stat)]
        return table, held[0] if held else stat, int
    known = [*CREATURE_FIELDS, *(f"{prefix}.NAME" for prefix in STAT_TABLES)]
    hint = did_you_mean(prefix if dot else field, [*CREATURE_FIELDS, *STAT_TABLES])
    raise InputError("field", field, f"unknown field{hint}; known: {', '.join(known)}")


def _view_slot(table: dict[str, Any], field: str) -> Slot:
    if field not in VIEW_FIELDS:
        hint = did_you_mean(field, VIEW_FIELDS)
        raise InputError(
            "field", field, f"unknown [player_view] field{hint}; known: {', '.join(VIEW_FIELDS)}"
        )
    return table, field, VIEW_FIELDS[field]


def _file_value(field: str, kind: type, value: object) -> object:
    """*value* as the file holds a *kind* (text read as a whole number or true/false)."""
    if not isinstance(value, str) or kind is str:
        return value
    if kind is bool:
        if value not in ("true", "false"):
            raise InputError(field, value, "must be true or false")
        return value == "true"
    return parse_whole(value, field, _ANY_WHOLE)


def _validated(document: dict[str, Any], path: object) -> Encounter:
    try:
        return encounter_from_document(document, path)
    except FileError as error:
        # The value came from the command, not the file: name the field, not the file.
        raise InputError(error.in_file, error.value, error.problem) from None
