"""One-line summaries of plain rolls (``roll pool --short``, ``roll check --short``): plain text, no Rich.

They work on the rolls' JSON objects (`d4cli.output.serialize`), as the encounter's
lines work on journal entries (`d4cli.output.render.encounter.summary`).
"""

from __future__ import annotations

from typing import Any


def _signed(value: object) -> str:
    return f"{value:+d}" if isinstance(value, int) else str(value)


def pool_line(obj: dict[str, Any]) -> str:
    """``5d4 + 1d8 (3 1 2 4 4 6) = 20 vs DC 12: success; sources +torch, -dark (R4)`` (R4-R9)."""
    dice = [str(die) for die in obj.get("dice") or ()]
    extras = obj.get("extra") or ()
    for extra in extras:
        dice += [str(die) for die in extra.get("dice") or ()]
    text = f"{obj.get('pool_size')}d4" + "".join(f" + {extra.get('notation')}" for extra in extras)
    text += f" ({' '.join(dice)}) = {obj.get('total')}"
    if obj.get("dc") is not None:
        text += f" vs DC {obj['dc']}: {'success' if obj.get('success') else 'failure'}"
    if obj.get("evasion") is not None:
        text += f" vs Evasion {obj['evasion']}: {obj.get('damage')} damage"
    sources = [f"+{name}" for name in obj.get("advantage") or ()] + [
        f"-{name}" for name in obj.get("disadvantage") or ()
    ]
    if sources:
        text += f"; sources {', '.join(sources)} (R4)"
    if obj.get("gate_skipped"):
        text += "; GM-called (R9)"
    return text


def check_line(obj: dict[str, Any]) -> str:
    """``d20 14 +3 +4 (Advantage) = 21 vs DC 18: success`` (C1-C7)."""
    modifiers = sum(obj.get(key) or 0 for key in ("attribute", "proficiency", "specialization"))
    text = f"d20 {obj.get('natural')} {_signed(modifiers)}"
    if obj.get("advantage_bonus"):
        text += f" {_signed(obj['advantage_bonus'])} (Advantage, C3)"
    if obj.get("disadvantage_die") is not None:
        text += f" -{obj['disadvantage_die']} (Disadvantage, C4)"
    if obj.get("crit_die") is not None:
        text += f" +{obj['crit_die']} (critical, C5)"
    text += f" = {obj.get('total')}"
    if obj.get("critical") == "failure":
        text += " (natural 1, C6)"
    if obj.get("dc") is not None:
        words = {
            "success": "success",
            "failure": "failure",
            "success-and": "succeeds, and... (C7)",
            "failure-but": "fails, but... (C7)",
        }
        text += f" vs DC {obj['dc']}: {words.get(str(obj.get('outcome')), obj.get('outcome'))}"
    return text
