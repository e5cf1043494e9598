"""Rich output of lasting effects (R20): the ``effect`` change line and ``effect list``."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from d4cli.fight.effects import Effect, applied_round, describe
from d4cli.fight.encounter import Encounter
from d4cli.output.render import escape

_ORIGINS = {"command-line": "effect", "effect": "effect", "team-action": "team"}


def effect_from_json(obj: dict[str, Any]) -> Effect:
    """The `Effect` of a `d4cli.output.serialize.effect_json` object (a journal entry's)."""
    ends = obj.get("ends") or {}
    return Effect(
        str(obj.get("source")),
        str(obj.get("grant")),
        str(obj.get("on")),
        str(ends.get("kind")),
        ends.get("creature"),
        ends.get("last_round"),
        ends.get("uses"),
        _ORIGINS.get(str(obj.get("origin")), "effect"),
        int(obj.get("level") or 1),
        public=obj.get("public") is not False,
    )


def effect_summary(entry: dict[str, Any]) -> str:
    """``Aria: blinded -1d4, until the end of Goblin Archer's turn (R20)``; says what an add replaced
    (``Aria already has blinded ...`` for an add that changed nothing)."""
    actor = "[bold]" + escape(str(entry.get("actor"))) + "[/]"
    round_number = int(entry.get("counts_from") or entry.get("round") or 0)
    effect = describe(effect_from_json(entry.get("effect") or {}), round_number)
    if entry.get("action") == "remove":
        return f"{actor}: removed {escape(effect)} (R20)"
    if entry.get("changed") is False:  # an add of the very effect it has
        return f"{actor} already has {escape(effect)} (R20)"
    text = f"{actor}: {escape(effect)} (R20)"
    if entry.get("replaced"):
        was = describe(effect_from_json(entry["replaced"]), round_number)
        text += f"; replaced the same source (R4), was: {escape(was)}"
    return text


def effects_table(encounter: Encounter, only: str | None = None) -> Table:
    """``effect list``: one row per effect, creature by creature in turn order (R20)."""
    from d4cli.rules.names import fold_name

    table = Table(title="Lasting effects (R20)", title_justify="left")
    table.add_column("Creature", style="bold")
    table.add_column("Effect, what is left")
    for creature in encounter.creatures:
        if only is not None and fold_name(only) != fold_name(creature.name):
            continue
        for effect in creature.effects:
            table.add_row(escape(creature.name), escape(describe(effect, applied_round(encounter))))
    if not table.rows:
        table.caption = "No lasting effects: d4cli effect add CREATURE SOURCE --adv|--dis"
    return table
