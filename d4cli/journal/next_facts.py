"""The ``next`` entry: one fight of an evening ended and the next began (`d4cli.fight.next_fight`).

`next_json` writes the facts (the object ``next --json`` prints and the journal keeps);
`NextChange` reads them back. A ``next`` entry starts a fight's history as an ``init`` does
(`d4cli.journal.entry.starts_fight`), yet ``undo`` takes it back like any change.
"""

from __future__ import annotations

from d4cli.fight.events import NextEvent
from d4cli.journal import JsonObject
from d4cli.journal.heads import Change
from d4cli.journal.values import read_int, read_str, read_strs


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


class NextChange(Change):
    """A ``next``: the new fight's number and name, the archive of the finished one, who
    carried and who joined. Read from its facts on demand: no fields of its own, so no
    dataclass is compiled for it on every command's start-up (docs/performance.md)."""

    @property
    def fight(self) -> int | None:
        return read_int(self.facts, "fight")

    @property
    def name(self) -> str | None:
        return read_str(self.facts, "name")

    @property
    def previous(self) -> str | None:
        return read_str(self.facts, "previous")

    @property
    def archived(self) -> str | None:
        return read_str(self.facts, "archived")

    @property
    def kept(self) -> tuple[str, ...]:
        return read_strs(self.facts, "kept")

    @property
    def added(self) -> tuple[str, ...]:
        return read_strs(self.facts, "added")
