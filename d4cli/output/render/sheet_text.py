"""Rendering of creature sheets: a check's steps, one creature's whole sheet, log lines (C8)."""

from __future__ import annotations

from rich.table import Table

from d4cli.fight.encounter_state import STAT_KINDS, Creature
from d4cli.fight.sheet_check import CheckRecord
from d4cli.journal.acts import ActionChange, CheckChange
from d4cli.output.creature_steps import sheet_check_steps
from d4cli.output.render import escape
from d4cli.output.render.effect_lines import effects_cell
from d4cli.output.render.roll_steps import steps_table
from d4cli.output.render.visibility_lines import gm_marks


def check_record_table(record: CheckRecord) -> Table:
    """The step table of ``d4cli check``: the sheet's modifiers and sources, then the Action Roll (C1-C8)."""
    return steps_table(f"Check: {escape(record.actor)}", sheet_check_steps(record))


def check_summary(check: CheckChange) -> str:
    """One log line for a ``check`` (Rich markup, C8)."""
    names = [
        escape(name)
        for name in (check.attribute_name, check.proficiency_name, check.specialization_name)
        if name is not None
    ]
    text = f"{escape(str(check.actor))} check ({', '.join(names) or 'no stats'}): [bold]{check.total}[/]"
    if check.dc is not None:
        text += f" vs DC {check.dc}: {check.outcome}"
    return text + "; Load unchanged (C8)"  # its note: after the line, as every entry's (log)


def action_summary(change: ActionChange) -> str:
    """One log line for an ``action-add`` or ``action-remove`` (Rich markup)."""
    actor = escape(str(change.actor))
    action = change.action
    verb = (
        "removed action"
        if change.kind != "action-add"
        else "replaced action"
        if change.replaced
        else "added action"
    )
    what = f"{escape(str(action.name))} ({escape(str(action.aspect))}, Cost {action.cost})"
    if not change.changed:  # an add of the very action it has
        return f"{actor} already has action {what}"
    return f"{actor}: {verb} {what}"


def turn_text(creature: Creature, current: bool, round_number: int) -> str:
    """Where *creature* stands in this round's order (R18, R19): its turn now, had it, skipped while down, or to come."""
    if current:
        return "its turn now (R19)" + ("; down, it cannot act (R18)" if creature.down else "")
    if creature.had_turn:
        return "had its turn this round (R19)" + ("; down (R18)" if creature.down else "")
    if creature.down:
        return "down: skipped until healed above 0 (R18, R19)"
    return "not yet this round (R19)" if round_number else "round 1 not started (R13)"


def sheet_table(
    creature: Creature, round_number: int = 0, reset_to: int | None = None, *, current: bool = False
) -> Table:
    """``d4cli status NAME``: one creature's whole sheet: Aspects with headroom, Load, hp and
    whether it is down (R18), its turn this round (R19), stats, actions, lasting effects with
    what is left of each (R20, as of round *round_number*) and notes.

    *reset_to*: the Load it resets to in its encounter (`Encounter.reset_to`, R12); default its R1 value.
    *current*: its turn is running (`turn_text`).
    """
    marks = gm_marks(creature)
    title = escape(creature.name) + (f" ({marks})" if marks else "")
    table = Table(title=title, title_justify="left", show_header=False)
    table.add_column("Field", style="bold", no_wrap=True)
    table.add_column("Value")
    headroom = creature.headroom()
    table.add_row(
        "Aspects",
        ", ".join(
            f"{escape(name)} {value} (headroom {headroom[name]})"
            for name, value in creature.aspects
        ),
    )
    table.add_row(
        "Load",
        f"{creature.load} (Buffer {creature.load_buffer}, Exhaustion {creature.exhaustion}, "
        f"resets to {creature.reset_value if reset_to is None else reset_to})",
    )
    table.add_row("Evasion", str(creature.evasion))
    if creature.hp is not None:
        hp = str(creature.hp) if creature.max_hp is None else f"{creature.hp}/{creature.max_hp}"
        table.add_row("HP", hp + (": down, cannot act (R18)" if creature.down else ""))
    table.add_row("Turn", turn_text(creature, current, round_number))
    for kind in STAT_KINDS:
        stats = getattr(creature, kind)
        if stats:
            table.add_row(
                kind.capitalize(), ", ".join(f"{escape(name)} {value:+d}" for name, value in stats)
            )
    for action in creature.actions:
        parts = [f"{escape(action.aspect)}, Cost {action.cost}"]
        parts += [escape(text) for text in action.extra]
        if action.dc is not None:
            parts.append(f"DC {action.dc}")
        parts += [f"adv {escape(name)}" for name in action.advantage]
        parts += [f"dis {escape(name)}" for name in action.disadvantage]
        table.add_row(f"Action {escape(action.name)}", ", ".join(parts))
    if creature.effects:
        table.add_row("Effects", effects_cell(creature.effects, round_number))
    if creature.notes:
        table.add_row("Notes", escape(creature.notes))
    return table
