"""Rich output of the encounter's changes: one-line summaries of journal entries, a Team Action's table.

Summaries work on the journal's plain entries (`d4cli.output.serialize.changes.journal_json`
objects), so a change just made and the same change read back by ``d4cli log``
read alike.
Every name from the file goes through `escape` (N1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rich.table import Table
from rich.text import Text

from d4cli.fight import closed_sets as kinds
from d4cli.fight.encounter import Encounter
from d4cli.fight.team import TeamRecord
from d4cli.journal.entry import is_several
from d4cli.output import render
from d4cli.output.creature_steps import team_steps
from d4cli.output.render import bold_name, escape, load_change
from d4cli.output.render.actline import act_summary
from d4cli.output.render.effects import effect_summary
from d4cli.output.render.fight import SAME_ROLL, fight_summary
from d4cli.output.render.roll import steps_table
from d4cli.output.render.sheet import sheet_summary
from d4cli.output.render.visibility import view_summary

_name = bold_name


def _sheet(entry: dict[str, Any]) -> str:
    """``; side party; Attributes Willpower 2; ...`` of an ``add`` entry (C8); "" without a sheet."""
    parts = [f"side {escape(str(entry['side']))}"] if entry.get("side") else []
    for key, title in (
        ("attributes", "Attributes"),
        ("proficiencies", "Proficiencies"),
        ("specializations", "Specializations"),
    ):
        if entry.get(key):
            parts.append(f"{title} {_aspects(entry[key])}")
    return "".join(f"; {part}" for part in parts)


def _aspects(aspects: dict[str, Any]) -> str:
    return ", ".join(f"{escape(name)} {value}" for name, value in aspects.items())


_load = load_change


def summary(entry: dict[str, Any]) -> str:
    """One line (Rich markup) that says what a journal entry changed, with its rule ids,
    and the lasting effects it ended (R20).

    *entry* is a change's JSON object (`d4cli.output.serialize.changes.journal_json`: a change just
    made, or read back by ``log``); its ``kind`` picks the line (`SUMMARIES`); a kind this
    version does not know reads as its name.
    """
    if is_several(entry):
        return "; ".join(summary_lines(entry))
    line = SUMMARIES.get(str(entry.get("kind")))
    text = escape(str(entry.get("kind"))) if line is None else line(entry)
    ended = [
        f"{escape(str(gone.get('source')))} on {escape(str(gone.get('creature')))} ended: {escape(str(gone.get('reason')))}"
        for gone in entry.get("effects_ended") or ()
    ]
    text += "".join(f"; {part}" for part in ended) + (" (R20)" if ended else "")
    over = entry.get("fight_over")
    if isinstance(over, dict) and over.get("winner") is not None:
        text += f"; {fight_over_text(over['winner'])}"
    return text


def summary_lines(entry: dict[str, Any]) -> list[str]:
    """The lines a change prints: one per creature of a change of several (`is_several`), the
    dice rolled once shown on the first, the end of the fight on the last (R18); else its `summary`.
    ``log`` joins them into its one line."""
    if not is_several(entry):
        return [summary(entry)]
    unchanged = {"changed": False} if entry.get("changed") is False else {}
    roll = entry.get("roll")
    lines = []
    for index, part in enumerate(p for p in entry["changes"] if isinstance(p, dict)):
        shown = {**part, **unchanged}
        if roll is not None:
            shown["roll"] = roll if index == 0 else SAME_ROLL
        lines.append(summary(shown))
    over = entry.get("fight_over")
    if lines and isinstance(over, dict) and over.get("winner") is not None:
        lines[-1] += f"; {fight_over_text(over['winner'])}"
    return lines


def fight_over_text(winner: object) -> str:
    """``[bold]the fight is over[/], won by foes (R18)``: a side is the last with a creature up."""
    return f"[bold]the fight is over[/], won by {escape(str(winner))} (R18)"


def _init_summary(entry: dict[str, Any]) -> str:
    origin = f" from {escape(str(entry['from']))}" if entry.get("from") else ""
    reset = (
        f", {entry['round_reset']} round reset"
        if entry.get("mode") == "round" and entry.get("round_reset")
        else ""
    )
    return f"new encounter {escape(str(entry.get('name', '')))} ({entry.get('mode')} mode{reset}){origin}"


def _add_summary(entry: dict[str, Any]) -> str:
    hp = f", HP {entry['hp_after']}" if entry.get("hp_after") is not None else ""
    if entry.get("max_hp") is not None:
        hp += f" of {entry['max_hp']}"
    names = entry.get("names") or []
    actor = (
        ", ".join(_name(name) for name in names) if len(names) > 1 else _name(entry.get("actor"))
    )
    if entry.get("like"):
        actor += f" (like {escape(str(entry['like']))})"
    return (
        f"added {actor}: {_aspects(entry.get('aspects', {}))}; Buffer {entry.get('load_buffer')}, "
        f"Exhaustion {entry.get('exhaustion')}, Load {entry.get('load_after')} (R1), "
        f"Evasion {entry.get('evasion')}{hp}{_sheet(entry)}"
        + ("; hidden from the player view" if entry.get("hidden") else "")
    )


def _remove_summary(entry: dict[str, Any]) -> str:
    """``removed Cora; its turn ended, the next turn goes to Aria (R17)``; when nobody is left to
    go, that the round runs on until the next turn start (R19)."""
    text = f"removed {_name(entry.get('actor'))}"
    follower = entry.get("next")
    if entry.get("ended_turn") and follower:
        text += f"; its turn ended, the next turn goes to {_name(follower)}"
    elif entry.get("ended_turn"):
        text += "; its turn ended"
    text += " (R17)"
    if entry.get("round_open"):
        text += (
            f"; nobody is left to go in round {entry.get('round')}, which runs on until the next "
            "turn start: a creature added or healed before then has its turn in it (R19)"
        )
    return text


def _turn_start_summary(entry: dict[str, Any]) -> str:
    actor = _name(entry.get("actor"))
    parts = []
    if entry.get("ended"):
        parts.append(f"{_name(entry['ended'])}'s turn ended (R13)")
    resets = entry.get("resets", [])
    if entry.get("new_round"):
        parts.append(f"round {entry.get('round')} begins")
    for name in entry.get("skipped", []):
        parts.append(f"{_name(name)} is down: skipped (R18)")
    parts.append(f"{actor}'s turn" + (" (out of order, R13)" if entry.get("out_of_order") else ""))
    if entry.get("again"):
        parts.append(f"{actor} already had its turn this round (R19)")
    if entry.get("down"):
        parts.append(f"{actor} is down and cannot act (R18)")
    if len(resets) > 1:
        parts.append(
            "everyone's Load reset (R12): "
            + ", ".join(f"{escape(r['name'])} {r['load_after']}" for r in resets)
        )
    elif resets:
        parts.append(f"Load {resets[0]['load_before']} -> {resets[0]['load_after']} (reset, R1)")
    else:
        parts.append("no reset at a turn in round mode (R12)")
    return "; ".join(parts)


def _turn_end_summary(entry: dict[str, Any]) -> str:
    after = (
        f"next: {_name(entry['next'])}"
        if entry.get("next")
        else f"round {entry.get('round')} is over"
    )
    return f"{_name(entry.get('actor'))}'s turn ended; Load stays {entry.get('load_after')} (R14); {after}"


def _exhaust_summary(entry: dict[str, Any]) -> str:
    return (
        f"{_name(entry.get('actor'))}: Exhaustion {entry.get('exhaustion_before')} -> {entry.get('exhaustion_after')}; "
        f"Load stays {entry.get('load_after')}, resets to {entry.get('reset_value')} (R15)"
    )


def team_head(entry: dict[str, Any]) -> str:
    """``Borin Team Action (Might, Cost 1)``: who pays a Team Action and with what (R11). Rich markup."""
    return f"{_name(entry.get('actor'))} Team Action ({escape(str(entry.get('aspect')))}, Cost {entry.get('cost')})"


def _team_summary(entry: dict[str, Any]) -> str:
    return (
        f"{team_head(entry)}: "
        f"{_name(entry.get('target'))}'s next roll gets {entry.get('grant')} "
        f"'{escape(str(entry.get('source')))}' (R11); {_load(entry)}"
    )


def _note_summary(entry: dict[str, Any]) -> str:
    """``note on Aria: owes Borin a favour``, or ``Aria's notes: "..." (were "...")``."""
    if entry.get("set"):
        notes, before = str(entry.get("notes") or ""), str(entry.get("notes_before") or "")
        now = f'"{escape(notes)}"' if notes else "cleared"
        was = f' (were "{escape(before)}")' if before and before != notes else ""
        return f"{_name(entry.get('actor'))}'s notes: {now}{was}"
    about = f" on {_name(entry['actor'])}" if entry.get("actor") else ""
    return f"note{about}: {escape(str(entry.get('note', '')))}"


def history_line(verb: str, entry: dict[str, Any]) -> str:
    """``Undid #7 act: <summary>`` (*verb* ``Undid`` or ``Redid``) of the journal *entry* undone or redone."""
    return f"{verb} #{entry.get('seq')} {escape(str(entry.get('kind')))}: {summary(entry)}"


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


# Each kind of journal entry (`d4cli.fight.closed_sets`) -> its one-line summary (Rich markup).
def _set_summary(entry: dict[str, Any]) -> str:
    actor = entry.get("actor")
    whose = "the player view" if actor is None else _name(actor)
    changes = [change for change in entry.get("changes") or () if isinstance(change, dict)]
    if not changes:
        return f"{whose}: every field given already holds that value"
    parts = [
        f"{escape(str(change.get('field')))} {_value(change.get('before'))} -> {_value(change.get('after'))}"
        for change in changes
    ]
    return f"{whose}: " + ", ".join(parts) + " (set)"


def _value(value: object) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "true" if value else "false"
    return escape(str(value))


SUMMARIES: dict[str, Callable[[dict[str, Any]], str]] = {
    kinds.INIT: _init_summary,
    kinds.ADD: _add_summary,
    kinds.REMOVE: _remove_summary,
    kinds.TURN_START: _turn_start_summary,
    kinds.TURN_END: _turn_end_summary,
    kinds.ACT: act_summary,
    kinds.TEAM: _team_summary,
    kinds.EXHAUST: _exhaust_summary,
    kinds.DAMAGE: fight_summary,
    kinds.HEAL: fight_summary,
    kinds.MOVE: fight_summary,
    kinds.EFFECT: effect_summary,
    kinds.CHECK: sheet_summary,
    kinds.ACTION_ADD: sheet_summary,
    kinds.ACTION_REMOVE: sheet_summary,
    kinds.NOTE: _note_summary,
    kinds.REVEAL: view_summary,
    kinds.CONCEAL: view_summary,
    kinds.ALIAS: view_summary,
    kinds.SET: _set_summary,
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
