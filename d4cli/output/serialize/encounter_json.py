"""Whole-file and command objects as JSON: ``status`` (with sheets), ``init``, ``undo``/``redo``, ``log``, ``help``."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from d4cli.fight.encounter_state import STAT_KINDS, Creature, Encounter
from d4cli.fight.sheets import action_document
from d4cli.fight.sides import encounter_end
from d4cli.journal.effect_facts import effect_json
from d4cli.journal.heads import fight_over_json, pending_json
from d4cli.output.rules_reference import Rule, Topic
from d4cli.output.serialize import JsonObject


def init_output_json(path: Path | str, details: JsonObject) -> JsonObject:
    """The ``init --json`` object: ``kind``, ``file`` and the `init_json` facts."""
    return {"kind": "init", "file": str(path), **details}


def undo_json(entry: JsonObject, hand_edited: bool) -> JsonObject:
    """The ``undo --json`` object: the journal entry undone, and whether a hand edit went too."""
    return {"kind": "undo", "undone": entry, "hand_edited": hand_edited}


def redo_json(entry: JsonObject) -> JsonObject:
    """The ``redo --json`` object: the journal entry put back."""
    return {"kind": "redo", "redone": entry}


def log_json(entries: list[JsonObject]) -> JsonObject:
    """The ``log --json`` object: ``{"entries": [...]}``, oldest first."""
    return {"entries": entries}


def log_json_chunks(entries: Iterable[JsonObject]) -> Iterator[str]:
    """`log_json` of *entries* as ``json.dumps`` writes it, plus a newline, in pieces: one entry
    at a time, so a long log is never held whole (``log --json`` streams it)."""
    yield '{"entries": ['
    separator = ""
    for entry in entries:
        yield separator + json.dumps(entry)
        separator = ", "
    yield "]}\n"


def help_json(
    topics: Mapping[str, Topic], rules: Iterable[Rule] = (), *, topics_key: bool = True
) -> JsonObject:
    """The ``help --json`` object: ``{"topics": [{topic, ...its fields}], "rules": [{id, title, text, example}]}``.

    ``help --json`` lists every topic and every rule; ``help --json TOPIC`` one topic;
    ``help --json R14`` only ``rules`` (*topics_key* false).
    """
    found: JsonObject = {}
    if topics_key:
        found["topics"] = [{"topic": name, **entry._asdict()} for name, entry in topics.items()]
    if rules:
        found["rules"] = [rule._asdict() for rule in rules]
    return found


def status_json(encounter: Encounter) -> JsonObject:
    """The ``status --json`` object: round, mode, current, creatures in turn order (R1, R2, R11, R18, R19)."""
    return {
        "name": encounter.name,
        "round": encounter.round,
        "mode": encounter.mode,
        "round_reset": encounter.round_reset,
        "current": encounter.current,
        "next": encounter.next_turn,
        # Over (R21): it stays over until a change brings a creature back.
        "fight_over": fight_over_json(encounter_end(encounter)),
        "creatures": [
            {
                "name": creature.name,
                "aspects": dict(creature.aspects),
                "load": creature.load,
                "buffer": creature.load_buffer,
                "load_buffer": creature.load_buffer,
                "exhaustion": creature.exhaustion,
                "evasion": creature.evasion,
                "hp": creature.hp,
                "headroom": creature.headroom(),
                "pending": pending_json(creature.grants),
                "effects": [effect_json(effect) for effect in creature.effects],
                "reset_value": encounter.reset_to(creature),
                "had_turn": creature.had_turn,
                "down": creature.down,
                "max_hp": creature.max_hp,
                "hidden": creature.hidden,  # off the player view (docs/cli.md "The player view")
                "alias": creature.alias or None,
                **sheet_json(creature),
            }
            for creature in encounter.creatures
        ],
    }


def sheet_json(creature: Creature) -> JsonObject:
    """A creature's sheet in ``status --json``: side, stats, actions (C8) and notes."""
    sheet: JsonObject = {"side": getattr(creature, "side", "") or None}
    for kind in STAT_KINDS:
        sheet[kind] = dict(getattr(creature, kind))
    sheet["actions"] = [action_document(action) for action in creature.actions]
    sheet["notes"] = creature.notes
    return sheet
