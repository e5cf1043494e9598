"""``d4cli recap --evening --json`` and ``d4cli bestiary --json`` (docs/evening.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from d4cli.fight.next_fight import CreatureEvening, FightSummary
from d4cli.fileformat.bestiary_entries import Entry, Listing
from d4cli.odds.luck import CreatureLuck
from d4cli.output.serialize import JsonObject


def evening_json(
    fights: Sequence[FightSummary],
    creatures: Sequence[CreatureEvening],
    luck: Sequence[CreatureLuck],
    won: Mapping[str, int],
) -> JsonObject:
    """The evening's recap: ``kind`` = ``evening``; ``fights`` (each ``{number, name, file,
    rounds, winner}``, oldest first, the current fight last); ``creatures`` (each ``{name,
    side, fights, damage_dealt, damage_taken, load_spent, reactions, actions, luck}``, luck
    ``{rolls, mean, verdict}`` or null); ``won`` (side -> fights won, R21) and ``totals``
    (``fights``, ``rounds``, ``damage``: hp taken off over the evening, R16)."""
    by_name = {item.creature: item for item in luck}
    rows = []
    for c in creatures:
        found = by_name.get(c.name)
        rows.append(
            {
                "name": c.name,
                "side": c.side,
                "fights": c.fights,
                "damage_dealt": c.damage_dealt,
                "damage_taken": c.damage_taken,
                "load_spent": c.load_spent,
                "reactions": c.reactions,
                "actions": c.actions,
                "luck": None
                if found is None
                else {"rolls": found.rolls, "mean": found.mean, "verdict": found.verdict},
            }
        )
    return {
        "kind": "evening",
        "fights": [
            {
                "number": f.number,
                "name": f.name,
                "file": str(f.path),
                "rounds": f.rounds,
                "winner": f.winner,
            }
            for f in fights
        ],
        "creatures": rows,
        "won": dict(won),
        "totals": {
            "fights": len(fights),
            "rounds": sum(f.rounds for f in fights),
            "damage": sum(c.damage_dealt for c in creatures),
        },
    }


def _entry_json(entry: Entry) -> JsonObject:
    return {
        "name": entry.name,
        "file": str(entry.path),
        "creatures": [
            {
                "name": c.name,
                "side": c.side or None,
                "aspects": dict(c.aspects),
                "hp": c.hp,
                "max_hp": c.max_hp,
                "evasion": c.evasion,
            }
            for c in entry.creatures
        ],
    }


def bestiary_json(listing: Listing) -> JsonObject:
    """The bestiary: ``folder``, ``creatures`` and ``templates`` (each ``{name, file,
    creatures: [{name, side, aspects, hp, max_hp, evasion}]}``, by name) and ``problems`` (one
    line per file that could not be read, naming it and its line)."""
    return {
        "folder": str(listing.folder),
        "creatures": [_entry_json(e) for e in listing.creatures],
        "templates": [_entry_json(e) for e in listing.templates],
        "problems": [str(problem) for problem in listing.problems],
    }


def saved_json(creature: str, path: Path) -> JsonObject:
    """``bestiary save --json``: ``kind`` = ``bestiary-save``, the ``creature`` kept, its
    ``entry`` (the name to bring it back by) and its ``file``."""
    return {"kind": "bestiary-save", "creature": creature, "entry": path.stem, "file": str(path)}
