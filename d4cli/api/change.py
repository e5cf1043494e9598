"""The one door every change of an encounter goes through (`Door`), and the `Change` it returns.

A change, whoever asks for it (a command, ``play``, ``balance --apply``, ``set``, a seat's
request in either mode, ``approve``, ``deny``), is one pass through `Door._through`:

1. the lock and one read of the file (`d4cli.store.transaction.Transaction`), and, for a
   seat's change, of ``PATH.requests`` with the journal entries its index has not seen;
2. the pure transition on what was read: a `Step` (the new encounter, the record, and what
   rides with them);
3. the journal entry: the record's facts (`journal_json`), a seat's ``seat`` and ``request``
   facts, the note; the store's commit writes it, then the file, then resets ``redo``;
4. the side files that ride with the change: ``PATH.requests`` after the entry (with the index
   of the request the entry carried out, and the mark of the newest entry), and a sent
   request's draft dropped;
5. the interrupt bookkeeping (`writing_seq`, `saved_seq`), for what Ctrl-C says.

The store is handed values (the new encounter, the facts, the note, the requests file); it
never calls back. `Door.change` takes a transition of the encounter alone (each `Tracker`
method); `Door.seat_change` one of the encounter and the requests as read
(`d4cli.api.seat_requests`).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar, cast

from d4cli.fight.encounter_state import Encounter
from d4cli.journal.entry import journal_json, read_head
from d4cli.rules.dice import DiceSource
from d4cli.rules.errors import D4Error
from d4cli.rules.records import notebook
from d4cli.store import fight_archive as fights
from d4cli.store import read_encounter, seat_files
from d4cli.store.history import Mark, read_history
from d4cli.store.seat_files import Requests
from d4cli.store.transaction import Clock, Transaction, local_now

if TYPE_CHECKING:  # the union of every record a change returns, for the annotations
    from d4cli.journal.entry import Record

R = TypeVar("R")
# The standing journal entries the requests' index has not seen, newest first (with their marks).
Unindexed = list[tuple[Mark, dict[str, Any]]]


@notebook
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


class Step(NamedTuple, Generic[R]):
    """What a transition hands the door: computed, pure, from what was read under the lock.

    Attributes:
        encounter: the encounter after the change.
        record: the fight model's record (its JSON is the journal entry's facts).
        facts: more facts for the entry (a seat's ``seat`` and ``request``).
        note: the entry's note; None: the caller's.
        journaled: False: no journal entry (a request queued or denied, an answer the
            journal already holds); the side files are written all the same.
        requests: ``PATH.requests`` after the change, written after the entry; None: untouched.
        carries: the number of the request the entry carries out (the index maps it to the entry).
        sent: the creature whose request was sent: its draft ends.
        archive: the archive of the finished fight (``next``), written before the entry.
    """

    encounter: Encounter
    record: R
    facts: Mapping[str, Any] = {}
    note: str | None = None
    journaled: bool = True
    requests: Requests | None = None
    carries: int | None = None
    sent: str | None = None
    archive: fights.Archive | None = None


class Door:
    """The write path of the encounter file at *path*: every change, under its lock.

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
        self.path = Path(path)
        self.rng: DiceSource = random.Random() if rng is None else rng
        self.clock = clock
        self.lock_timeout = lock_timeout
        self._underway: Transaction | None = None
        self.began_change = False  # a change was started (it may wait for the lock)
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
        journal entry. With *dry_run*, computed on the file as it stands, nothing written.
        """

        def step(encounter: Encounter, _: Requests | None, __: Unindexed) -> Step[R]:
            return Step(*transition(encounter))

        return self._through(step, note, dry_run=dry_run, always_logged=always_logged)

    def fight_change(
        self,
        transition: Callable[[Encounter, Requests, Unindexed], Step[R]],
        *,
        note: str | None = None,
    ) -> Change[R]:
        """Apply a *transition* that may end the fight (``next``): its `Step` names the archive
        of the finished fight (`d4cli.store.fight_archive`), written under the lock before the journal
        entry and the new file, so a crash leaves the old fight or the new one, never half.
        The transition runs under the lock and may read the fight's files; it is handed
        ``PATH.requests`` as read (with the entries its index has not seen), to end the
        finished fight's waiting requests."""

        def step(encounter: Encounter, requests: Requests | None, unseen: Unindexed) -> Step[R]:
            assert requests is not None
            return transition(encounter, requests, unseen)

        return self._through(step, note, always_logged=True, seats=True)

    def seat_change(
        self, transition: Callable[[Encounter, Requests, Unindexed], Step[R]]
    ) -> Change[R]:
        """Apply a seat's *transition* of the encounter and ``PATH.requests`` as read under the
        lock, with the standing journal entries its index has not seen that could carry a
        waiting request (`d4cli.store.seat_files.unindexed`: bounded, never the whole journal).
        Acts are always journaled, as ``act``'s are."""

        def step(encounter: Encounter, requests: Requests | None, unseen: Unindexed) -> Step[R]:
            assert requests is not None
            return transition(encounter, requests, unseen)

        return self._through(step, None, seats=True, always_logged=True)

    def _through(
        self,
        transition: Callable[[Encounter, Requests | None, Unindexed], Step[R]],
        note: str | None,
        *,
        dry_run: bool = False,
        always_logged: bool = False,
        seats: bool = False,
    ) -> Change[R]:
        """The one write path (the module's steps 1 to 5)."""
        if dry_run:
            step = transition(read_encounter(self.path), None, [])
            return Change(step.record, step.encounter, written=False, dry_run=True)
        self.began_change = True
        with Transaction(self.path, timeout=self.lock_timeout, clock=self.clock) as txn:
            self._underway = txn
            requests = seat_files.read_requests(txn.path) if seats else None
            unseen = seat_files.unindexed(txn.path, requests) if requests is not None else []
            step = transition(txn.encounter, requests, unseen)
            refused = not getattr(step.record, "allowed", True)
            same = step.encounter == txn.encounter and not always_logged
            written = None
            if step.journaled and not (refused or same):
                facts = {**journal_json(cast("Record", step.record)), **step.facts}
                if step.archive is not None:
                    fights.write_archive(txn.path, txn.data, step.archive)
                written = txn.commit(step.encounter, facts, step.note or note)
            self._ride(txn, step)
        if written is None:
            return Change(step.record, txn.encounter, written=False)
        return Change(step.record, step.encounter, True, False, *written)

    def _ride(self, txn: Transaction, step: Step[Any]) -> None:
        """Write the side files that ride with *step*, after its journal entry and file."""
        if step.requests is not None:
            newest = txn.newest()
            carried = dict(step.requests.carried)
            if step.carries is not None and newest is not None:
                carried[step.carries] = newest
            kept = step.requests._replace(carried=carried, journal=newest)
            seat_files.write_requests(txn.path, kept)
        if step.sent is not None:
            seat_files.drop_draft(txn.path, step.sent)

    # --- the interrupt bookkeeping ---------------------------------------------------------

    @property
    def writing_seq(self) -> int | None:
        """The ``seq`` of the journal entry this door's newest change began to write, or None
        (it wrote none: refused, unchanged, or stopped before writing)."""
        return None if self._underway is None else self._underway.writing_seq

    def saved_seq(self) -> int | None:
        """After a change was interrupted (Ctrl-C): the ``seq`` of its journal entry when the
        change stands (it was saved whole), else None (nothing of it was saved: the store
        writes a change wholly or not at all).

        Raises:
            FileError: the file or its journal cannot be read now.
        """
        seq = self.writing_seq
        if seq is None:
            return None
        entries = read_history(self.path, 1).entries
        return seq if entries and read_head(entries[-1]).seq == seq else None

    def newest_seq(self) -> int | None:
        """The ``seq`` of the newest standing journal entry, or None (no history, or it cannot
        be read now)."""
        try:
            entries = read_history(self.path, 1).entries
        except D4Error:
            return None
        return read_head(entries[-1]).seq if entries else None

    def went_back(self) -> tuple[str, int | None, int | None] | None:
        """After an ``undo`` or ``redo`` was interrupted: ``(kind, before, now)``, its kind and
        the newest standing ``seq`` before it and now: it was done when the two differ (undo
        and redo are written wholly or not at all); None when neither was started."""
        if self.going_back is None:
            return None
        kind, before = self.going_back
        return kind, before, self.newest_seq()
