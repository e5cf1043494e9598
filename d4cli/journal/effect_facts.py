"""Lasting effects as journal facts (R20): one effect, the effects a change ended, an ``effect`` change;
the names of a source's origin and the words of why an effect ended, which those facts hold."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple, Self

from d4cli.fight.effects import Effect, Ended
from d4cli.fight.events import EffectEvent
from d4cli.journal import JsonObject
from d4cli.journal.heads import Change, change_head, event_head
from d4cli.journal.values import Facts, read_int, read_object, read_str


class Origin(NamedTuple):
    """The names of one origin of a source (R4, R11, R20).

    Attributes:
        json: in an act's ``sources`` and an effect's ``origin`` (the public contract).
        check: in a sheet check's ``sources`` and steps (the public contract); None for
            ``command``, as a check names its command-line sources by their option
            (``--adv``, ``--dis``: the model's origin there).
        label: in an act's "Sources" step and an effect's line, for people.
    """

    json: str
    check: str | None
    label: str


# The model's origin (`d4cli.fight.effects.Effect.origin`, the third item of an act's sources) -> its names.
ORIGINS: dict[str, Origin] = {
    "command": Origin("command-line", None, "command line"),
    "effect": Origin("effect", "effect", "effect"),
    "team": Origin("team-action", "team action", "Team Action"),
}


# An origin's journal name (`Origin.json`) -> the model's (`d4cli.fight.effects.Effect.origin`).
MODEL_ORIGINS: dict[str, str] = {names.json: model for model, names in ORIGINS.items()}


def check_origin(origin: str) -> str:
    """A sheet check source's origin as the check names it: ``team action``, ``effect``, ``--adv``, ``--dis`` (C8)."""
    names = ORIGINS.get(origin)
    return origin if names is None or names.check is None else names.check


# Why an effect ended (`d4cli.fight.effects.END_REASONS`) -> the words, the ``reason`` of an
# ended effect's JSON (the public contract); ``{who}`` and ``{round}`` from its `Ended` record.
END_REASONS: dict[str, str] = {
    "turn_start": "start of {who}'s turn",
    "turn_end": "end of {who}'s turn",
    "round_end": "end of round {round}",
    "turn_skipped": "end of round {round}, {who} is down and its turn was skipped (R18)",
    "removed": "{who} removed",
    "turn_removed": "{who} removed, and its turn with it (R17)",
    "used_up": "used up",
}


def end_reason(ended: Ended) -> str:
    """Why *ended* ended, in words: ``start of Goblin Archer's turn``, ``end of round 2``,
    ``end of round 2, Bram is down and its turn was skipped (R18)``, ``Borin removed``, ``used up`` (R20).

    Names are as written: escape them for markup.

    Raises:
        KeyError: a reason code not in `END_REASONS`.
    """
    return END_REASONS[ended.why].format(who=ended.who, round=ended.round)


def effect_json(effect: Effect) -> JsonObject:
    """A lasting effect (R20): ``{source, grant, on, ends: {kind, creature, last_round, uses}, origin, level}``
    (``level``: its Advantage level on checks, C8; 1 unless the effect says otherwise); a GM-only
    effect also ``public`` false (never on the player view)."""
    found = {
        "source": effect.source,
        "grant": effect.grant,
        "on": effect.on,
        "ends": {
            "kind": effect.ends,
            "creature": effect.creature,
            "last_round": effect.last_round,
            "uses": effect.uses,
        },
        "origin": ORIGINS[effect.origin].json,
        "level": effect.level,
    }
    if not effect.public:
        found["public"] = False
    return found


def ended_json(ended: Iterable[Ended]) -> list[JsonObject]:
    """Effects a change ended (R20): each effect's object plus ``creature`` and ``reason``."""
    return [
        {**effect_json(gone.effect), "creature": gone.creature, "reason": end_reason(gone)}
        for gone in ended
    ]


def effect_event_json(event: EffectEvent) -> JsonObject:
    """An ``effect`` change (R20): ``action`` add or remove, the effect, the one it replaced."""
    return {
        **event_head(event),
        "action": event.action,
        "effect": effect_json(event.effect),
        "replaced": None if event.replaced is None else effect_json(event.replaced),
        **({"counts_from": event.counts_from} if event.counts_from is not None else {}),
    }


@dataclass(frozen=True, kw_only=True)
class EffectChange(Change):
    """An ``effect`` (R20): ``add`` or ``remove``, the effect's object and the one it replaced
    (`d4cli.journal.effect_facts.effect_json`), the round its rounds count from."""

    action: str | None
    effect: Facts
    replaced: Facts | None
    counts_from: int | None

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            action=read_str(facts, "action"),
            effect=read_object(facts, "effect") or {},
            replaced=read_object(facts, "replaced") or None,
            counts_from=read_int(facts, "counts_from"),
        )
