"""One change of an encounter: `Writer.change` applies a pure transition under the file's
lock and journal, and returns the `Change` record of what it did (every `d4cli.api.Tracker`
method is one such transition)."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, NamedTuple, TypeVar

from d4cli.api.reader import Reader
from d4cli.fight.encounter import Encounter
from d4cli.journal.entry import journal_json, read_head
from d4cli.rules.dice import DiceSource
from d4cli.rules.errors import D4Error
from d4cli.store.transaction import Clock, Transaction, local_now

if TYPE_CHECKING:  # the union of every record a change returns, for the annotations
    from d4cli.journal.entry import Record

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


class Writer(Reader):
    """A `Reader` that can change the encounter file: any pure transition, under its lock.

    Args:
        path: the encounter file.
        rng: the dice (anything with ``randint(a, b)``); default a fresh `random.Random`.
        clock: the time each journal entry records; default local time.
        lock_timeout: seconds to wait for another command's lock (None: 5 s).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        rng: DiceSource | None = None,
        clock: Clock = local_now,
        lock_timeout: float | None = None,
    ) -> None:
        super().__init__(path)
        self.rng: DiceSource = random.Random() if rng is None else rng
        self.clock = clock
        self.lock_timeout = lock_timeout
        self._underway: Transaction | None = None
        self.began_change = False  # a `change` was started (it may wait for the lock)
        # ("undo" | "redo", the newest standing seq before it) once one was started.
        self.going_back: tuple[str, int | None] | None = None

    def change(
        self,
        transition: Callable[[Encounter], tuple[Encounter, R]],
        *,
        note: str | None = None,
        dry_run: bool = False,
        always_logged: bool = False,
    ) -> Change[R]:
        """Apply a pure *transition* of `d4cli.fight` to the encounter, under its lock.

        A refused record (``allowed`` false) writes nothing; so does a transition that leaves
        the encounter as it was, unless *always_logged* (a roll, a note). *note* joins the
        journal entry.
        """
        if dry_run:
            encounter = self.status()
            new, record = transition(encounter)
            return Change(record, new, written=False, dry_run=True)
        self.began_change = True
        with Transaction(self.path, timeout=self.lock_timeout, clock=self.clock) as txn:
            self._underway = txn
            new, record = transition(txn.encounter)
            refused = not getattr(record, "allowed", True)
            same = new == txn.encounter and not always_logged
            if refused or same:
                return Change(record, txn.encounter, written=False)
            written = txn.commit(new, journal_json(record), note)
        return Change(record, new, True, False, written.warning, written.dropped_comments)

    @property
    def writing_seq(self) -> int | None:
        """The ``seq`` of the journal entry this Writer's newest change began to write, or None
        (it wrote none: refused, unchanged, or stopped before writing)."""
        return None if self._underway is None else self._underway.writing_seq

    def saved_seq(self) -> int | None:
        """After a change of this Writer was interrupted (Ctrl-C): the ``seq`` of its journal
        entry when the change stands (it was saved whole), else None (nothing of it was saved:
        the store writes a change wholly or not at all).

        Raises:
            FileError: the file or its journal cannot be read now.
        """
        seq = self.writing_seq
        if seq is None:
            return None
        entries = self.history(1).entries
        return seq if entries and read_head(entries[-1]).seq == seq else None

    def newest_seq(self) -> int | None:
        """The ``seq`` of the newest standing journal entry, or None (no history, or it cannot
        be read now)."""
        try:
            entries = self.history(1).entries
        except D4Error:
            return None
        return read_head(entries[-1]).seq if entries else None

    def went_back(self) -> tuple[str, int | None, int | None] | None:
        """After an ``undo`` or ``redo`` of this Writer was interrupted: ``(kind, before, now)``,
        its kind and the newest standing ``seq`` before it and now: it was done when the two
        differ (undo and redo are written wholly or not at all); None when neither was started."""
        if self.going_back is None:
            return None
        kind, before = self.going_back
        return kind, before, self.newest_seq()
