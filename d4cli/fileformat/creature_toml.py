"""One creature's row of the encounter file, validated: its keys, Aspects, grants, sheet, notes.

`d4cli.fileformat.where.Where` names the place of an error (``path: creature 'X': field``)
and raises the `FileError`; `creature_from_row` turns one ``[[creature]]`` table into a
`Creature` (N1 names, L1 bounds, R11 grants, R16/R18 hit points, R19
``had_turn``, R20 effects, C8 sheet); `turn_name` checks ``current`` and
``last_turn`` name a creature. `d4cli.fileformat.encounter_toml` validates the whole file.
"""

from __future__ import annotations

from typing import Any

from d4cli.fight.effects import Pending
from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.sheets import sheet_from_row
from d4cli.fileformat.effects_toml import effects_from_row
from d4cli.fileformat.player_view_toml import view_fields_from_row
from d4cli.fileformat.where import Where
from d4cli.rules.errors import InputError
from d4cli.rules.limits import ASPECT, BUFFER, EVASION, EXHAUSTION, HP, LOAD, MAX_NOTES
from d4cli.rules.names import NameSet, escape_name, fold_name, look_alike_problem
from d4cli.rules.suggest import unknown_key

# The sheet's keys (C8, `d4cli.fight.sheets.SHEET_KEYS`): a row with none of them has no sheet.
SHEET_KEYS = ("side", "attributes", "proficiencies", "specializations", "actions", "policy")
CREATURE_KEYS_2: tuple[str, ...] = (
    "name",
    "aspects",
    "load_buffer",
    "exhaustion",
    "load",
    "evasion",
    "hp",
    "max_hp",
    "had_turn",
    "notes",
    "pending",
    "effects",
    *SHEET_KEYS,
)
# Schema 2's creature keys; schema 3 adds what the players see (`d4cli.fileformat.player_view_toml`).
CREATURE_KEYS_3 = ("hidden", "alias", "hp_shown", "evasion_shown")
CREATURE_KEYS = CREATURE_KEYS_2 + CREATURE_KEYS_3
CREATURE_REQUIRED = ("name", "aspects", "load_buffer", "exhaustion", "load")
PENDING_KEYS = ("advantage", "disadvantage")


def turn_name(where: Where, key: str, value: object, encounter: Encounter) -> str | None:
    if value is None:
        return None
    text = where.text(key, value, allow_empty=True)
    if not fold_name(text):
        return None
    for creature in encounter.creatures:
        if fold_name(creature.name) == fold_name(text):
            return creature.name
    where.fail(key, text, "names no creature of this encounter")


def creature_from_row(
    row: object, number: int, path: object, allowed: tuple[str, ...] = CREATURE_KEYS
) -> Creature:
    where = Where(path, f"creature #{number}")
    if not isinstance(row, dict):
        where.fail("creature", row, "must be a table ([[creature]])")
    if "name" in row:
        name = where.name("name", row["name"])
        where = Where(path, f"creature {name!r}")
    where.keys(row, allowed, CREATURE_REQUIRED)
    name = where.name("name", row["name"])
    notes = where.text("notes", row.get("notes", ""), allow_empty=True)
    if len(notes) > MAX_NOTES:
        where.fail(
            "notes", f"{notes[:20]}...", f"is {len(notes):,} characters long; at most {MAX_NOTES:,}"
        )
    aspects = _aspects(where, row["aspects"])
    hp, max_hp = (
        None if row.get(key) is None else where.whole(key, row[key], HP) for key in ("hp", "max_hp")
    )
    if max_hp is not None and hp is None:
        where.fail("max_hp", max_hp, "needs hp too (R16)")
    if max_hp is not None and hp is not None and hp > max_hp:
        where.fail("hp", hp, f"is above max_hp {max_hp} (R18)")
    had_turn = row.get("had_turn", False)
    if not isinstance(had_turn, bool):
        where.fail("had_turn", had_turn, "must be true or false (R19)")
    sheet: dict[str, Any] = {}
    if any(key in row for key in SHEET_KEYS):
        try:
            sheet = sheet_from_row(row, aspects)
        except InputError as error:
            where.fail(error.field, error.value, error.problem)
    view: dict[str, Any] = {}
    if any(key in row for key in CREATURE_KEYS_3):  # what the players see (schema 3)
        view = view_fields_from_row(where, row)
    return Creature(
        name=name,
        aspects=aspects,
        load_buffer=where.whole("load_buffer", row["load_buffer"], BUFFER),
        exhaustion=where.whole("exhaustion", row["exhaustion"], EXHAUSTION),
        load=where.whole("load", row["load"], LOAD),
        evasion=where.whole("evasion", row.get("evasion", 0), EVASION),
        hp=hp,
        notes=notes,
        effects=effects_from_row(
            where, row, _pending(where, row.get("pending", {}))
        ),  # R11 grants -> R20
        had_turn=had_turn,
        max_hp=max_hp,
        **sheet,
        **view,
    )


def _aspects(where: Where, table: object) -> tuple[tuple[str, int], ...]:
    if not isinstance(table, dict):
        where.fail("aspects", table, "must be a table of Aspect = number")
    if not table:
        where.fail("aspects", None, "needs at least one Aspect (Aspect = number)")
    aspects: list[tuple[str, int]] = []
    seen = NameSet()
    for name, value in table.items():
        field = f"aspects.{escape_name(name)}"
        where.name(field, name)
        same = seen.equal_to(name)
        if same is not None:
            where.fail(field, name, f"the same Aspect as {same!r} (N1)")
        alike = seen.looks_like(name)
        if alike is not None:
            where.fail(field, name, f"an Aspect that {look_alike_problem(name, alike)}")
        seen.add(name)
        aspects.append((name, where.whole(field, value, ASPECT)))
    return tuple(aspects)


def _pending(where: Where, table: object) -> Pending:
    if not isinstance(table, dict):
        where.fail("pending", table, "must be a table with advantage and disadvantage lists")
    for key in table:
        if key not in PENDING_KEYS:
            where.fail(f"pending.{key}", None, unknown_key(key, PENDING_KEYS))
    lists: dict[str, tuple[str, ...]] = {}
    for key in PENDING_KEYS:
        names = table.get(key, [])
        if not isinstance(names, list):
            where.fail(f"pending.{key}", names, "must be a list of source names")
        lists[key] = tuple(where.name(f"pending.{key}", name) for name in names)
    return Pending(**lists)


def check_effect_creatures(path: object, creatures: list[Creature]) -> None:
    """Every lasting effect that ends on a creature's turn names a creature of the file (R20).

    Raises:
        FileError: naming the creature holding the effect and ``effects #N.creature``.
    """
    names = {fold_name(creature.name) for creature in creatures}
    for creature in creatures:
        for number, effect in enumerate(creature.effects, start=1):
            if effect.creature is not None and fold_name(effect.creature) not in names:
                Where(path, f"creature {creature.name!r}").fail(
                    f"effects #{number}.creature",
                    escape_name(effect.creature),
                    "names no creature of this encounter (R20)",
                )
