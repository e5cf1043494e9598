"""`Change`: what one change of an encounter did, as every `d4cli.api.Tracker` method returns it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, NamedTuple, TypeVar

from d4cli.fight.encounter import Encounter

if TYPE_CHECKING:  # the union of every record a change returns, for the annotations
    from d4cli.output.serialize.changes import Record

R = TypeVar("R", bound="Record")


class Change(NamedTuple, Generic[R]):
    """What one change did.

    Attributes:
        record: the fight model's record of it (an `ActRecord`, a `DamageEvent`, ...):
            what happened and why, with the rule ids; the JSON of `--json` is made from it.
        encounter: the encounter after the change (as it was when nothing was written).
        written: the file and its journal were written: False for a refusal (R2, R18),
            a dry run, or a change that would change nothing (then nothing is logged).
        dry_run: computed on the file as it stands, nothing written.
        warning: the journal entry went after a damaged journal line, which this names.
        dropped_comments: hand-written comment lines the rewrite dropped (``undo`` brings them back).
    """

    record: R
    encounter: Encounter
    written: bool
    dry_run: bool = False
    warning: str | None = None
    dropped_comments: int = 0

    @property
    def unchanged(self) -> bool:
        """The change would have left the encounter as it was: nothing written or logged."""
        return not (self.written or self.dry_run) and getattr(self.record, "allowed", True)
