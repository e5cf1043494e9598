"""Lasting effects (R20) in the encounter file: the ``[[creature.effects]]`` tables, and back.

Pure. `effects_from_row` validates a creature's ``effects`` array (and turns a
``pending`` table of a file written before effects into one-roll Team Action
effects, R11); `effects_document` writes them. *where* is the file reader's
place helper (`d4cli.fileformat.where.Where`): it raises the `FileError`.
"""

from __future__ import annotations

from typing import Any

from d4cli.fight.effects import ENDS, GRANTS, ONS, ORIGINS, Effect, Pending, team_grant_effects
from d4cli.fileformat.player_view_toml import public_from_item
from d4cli.fileformat.where import Where
from d4cli.rules.suggest import unknown_key

EFFECT_KEYS = (
    "source",
    "grant",
    "on",
    "ends",
    "creature",
    "last_round",
    "uses",
    "origin",
    "level",
    "from_round",
    "public",
)
COUNT = (1, 1_000_000)
LEVEL = (1, 5)  # an Advantage effect's level on checks (C8, C3)


def effects_from_row(where: Where, row: dict[str, Any], pending: Pending) -> tuple[Effect, ...]:
    """The creature's effects: its ``effects`` array, then its old ``pending`` grants (R11, R20).

    Raises:
        FileError: (through *where*) a wrong type, an unknown key or value, a
            missing field, a duration that does not fit its kind.
    """
    table = row.get("effects", [])
    if not isinstance(table, list):
        where.fail("effects", table, "must be an array of tables ([[creature.effects]])")
    effects: tuple[Effect, ...] = ()
    for number, item in enumerate(table, start=1):
        effects += (_effect(where, f"effects #{number}", item),)
    return team_grant_effects(effects, pending)


def _effect(where: Where, field: str, item: Any) -> Effect:
    if not isinstance(item, dict):
        where.fail(field, item, "must be a table")
    for key in item:
        if key not in EFFECT_KEYS:
            where.fail(f"{field}.{key}", None, unknown_key(key, EFFECT_KEYS))
    if "source" not in item:
        where.fail(f"{field}.source", None, "missing")
    source = where.name(f"{field}.source", item["source"])
    values = {}
    for key, allowed, default in (
        ("grant", GRANTS, None),
        ("on", ONS, "own"),
        ("ends", ENDS, "removed"),
        ("origin", ORIGINS, "effect"),
    ):
        value = item.get(key, default)
        if value not in allowed:
            where.fail(f"{field}.{key}", value, "must be one of: " + ", ".join(allowed))
        values[key] = value
    ends = values["ends"]
    creature = None
    last_round = uses = from_round = None
    if ends in ("start", "end"):
        creature = where.name(f"{field}.creature", item.get("creature"))
        if "from_round" in item:  # added after a round was over: the round it counts from (R20)
            from_round = where.whole(f"{field}.from_round", item["from_round"], COUNT)
    if ends == "rounds":
        last_round = where.whole(f"{field}.last_round", item.get("last_round"), COUNT)
    if ends == "uses":
        uses = where.whole(f"{field}.uses", item.get("uses"), COUNT)
    level = 1
    if "level" in item:
        level = where.whole(f"{field}.level", item["level"], LEVEL)
        if values["grant"] != "advantage":
            where.fail(f"{field}.level", item["level"], "only an Advantage effect has a level (C8)")
        if values["on"] == "against":
            where.fail(
                f"{field}.level",
                item["level"],
                "an 'against' effect has no level: it never counts on checks (C8)",
            )
    public = True
    if "public" in item:
        public = public_from_item(where, field, item)
    return Effect(
        source,
        values["grant"],
        values["on"],
        ends,
        creature,
        last_round,
        uses,
        values["origin"],
        level,
        from_round,
        public,
    )


def effects_document(effects: tuple[Effect, ...]) -> list[dict[str, Any]]:
    """The ``[[creature.effects]]`` tables of *effects*, in one fixed layout."""
    rows = []
    for effect in effects:
        row: dict[str, Any] = {
            "source": effect.source,
            "grant": effect.grant,
            "on": effect.on,
            "ends": effect.ends,
        }
        if effect.creature is not None:
            row["creature"] = effect.creature
        if effect.last_round is not None:
            row["last_round"] = effect.last_round
        if effect.uses is not None:
            row["uses"] = effect.uses
        if effect.origin != "effect":
            row["origin"] = effect.origin
        if effect.level != 1:
            row["level"] = effect.level
        if effect.from_round is not None:
            row["from_round"] = effect.from_round
        if not effect.public:
            row["public"] = False  # GM-only (schema 3)
        rows.append(row)
    return rows
