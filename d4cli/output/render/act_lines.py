"""The markup of an act (Rich markup, no table; every name through `escape`, N1).

Two readings of one act: the live result (`d4cli.fight.actions.ActRecord`, for ``act`` and
``check``: the table's title and the lines under it, `act_title`, `act_lines`) and its journal
entry read typed (`d4cli.journal.acts.ActChange`, for ``log``, ``act --short`` and a refusal:
one line that says who acted and how, what counted and where it came from, `act_summary`;
R4, R9, R10, R11, R20), as every summary of `d4cli.output.render.entry_lines` works on its entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from d4cli.fight.actions import ActRecord
from d4cli.fight.encounter_state import same_name
from d4cli.journal.acts import ActChange
from d4cli.journal.effect_facts import end_reason
from d4cli.output.render import bold_name, escape, load_change, plain
from d4cli.rules.names import fold_name

# The live result: ``act`` and ``check``.


def act_title(record: ActRecord, *, dry_run: bool = False) -> str:
    """The title of an act's steps table (markup): ``Aria: Finesse``, ``Aria: dagger (Finesse)`` for a
    named action, ``(off-turn, R10)``, ``(GM-called, R9)``, ``(dry run)``."""
    title = f"{escape(record.actor)}: {escape(record.aspect)}"
    if record.action is not None:
        title = f"{escape(record.actor)}: {escape(record.action)} ({escape(record.aspect)})"
    if record.result.plan.request.gm:
        title += " (GM-called, R9)"
    elif record.off_turn:
        title += " (off-turn, R10)"
    if dry_run:
        title += " (dry run)"
    return title


def used_up_lines(record: Any) -> list[str]:
    """What a roll (an act or a check: *record* with ``grants_used`` and ``effects_ended``) used up:
    its Team Action grants (R11), then the lasting effects it ended (R20), one line each (markup)."""
    used = [f"+{escape(n)}" for n in record.grants_used.advantage]
    used += [f"-{escape(n)}" for n in record.grants_used.disadvantage]
    lines = [f"Team Action grants used up: {', '.join(used)} (R11)"] if used else []

    for gone in record.effects_ended:
        if gone.effect.origin != "team":
            lines.append(
                f"{escape(gone.effect.source)} on {escape(gone.creature)} ended: {escape(end_reason(gone))} (R20)"
            )
    return lines


def act_lines(record: ActRecord, *, dry_run: bool = False) -> list[str]:
    """The lines under an act's table (markup): grants and effects used up, damage to hp, dry run (R11, R16, R18, R20)."""
    lines = used_up_lines(record)
    if record.target is not None and same_name(record.target, record.actor):
        lines.append(
            f"{escape(record.actor)} acts against itself: its own Evasion and hp (R7, R16)"
        )
    if record.target_down and record.target is not None:
        lines.append(f"{escape(record.target)} is already down (R18): hp stays 0")
    elif record.hp_after is not None and record.target is not None:
        lines.append(f"{escape(record.target)}: HP {record.hp_before} -> {record.hp_after} (R16)")
        if record.hp_zero:
            lines.append(f"[red bold]{escape(record.target)} is at 0 HP: down[/] (R16, R18)")
    if record.fight_over is not None and record.fight_over.winner is not None:
        lines.append(f"[bold]The fight is over[/], won by {escape(record.fight_over.winner)} (R21)")
    elif record.fight_over is not None:
        lines.append("[bold]The fight is over[/]: everyone is down (R21)")
    if dry_run:
        lines.append("Dry run: nothing was written.")
    return lines


# The journal entry: ``log``, ``act --short``, a refusal.


def act_head(act: ActChange) -> str:
    """``Borin shove (Might, Cost 1, off-turn R10)``: who acted, the named action (if one was
    used) and the Aspect, the Cost, and why it is not a plain action (R9, R10); a GM-called
    roll reads ``(Might, GM-called R9, no Cost)``, never off-turn. Rich markup."""
    aspect = escape(str(act.aspect_name))
    if act.gm_called:
        inside = ["GM-called R9", "no Cost"]
    else:
        inside = [f"Cost {act.cost}"]
        if act.off_turn:
            inside.append("off-turn R10")
    if act.action:
        return f"{bold_name(act.actor)} {escape(act.action)} ({aspect}, {', '.join(inside)})"
    return f"{bold_name(act.actor)} {aspect} ({', '.join(inside)})"


# How a source's origin reads after its name in a line (`ORIGIN_NAMES` values of the JSON, R4, R11, R20).
_ORIGIN_LABELS = {"effect": " (effect)", "team-action": " (Team Action)"}


def counted_sources(act: ActChange) -> str:
    """``+torch, +team action (Team Action), -shaken (effect)``: the distinct sources that
    counted (R4), each with where it came from when not the command line (R11, R20); "" for none."""
    origins: dict[tuple[str, str], str] = {}
    for item in act.sources:
        origins.setdefault((str(item.grant), fold_name(str(item.source))), str(item.origin))
    parts = []
    for grant, sign, names in (
        ("advantage", "+", act.advantage),
        ("disadvantage", "-", act.disadvantage),
    ):
        for name in names:
            label = _ORIGIN_LABELS.get(origins.get((grant, fold_name(name)), ""), "")
            parts.append(f"{sign}{escape(name)}{label}")
    return ", ".join(parts)


def act_refusal(facts: Mapping[str, Any], reason: str) -> str:
    """``Borin shove (Might, Cost 3): refused by the gate (R2): ...``: a refused act (its
    object, `d4cli.journal.acts.act_json`) as one plain line."""
    return f"{plain(act_head(ActChange.read(facts)))}: {reason}"


def act_summary(act: ActChange) -> str:
    """The line of an ``act`` entry (`log`, ``--short``): who and how, the dice, the result, the
    sources that counted (R4), the Load (R8)."""
    dice = [*act.dice, *(die for extra in act.extra for die in extra.dice)]
    text = (
        f"{act_head(act)}: {act.pool_size}d4"
        + "".join(f" + {escape(str(extra.notation))}" for extra in act.extra)
        + f" ({' '.join(str(die) for die in dice)}) = [bold]{act.total}[/]"
    )
    if act.dc is not None:
        text += f" vs DC {act.dc}: {act.outcome}"
    if act.evasion is not None:
        against = f"Evasion {act.evasion}"
        if act.target:
            itself = same_name(act.target, act.actor)
            # a slip worth a word: the act hits its own actor
            against = f"{bold_name(act.target)} ({against}{', itself' if itself else ''})"
        text += f" vs {against}: {act.damage} damage"
        if act.hp_after is not None:
            text += f", HP {act.hp_before} -> {act.hp_after}"
            if act.target_down:
                text += " [red bold](already down, R18)[/]"
            elif act.hp_after == 0:
                text += " [red bold](0 HP: down, R16, R18)[/]"
    sources = counted_sources(act)
    if sources:
        text += f"; sources {sources} (R4)"
    return text + f"; {load_change(act.load_before, act.load_after)}"
