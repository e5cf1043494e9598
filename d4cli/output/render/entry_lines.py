"""Rich output of the encounter's changes: one-line summaries of journal entries, a Team Action's table.

Summaries work on the journal's entries read typed (`d4cli.journal.entry.read_change` of a
`d4cli.journal.entry.journal_json` object), so a change just made and the same change read back
by ``d4cli log`` read alike.
Every name from the file goes through `escape` (N1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from rich.table import Table
from rich.text import Text

from d4cli.fight import closed_sets as kinds
from d4cli.fight.encounter_state import Encounter
from d4cli.fight.team import TeamRecord
from d4cli.journal.acts import ActChange, ActionChange, CheckChange, TeamChange
from d4cli.journal.changes import (
    AddChange,
    ExhaustChange,
    HpChange,
    MoveChange,
    NoteChange,
    RemoveChange,
    SetChange,
    TurnEndChange,
    TurnStartChange,
    ViewChange,
)
from d4cli.journal.effect_facts import EffectChange
from d4cli.journal.entry import InitChange, SeveralChange, read_change, read_entry
from d4cli.journal.heads import Change
from d4cli.journal.next_facts import NextChange
from d4cli.output import render
from d4cli.output.creature_steps import team_steps
from d4cli.output.render import bold_name, escape, load_change
from d4cli.output.render.act_lines import act_summary
from d4cli.output.render.effect_lines import effect_summary
from d4cli.output.render.fight_lines import hp_summary, move_summary
from d4cli.output.render.roll_steps import steps_table
from d4cli.output.render.sheet_text import action_summary, check_summary
from d4cli.output.render.visibility_lines import view_summary

_name = bold_name


def _sheet(add: AddChange) -> str:
    """``; side party; Attributes Willpower 2; ...`` of an ``add`` entry (C8); "" without a sheet."""
    parts = [f"side {escape(add.side)}"] if add.side else []
    for stats, title in (
        (add.attributes, "Attributes"),
        (add.proficiencies, "Proficiencies"),
        (add.specializations, "Specializations"),
    ):
        if stats:
            parts.append(f"{title} {_aspects(stats)}")
    return "".join(f"; {part}" for part in parts)


def _aspects(aspects: dict[str, Any]) -> str:
    return ", ".join(f"{escape(name)} {value}" for name, value in aspects.items())


def summary(facts: Mapping[str, Any]) -> str:
    """One line (Rich markup) that says what a journal entry changed, with its rule ids,
    and the lasting effects it ended (R20).

    *facts* is a change's JSON object (`d4cli.journal.entry.journal_json`: a change just made,
    or read back by ``log``), read typed (`change_line`).
    """
    return change_line(read_change(facts))


def change_line(change: Change, *, same_roll: bool = False) -> str:
    """`summary` of a change read typed: its ``kind`` picks the line (`SUMMARIES`); a kind this
    version does not know reads as its name. *same_roll*: a part of a change of several after
    the first, whose amount is the first line's dice."""
    if isinstance(change, SeveralChange):
        return "; ".join(change_lines(change))
    if isinstance(change, HpChange):
        text = hp_summary(change, same_roll=same_roll)
    else:
        line = SUMMARIES.get(change.kind)
        text = escape(change.kind) if line is None else line(change)
    ended = [
        f"{escape(str(gone.source))} on {escape(str(gone.creature))} ended: {escape(str(gone.reason))}"
        for gone in change.effects_ended
    ]
    text += "".join(f"; {part}" for part in ended) + (" (R20)" if ended else "")
    if change.fight_over is not None:
        text += f"; {fight_over_text(change.fight_over.winner)}"
    return text


def summary_lines(facts: Mapping[str, Any]) -> list[str]:
    """The lines a change prints (`change_lines` of its facts read typed)."""
    return change_lines(read_change(facts))


def change_lines(change: Change) -> list[str]:
    """The lines a change prints: one per creature of a change of several, the dice rolled
    once shown on the first, the end of the fight on the last (R18); else its `change_line`.
    ``log`` joins them into its one line."""
    if not isinstance(change, SeveralChange):
        return [change_line(change)]
    lines = []
    for index, part in enumerate(change.parts):
        shown = part if change.changed else replace(part, changed=False)
        if change.roll is not None and isinstance(shown, HpChange):
            shown = replace(shown, roll=change.roll)
        lines.append(change_line(shown, same_roll=change.roll is not None and index > 0))
    if lines and change.fight_over is not None:
        lines[-1] += f"; {fight_over_text(change.fight_over.winner)}"
    return lines


def fight_over_text(winner: object) -> str:
    """``[bold]the fight is over[/], won by foes (R21)``: a side is the last with a creature up;
    ``[bold]the fight is over[/]: everyone is down (R21)`` when *winner* is None."""
    if winner is None:
        return "[bold]the fight is over[/]: everyone is down (R21)"
    return f"[bold]the fight is over[/], won by {escape(str(winner))} (R21)"


def _init_summary(change: Change) -> str:
    assert isinstance(change, InitChange)
    origin = f" from {escape(change.template)}" if change.template else ""
    reset = (
        f", {change.round_reset} round reset"
        if change.mode == "round" and change.round_reset
        else ""
    )
    return f"new encounter {escape(change.name or '')} ({change.mode} mode{reset}){origin}"


def _next_summary(change: Change) -> str:
    assert isinstance(change, NextChange)
    kept = ", ".join(escape(name) for name in change.kept) or "nobody"
    added = ", ".join(escape(name) for name in change.added) or "nobody"
    return (
        f"[bold]fight {change.fight}[/]: {escape(change.name or '')} begins; "
        f"{escape(change.previous or '')} kept in {escape(change.archived or '')}; "
        f"carried {kept}; joined {added}"
    )


def _add_summary(change: Change) -> str:
    assert isinstance(change, AddChange)
    hp = f", HP {change.hp_after}" if change.hp_after is not None else ""
    if change.max_hp is not None:
        hp += f" of {change.max_hp}"
    names = change.names
    actor = ", ".join(_name(name) for name in names) if len(names) > 1 else _name(change.actor)
    if change.like:
        actor += f" (like {escape(change.like)})"
    return (
        f"added {actor}: {_aspects(change.aspects)}; Buffer {change.load_buffer}, "
        f"Exhaustion {change.exhaustion}, Load {change.load_after} (R1), "
        f"Evasion {change.evasion}{hp}{_sheet(change)}"
        + ("; hidden from the player view" if change.hidden else "")
    )


def _remove_summary(change: Change) -> str:
    """``removed Cora; its turn ended, the next turn goes to Aria (R17)``; when nobody is left to
    go, that the round runs on until the next turn start (R19)."""
    assert isinstance(change, RemoveChange)
    text = f"removed {_name(change.actor)}"
    if change.ended_turn and change.next:
        text += f"; its turn ended, the next turn goes to {_name(change.next)}"
    elif change.ended_turn:
        text += "; its turn ended"
    text += " (R17)"
    if change.round_open:
        text += (
            f"; nobody is left to go in round {change.round}, which runs on until the next "
            "turn start: a creature added or healed before then has its turn in it (R19)"
        )
    return text


def _turn_start_summary(change: Change) -> str:
    assert isinstance(change, TurnStartChange)
    actor = _name(change.actor)
    parts = []
    if change.ended:
        parts.append(f"{_name(change.ended)}'s turn ended (R13)")
    resets = change.resets
    if change.new_round:
        parts.append(f"round {change.round} begins")
    for name in change.skipped:
        parts.append(f"{_name(name)} is down: skipped (R18)")
    parts.append(f"{actor}'s turn" + (" (out of order, R13)" if change.out_of_order else ""))
    if change.again:
        parts.append(f"{actor} already had its turn this round (R19)")
    if change.down:
        parts.append(f"{actor} is down and cannot act (R18)")
    if len(resets) > 1:
        parts.append(
            "everyone's Load reset (R12): "
            + ", ".join(f"{escape(str(r.name))} {r.load_after}" for r in resets)
        )
    elif resets:
        parts.append(f"Load {resets[0].load_before} -> {resets[0].load_after} (reset, R1)")
    else:
        parts.append("no reset at a turn in round mode (R12)")
    return "; ".join(parts)


def _turn_end_summary(change: Change) -> str:
    assert isinstance(change, TurnEndChange)
    if change.next:
        after = f"next: {_name(change.next)}"
    else:
        number = change.round or 0
        after = (
            f"everyone has had a turn in round {number}: the next turn start begins "
            f"round {number + 1} (R19)"
        )
    return f"{_name(change.actor)}'s turn ended; Load stays {change.load_after} (R14); {after}"


def _exhaust_summary(change: Change) -> str:
    assert isinstance(change, ExhaustChange)
    return (
        f"{_name(change.actor)}: Exhaustion {change.exhaustion_before} -> {change.exhaustion_after}; "
        f"Load stays {change.load_after}, resets to {change.reset_value} (R15)"
    )


def team_head(team: TeamChange) -> str:
    """``Borin Team Action (Might, Cost 1)``: who pays a Team Action and with what (R11). Rich markup."""
    return f"{_name(team.actor)} Team Action ({escape(str(team.aspect))}, Cost {team.cost})"


def _team_summary(change: Change) -> str:
    assert isinstance(change, TeamChange)
    return (
        f"{team_head(change)}: "
        f"{_name(change.target)}'s next roll gets {change.grant} "
        f"'{escape(str(change.source))}' (R11); {load_change(change.load_before, change.load_after)}"
    )


def _note_summary(change: Change) -> str:
    """``note on Aria: owes Borin a favour``, or ``Aria's notes: "..." (were "...")``."""
    assert isinstance(change, NoteChange)
    if change.set:
        notes, before = change.notes or "", change.notes_before or ""
        now = f'"{escape(notes)}"' if notes else "cleared"
        was = f' (were "{escape(before)}")' if before and before != notes else ""
        return f"{_name(change.actor)}'s notes: {now}{was}"
    about = f" on {_name(change.actor)}" if change.actor else ""
    return f"note{about}: {escape(change.note or '')}"


def history_line(verb: str, entry: Mapping[str, Any]) -> str:
    """``Undid #7 act: <summary>`` (*verb* ``Undid`` or ``Redid``) of the journal *entry* undone or redone."""
    read = read_entry(entry)
    return f"{verb} #{read.seq} {escape(read.change.kind)}: {change_line(read.change)}"


def init_lines(
    path: object, encounter: Encounter, template: str | None, *, kept_comments: bool = True
) -> list[str]:
    """What ``init`` says (R12): the file made, its name, mode and creatures, the *template* it came from;
    that the template's comments were lost when ``--mode``/``--name`` changed it."""
    lines = [
        f"Created {escape(str(path))}: {escape(encounter.name) or 'an encounter'} ({encounter.mode} mode, "
        f"{len(encounter.creatures)} creatures)" + (f" from {escape(template)}" if template else "")
    ]
    if not kept_comments:
        lines.append("(--mode/--name changed the template, so its comments were not kept)")
    return lines


def _set_summary(change: Change) -> str:
    assert isinstance(change, SetChange)
    whose = "the player view" if change.actor is None else _name(change.actor)
    if not change.changes:
        return f"{whose}: every field given already holds that value"
    parts = [
        f"{escape(str(field.field))} {_value(field.before)} -> {_value(field.after)}"
        for field in change.changes
    ]
    return f"{whose}: " + ", ".join(parts) + " (set)"


def _value(value: object) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "true" if value else "false"
    return escape(str(value))


def _act_summary(change: Change) -> str:
    assert isinstance(change, ActChange)
    return act_summary(change)


def _check_summary(change: Change) -> str:
    assert isinstance(change, CheckChange)
    return check_summary(change)


def _action_summary(change: Change) -> str:
    assert isinstance(change, ActionChange)
    return action_summary(change)


def _move_or_hp_summary(change: Change) -> str:
    if isinstance(change, MoveChange):
        return move_summary(change)
    assert isinstance(change, HpChange)
    return hp_summary(change)


def _effect_summary(change: Change) -> str:
    assert isinstance(change, EffectChange)
    return effect_summary(change)


def _view_summary(change: Change) -> str:
    assert isinstance(change, ViewChange)
    return view_summary(change)


# Each kind of journal entry (`d4cli.fight.closed_sets`) -> its one-line summary (Rich markup).
SUMMARIES: dict[str, Callable[[Change], str]] = {
    kinds.INIT: _init_summary,
    kinds.ADD: _add_summary,
    kinds.REMOVE: _remove_summary,
    kinds.TURN_START: _turn_start_summary,
    kinds.TURN_END: _turn_end_summary,
    kinds.ACT: _act_summary,
    kinds.TEAM: _team_summary,
    kinds.EXHAUST: _exhaust_summary,
    kinds.DAMAGE: _move_or_hp_summary,
    kinds.HEAL: _move_or_hp_summary,
    kinds.MOVE: _move_or_hp_summary,
    kinds.EFFECT: _effect_summary,
    kinds.CHECK: _check_summary,
    kinds.ACTION_ADD: _action_summary,
    kinds.ACTION_REMOVE: _action_summary,
    kinds.NOTE: _note_summary,
    kinds.REVEAL: _view_summary,
    kinds.CONCEAL: _view_summary,
    kinds.ALIAS: _view_summary,
    kinds.SET: _set_summary,
    kinds.NEXT: _next_summary,
}


def team_table(record: TeamRecord) -> Table:
    """The steps of a Team Action (`d4cli.output.creature_steps.team_steps`): gate, grant, Load (R2, R8, R10, R11)."""
    title = f"{escape(record.actor)}: Team Action for {escape(record.target)}"
    return steps_table(title, team_steps(record))


# Where the lines of a change go on when one is too long for the terminal: two spaces in,
# so that a continuation never reads as the next creature's line.
CHANGE_HANG = 2


def print_lines(lines: Iterable[str]) -> None:
    """Print markup lines on stdout; on a terminal, one too long wraps with a hanging indent
    (`d4cli.output.render.hanging`); a pipe gets each line whole."""
    out = render.console()
    for line in lines:
        out.print(render.hanging(Text.from_markup(line, emoji=False), out, CHANGE_HANG))
