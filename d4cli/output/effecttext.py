"""The words of lasting effects and of where a roll's sources came from (R4, R11, R20).

`describe` and `lasts` read an effect as its JSON object (`d4cli.journal.effect_facts.effect_json`,
the shape docs/cli.md gives: ``{source, grant, on, ends: {kind, creature, last_round, uses},
origin, level}``), so an ``effect`` change just made, the same change read back by ``log``
and a row of ``status`` or ``effect list`` read alike. `ORIGINS` is the one table of the
names of an origin, in JSON and for people, and `END_REASONS` the words of why an effect
ended (`end_reason`): both are the journal's (`d4cli.journal.effect_facts`). Plain text, no Rich: callers escape (N1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from d4cli.journal.effect_facts import ORIGINS

Effect = Mapping[str, Any]  # an effect's JSON object


def lasts(effect: Effect, round_number: int) -> str:
    """What is left of *effect*, in words: ``until removed``, ``2 rounds left (until the end of round 3)``,
    ``until the start of Aria's turn``, ``1 roll left`` (R20).

    *round_number* is the round counted first (`d4cli.fight.effect_transitions.applied_round`: the
    next one once the round is over; a change's ``counts_from``), so ``--rounds 1``
    always reads ``1 round left``.
    """
    ends = effect.get("ends") or {}
    kind = ends.get("kind")
    if kind == "start":
        return f"until the start of {ends.get('creature')}'s turn"
    if kind == "end":
        return f"until the end of {ends.get('creature')}'s turn"
    if kind == "rounds":
        last = ends.get("last_round") or 0
        left = last - max(round_number, 1) + 1
        if left < 1:
            return f"until the end of round {last}"
        return f"{left} round{'s' if left != 1 else ''} left (until the end of round {last})"
    if kind == "uses":
        uses = ends.get("uses")
        return f"{uses} roll{'s' if uses != 1 else ''} left"
    return "until removed"


def describe(effect: Effect, round_number: int) -> str:
    """``darkness -1d4, until removed``; ``prone, attacks against it +1d4, until ...`` (R20);
    a Team Action grant says so (R11); a level other than 1 is named:
    ``blessed +1d4, Advantage level 2 on checks (C8), until removed``.

    *round_number* as in `lasts`. Names are as written: escape them for markup.
    """
    sign = "+1d4" if effect.get("grant") == "advantage" else "-1d4"
    where = f", attacks against it {sign}" if effect.get("on") == "against" else f" {sign}"
    team = ORIGINS["team"]
    grant = f" ({team.label})" if effect.get("origin") == team.json else ""
    level = effect.get("level") or 1
    levels = f", Advantage level {level} on checks (C8)" if level != 1 else ""
    hidden = " (GM only)" if effect.get("public") is False else ""  # off the player view
    return f"{effect.get('source')}{where}{grant}{levels}{hidden}, {lasts(effect, round_number)}"


def chip(effect: Effect, round_number: int) -> str:
    """An effect in a few characters for the compact status table: ``-shaken 2r`` (2 rounds left),
    ``+focus 1 use``, ``-prone vs it`` (on rolls against it), ``+team action`` (R11, R20).

    *round_number* as in `lasts`. Names are as written: escape them for markup.
    """
    text = ("+" if effect.get("grant") == "advantage" else "-") + str(effect.get("source"))
    if effect.get("on") == "against":
        text += " vs it"
    ends = effect.get("ends") or {}
    if ends.get("kind") == "rounds":
        left = (ends.get("last_round") or 0) - max(round_number, 1) + 1
        text += f" {max(left, 1)}r"
    elif ends.get("kind") == "uses":
        uses = ends.get("uses")
        text += f" {uses} use{'s' if uses != 1 else ''}"
    return text
