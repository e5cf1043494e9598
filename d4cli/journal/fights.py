"""The ``next`` entry: one fight of an evening ended and the next began (`d4cli.fight.evening`).

`next_json` writes the facts (the object ``next --json`` prints and the journal keeps);
`NextChange` reads them back. A ``next`` entry starts a fight's history as an ``init`` does
(`d4cli.journal.entry.starts_fight`), yet ``undo`` takes it back like any change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self

from d4cli.fight.events import NextEvent
from d4cli.journal import JsonObject
from d4cli.journal.heads import Change, change_head
from d4cli.journal.values import Facts, read_int, read_str, read_strs


def next_json(event: NextEvent) -> JsonObject:
    """A ``next`` (R1, R12, R13, R20): ``kind``, ``round`` (0), ``turn`` and ``actor`` (null),
    ``fight`` (the new fight's number, from 1), ``name``, ``previous`` (the finished fight's
    name), ``archived`` (its archive's path), ``keep_side``, ``kept`` and ``added`` (names),
    ``effects_dropped`` (lasting effects that ended), ``mode`` and ``round_reset``."""
    return {
        "kind": event.kind,
        "round": event.round,
        "turn": event.turn,
        "actor": event.actor,
        "fight": event.fight,
        "name": event.name,
        "previous": event.previous,
        "archived": event.archived,
        "keep_side": event.keep_side,
        "kept": list(event.kept),
        "added": list(event.added),
        "effects_dropped": event.effects_dropped,
        "mode": event.mode,
        "round_reset": event.round_reset,
    }


@dataclass(frozen=True, kw_only=True)
class NextChange(Change):
    """A ``next``: the new fight's number and name, the archive of the finished one, who
    carried and who joined."""

    fight: int | None
    name: str | None
    previous: str | None
    archived: str | None
    kept: tuple[str, ...]
    added: tuple[str, ...]

    @classmethod
    def read(cls, facts: Facts) -> Self:
        return cls(
            **change_head(facts),
            fight=read_int(facts, "fight"),
            name=read_str(facts, "name"),
            previous=read_str(facts, "previous"),
            archived=read_str(facts, "archived"),
            kept=read_strs(facts, "kept"),
            added=read_strs(facts, "added"),
        )
