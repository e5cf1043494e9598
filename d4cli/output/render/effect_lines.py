"""Rich output of lasting effects (R20): the ``effect`` change line and ``effect list``.

Both read each effect as its JSON object (`d4cli.output.effecttext`), the line the
journal entry's: nothing is rebuilt from it.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table

from d4cli.fight.effect_transitions import applied_round
from d4cli.fight.encounter_state import Encounter
from d4cli.journal.effect_facts import EffectChange, effect_json
from d4cli.output import render
from d4cli.output.effecttext import describe
from d4cli.output.render import escape
from d4cli.rules.names import fold_name


def effect_summary(change: EffectChange) -> str:
    """``Aria: blinded -1d4, until the end of Goblin Archer's turn (R20)``; says what an add replaced
    (``Aria already has blinded ...`` for an add that changed nothing)."""
    actor = "[bold]" + escape(str(change.actor)) + "[/]"
    round_number = change.counts_from or change.round or 0
    effect = describe(change.effect, round_number)
    if change.action == "remove":
        return f"{actor}: removed {escape(effect)} (R20)"
    if not change.changed:  # an add of the very effect it has
        return f"{actor} already has {escape(effect)} (R20)"
    text = f"{actor}: {escape(effect)} (R20)"
    if change.replaced:
        was = describe(change.replaced, round_number)
        text += f"; replaced the same source (R4), was: {escape(was)}"
    return text


def effects_table(encounter: Encounter, only: str | None = None) -> Table:
    """``effect list``: one row per effect, creature by creature in turn order (R20)."""
    table = Table(title="Lasting effects (R20)", title_justify="left")
    table.add_column("Creature", style="bold")
    table.add_column("Effect, what is left")
    round_number = applied_round(encounter)
    for creature in encounter.creatures:
        if only is not None and fold_name(only) != fold_name(creature.name):
            continue
        for effect in creature.effects:
            table.add_row(
                escape(creature.name), escape(describe(effect_json(effect), round_number))
            )
    if not table.rows:
        table.caption = "No lasting effects: d4cli effect add CREATURE SOURCE --adv|--dis"
    return table


def print_effects(encounter: Encounter, only: str | None = None) -> None:
    """Print `effects_table`; with no effects, its caption alone (the hint to add one)."""
    table = effects_table(encounter, only)
    render.console().print(table if table.rows else table.caption)


def effects_cell(effects: tuple[Any, ...], round_number: int) -> str:
    """The effects of one creature (`d4cli.fight.effects.Effect` values), one line each (markup);
    *round_number* is the round counted first (`d4cli.fight.effect_transitions.applied_round`)."""
    return "\n".join(escape(describe(effect_json(effect), round_number)) for effect in effects)
