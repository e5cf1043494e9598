"""What the GM hides, in the encounter file (schema 3): ``[player_view]`` and a creature's view fields.

Pure. Schema 3 adds, at the top, an optional table::

    [player_view]
    party = "party"        # the side whose creatures are the party (N1 folding)
    party_hp = "exact"     # the party's HP display: exact, label or none
    others_hp = "label"    # everyone else's
    seats = "approve"      # a seat's request waits for the GM (approve) or is carried out (auto)
    dc_shown = false       # the players' roll feed shows DCs
    odds_shown = false     # the players' screens show each side's chance to win

and to a ``[[creature]]`` table ``hidden`` (bool), ``alias`` (a name, N1),
``hp_shown`` (``exact``, ``label`` or ``none``; absent: its side's default) and
``evasion_shown`` (bool); to a ``[[creature.effects]]`` table ``public`` (bool,
default true). A creature's ``notes`` are never shown to the players. *where* is
the file reader's place helper (`d4cli.fileformat.where.Where`): it
raises the `FileError` naming the file, the creature, the field and the value.
"""

from __future__ import annotations

from typing import Any

from d4cli.fight.encounter_state import Creature, alias_clash
from d4cli.fight.view_settings import HP_SHOWN, SEAT_MODES, PlayerView
from d4cli.fileformat.where import Where
from d4cli.rules.errors import FileError
from d4cli.rules.suggest import unknown_key

PLAYER_VIEW_KEYS = ("party", "party_hp", "others_hp", "seats", "odds_shown", "dc_shown")


def player_view_from_document(where: Where, data: dict[str, Any]) -> PlayerView | None:
    """The ``[player_view]`` table of *data*, or None when it has none (the defaults).

    Raises:
        FileError: (through *where*) not a table, an unknown key, a party that is
            not a name, an HP display not in `HP_SHOWN`, an ``odds_shown`` that is not a bool.
    """
    table = data.get("player_view")
    if table is None:
        return PlayerView()
    if not isinstance(table, dict):
        where.fail("player_view", table, "must be a table ([player_view])")
    for key in table:
        if key not in PLAYER_VIEW_KEYS:
            where.fail(f"player_view.{key}", None, unknown_key(key, PLAYER_VIEW_KEYS))
    defaults = PlayerView()
    party = where.name("player_view.party", table.get("party", defaults.party))
    shown = {
        key: _hp_shown(where, f"player_view.{key}", table.get(key, getattr(defaults, key)))
        for key in ("party_hp", "others_hp")
    }
    seats = table.get("seats", defaults.seats)
    if seats not in SEAT_MODES:
        where.fail("player_view.seats", seats, "must be one of: " + ", ".join(SEAT_MODES))
    odds = table.get("odds_shown", False)
    if not isinstance(odds, bool):
        where.fail("player_view.odds_shown", odds, "must be true or false")
    dc_shown = table.get("dc_shown", defaults.dc_shown)
    if not isinstance(dc_shown, bool):
        where.fail("player_view.dc_shown", dc_shown, "must be true or false")
    return PlayerView(party, **shown, seats=str(seats), odds_shown=odds, dc_shown=dc_shown)


def _hp_shown(where: Where, field: str, value: object) -> str:
    if value not in HP_SHOWN:
        where.fail(field, value, "must be one of: " + ", ".join(HP_SHOWN))
    return str(value)


def _flag(where: Where, row: dict[str, Any], key: str) -> bool:
    value = row.get(key, False)
    if not isinstance(value, bool):
        where.fail(key, value, "must be true or false")
    return value


def view_fields_from_row(where: Where, row: dict[str, Any]) -> dict[str, Any]:
    """A creature's view fields as `d4cli.fight.encounter_state.Creature` keywords.

    Raises:
        FileError: (through *where*) a flag that is not a bool, an alias that is
            not a name (N1), an ``hp_shown`` not in `HP_SHOWN`.
    """
    fields: dict[str, Any] = {}
    if "hidden" in row:
        fields["hidden"] = _flag(where, row, "hidden")
    if "evasion_shown" in row:
        fields["evasion_shown"] = _flag(where, row, "evasion_shown")
    if "alias" in row:
        fields["alias"] = where.name("alias", row["alias"])
    if "hp_shown" in row:
        fields["hp_shown"] = _hp_shown(where, "hp_shown", row["hp_shown"])
    return fields


def public_from_item(where: Where, field: str, item: dict[str, Any]) -> bool:
    """An effect's ``public`` (default true): whether the players see it."""
    value = item.get("public", True)
    if not isinstance(value, bool):
        where.fail(f"{field}.public", value, "must be true or false")
    return value


def check_aliases(path: object, creatures: list[Creature]) -> None:
    """No alias matches (N1) another creature's name or alias: the players could not tell them apart.

    Raises:
        FileError: naming the creature, ``alias`` and the value.
    """
    every = tuple(creatures)
    for position, creature in enumerate(every):
        if creature.alias:
            clash = alias_clash(every, position, creature.alias)
            if clash is not None:
                raise FileError(
                    path,
                    f"creature {creature.name!r}: alias",
                    creature.alias,
                    f"{clash} (N1)",
                )


def player_view_document(view: PlayerView) -> dict[str, Any]:
    """The ``[player_view]`` table of *view*; ``seats``, ``odds_shown`` and ``dc_shown`` only
    where they are not the default, so that older files read the same."""
    table: dict[str, Any] = {
        "party": view.party,
        "party_hp": view.party_hp,
        "others_hp": view.others_hp,
    }
    if view.seats != PlayerView().seats:
        table["seats"] = view.seats
    if view.dc_shown:
        table["dc_shown"] = True
    if view.odds_shown:
        table["odds_shown"] = True
    return table


def view_fields_document(creature: Creature) -> dict[str, Any]:
    """A creature's view fields for its ``[[creature]]`` table: only those that differ from the default."""
    row: dict[str, Any] = {}
    if creature.hidden:
        row["hidden"] = True
    if creature.alias:
        row["alias"] = creature.alias
    if creature.hp_shown is not None:
        row["hp_shown"] = creature.hp_shown
    if creature.evasion_shown:
        row["evasion_shown"] = True
    return row
