"""The one line of an act (``log``, ``act --short``, a refusal): who acted and how, what
counted and where it came from (R4, R9, R10, R11, R20). Rich markup, no table.

It works on an act's journal entry (`d4cli.output.serialize.act_json`), as every
summary of `d4cli.output.render.encounter` works on its entry.
"""

from __future__ import annotations

from typing import Any

from d4cli.fight.encounter import same_name
from d4cli.output.render import bold_name, escape, load_change, plain
from d4cli.rules.names import fold_name


def _aspect_name(entry: dict[str, Any]) -> object:
    """The Aspect's name of an act entry (``aspect`` held the name in journals of older versions)."""
    return entry.get("aspect_name", entry.get("aspect"))


def gm_called(entry: dict[str, Any]) -> bool:
    """Whether an act entry is a GM-called roll (R9); journals of older versions say so
    by ``gate_skipped`` alone (only a GM-called roll skips the gate)."""
    return bool(entry.get("gm_called") or entry.get("gate_skipped"))


def act_head(entry: dict[str, Any]) -> str:
    """``Borin shove (Might, Cost 1, off-turn R10)``: who acted, the named action (if one was
    used) and the Aspect, the Cost, and why it is not a plain action (R9, R10); a GM-called
    roll reads ``(Might, GM-called R9, no Cost)``, never off-turn. Rich markup."""
    aspect = escape(str(_aspect_name(entry)))
    if gm_called(entry):
        inside = ["GM-called R9", "no Cost"]
    else:
        inside = [f"Cost {entry.get('cost')}"]
        if entry.get("off_turn"):
            inside.append("off-turn R10")
    if entry.get("action"):
        return f"{bold_name(entry.get('actor'))} {escape(str(entry['action']))} ({aspect}, {', '.join(inside)})"
    return f"{bold_name(entry.get('actor'))} {aspect} ({', '.join(inside)})"


# How a source's origin reads after its name in a line (`ORIGIN_NAMES` values of the JSON, R4, R11, R20).
_ORIGIN_LABELS = {"effect": " (effect)", "team-action": " (Team Action)"}


def counted_sources(entry: dict[str, Any]) -> str:
    """``+torch, +team action (Team Action), -shaken (effect)``: the distinct sources that
    counted (R4), each with where it came from when not the command line (R11, R20); "" for none."""
    origins: dict[tuple[str, str], str] = {}
    for item in entry.get("sources") or ():
        if isinstance(item, dict):
            origins.setdefault(
                (str(item.get("grant")), fold_name(str(item.get("source")))),
                str(item.get("origin")),
            )
    parts = []
    for grant, sign in (("advantage", "+"), ("disadvantage", "-")):
        for name in entry.get(grant) or ():
            label = _ORIGIN_LABELS.get(origins.get((grant, fold_name(str(name))), ""), "")
            parts.append(f"{sign}{escape(str(name))}{label}")
    return ", ".join(parts)


def act_refusal(entry: dict[str, Any], reason: str) -> str:
    """``Borin shove (Might, Cost 3): refused by the gate (R2): ...``: a refused act as one plain line."""
    return f"{plain(act_head(entry))}: {reason}"


def act_summary(entry: dict[str, Any]) -> str:
    """The line of an ``act`` entry (`log`, ``--short``): who and how, the dice, the result, the
    sources that counted (R4), the Load (R8)."""
    dice = list(entry.get("dice", []))
    for extra in entry.get("extra", []):
        dice += extra.get("dice", [])
    text = (
        f"{act_head(entry)}: {entry.get('pool_size')}d4"
        + "".join(f" + {escape(str(extra.get('notation')))}" for extra in entry.get("extra", []))
        + f" ({' '.join(str(die) for die in dice)}) = [bold]{entry.get('total')}[/]"
    )
    if entry.get("dc") is not None:
        text += f" vs DC {entry['dc']}: {entry.get('outcome')}"
    if entry.get("evasion") is not None:
        against = f"Evasion {entry['evasion']}"
        if entry.get("target"):
            itself = same_name(entry.get("target"), entry.get("actor"))
            # a slip worth a word: the act hits its own actor
            against = f"{bold_name(entry['target'])} ({against}{', itself' if itself else ''})"
        text += f" vs {against}: {entry.get('damage')} damage"
        if entry.get("hp_after") is not None:
            text += f", HP {entry.get('hp_before')} -> {entry['hp_after']}"
            if entry.get("target_down"):
                text += " [red bold](already down, R18)[/]"
            elif entry["hp_after"] == 0:
                text += " [red bold](0 HP: down, R16, R18)[/]"
    sources = counted_sources(entry)
    if sources:
        text += f"; sources {sources} (R4)"
    return text + f"; {load_change(entry)}"
