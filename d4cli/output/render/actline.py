"""The one line of an act (``log``, ``act --short``, a refusal): who acted and how, what
counted and where it came from (R4, R9, R10, R11, R20). Rich markup, no table.

It works on an act's journal entry read typed (`d4cli.journal.acts.ActChange`), as every
summary of `d4cli.output.render.entry_lines` works on its entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from d4cli.fight.encounter_state import same_name
from d4cli.journal.acts import ActChange
from d4cli.output.render import bold_name, escape, load_change, plain
from d4cli.rules.names import fold_name


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
