"""`SeatDesk`: action requests sent from a seat, queued for the GM or carried out at once.

A seat (`d4cli.api.seats`) sends what ``act`` takes, for its own creature only (`SeatAction`).
With ``[player_view] seats = "approve"`` (the default) the request is queued, numbered, in
``PATH.requests`` (`d4cli.store.seat_files`) for the GM to `approve` or `deny`; with ``"auto"``
it is carried out at once. Every submission, approval and denial is one change through the
tracker's door (`d4cli.api.change.Door.seat_change`): the same lock, read, act, journal entry
and interrupt bookkeeping as ``act``, the entry noted as coming from the seat, then the
requests file. ``undo`` takes an act back. No token is kept in the requests, the journal or
the record returned.

**Found by number.** The requests file keeps an index: each carried-out request's number and
the mark of its journal entry (`d4cli.store.history.Mark`), written in the same change. A
seat's outcome is read from it (one journal line each, whatever the journal's length):
``approved`` while that entry stands, ``undone`` once ``undo`` took it back.

**The crash story.** The entry is written before ``PATH.requests``, so a crash between the two
leaves the request ``pending`` in the file. Every read of the requests looks at the standing
entries the index has not seen (those since the file was last written, bounded:
`d4cli.store.seat_files.unindexed`): a request such an entry carried out reads ``approved``,
the next write indexes it, and `SeatDesk.approve` marks it approved instead of carrying it
out twice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime
from typing import Any, NamedTuple, cast

from d4cli.api.change import Change, Step, Unindexed
from d4cli.api.seats import (
    DRAFT_SECONDS,
    SeatAction,
    age,
    bounded,
    check_key,
    check_waiting,
    own_creature,
    seat_act,
    seat_of,
    stored_action,
)
from d4cli.api.tracker import Tracker
from d4cli.fight.actions import ActRecord
from d4cli.fight.encounter_state import Encounter
from d4cli.fight.request_sight import Changed, changes, read_seen, seen, seen_json
from d4cli.journal.entry import journal_json
from d4cli.rules.errors import D4Error, InputError, escape_control
from d4cli.rules.names import check_text
from d4cli.store import seat_files
from d4cli.store.history import Mark, standing_at
from d4cli.store.seat_files import DraftRow, RequestRow, Requests

REASON_MAX = 200  # a denial's reason: as long as a note may be
# The keys of a journal entry that are not the act's own object (`journal_json`).
ENTRY_ONLY = ("seq", "time", "note", "seat", "request")


class Submitted(NamedTuple):
    """The answer to a submission.

    Attributes:
        request: the request as now kept (``status`` ``pending``, or ``approved`` with its
            ``result`` when carried out at once).
        change: the act's `Change` when carried out at once (``seats = "auto"``), else None.
        again: the request's key was sent before: *request* is that first request as it
            stands now, and nothing was queued or written.
        auto: the encounter's seats act at once (``seats = "auto"``), else the GM approves.
    """

    request: RequestRow
    change: Change[ActRecord] | None
    again: bool = False
    auto: bool = False


class ChangedSince(D4Error):
    """`SeatDesk.approve` found that the encounter changed since the request was sent, in ways
    that matter to it (`d4cli.fight.request_sight.changes`): nothing was rolled or written,
    the request still waits. ``approve(..., confirmed=True)`` carries it out anyway.

    Attributes:
        number: the request's number.
        changes: what changed, in order (`d4cli.fight.request_sight.Changed`).
        target: the request's target as the seat named it, or None.
    """

    def __init__(self, number: int, changes: tuple[Changed, ...], target: str | None) -> None:
        self.number, self.changes, self.target = number, changes, target
        super().__init__(f"request {number}: the encounter changed since it was sent")


class Journaled(NamedTuple):
    """The request a journal entry carried out: its number, its seat's creature, the entry's
    time and the act's object (as `journal_json` made it)."""

    number: int
    creature: str
    time: str
    act: dict[str, Any]


def journaled(entry: Mapping[str, Any]) -> Journaled | None:
    """The request the journal *entry* carried out, or None: the one place the seats read a
    journal entry's facts by key (``kind``, ``seat``, ``request``, ``time``; `seat_facts`
    writes them)."""
    number, seat = entry.get("request"), entry.get("seat")
    if entry.get("kind") != "act" or not isinstance(number, int) or not isinstance(seat, str):
        return None
    act = {key: value for key, value in entry.items() if key not in ENTRY_ONLY}
    return Journaled(number, seat, str(entry.get("time", "")), act)


def seat_facts(row: RequestRow) -> dict[str, Any]:
    """The facts a request's journal entry keeps beside the act's (`journaled` reads them)."""
    return {"seat": row.creature, "request": row.number}


class SeatDesk:
    """The requests of the encounter a *tracker* holds (its door: dice, clock, lock timeout).

    The seat's side (`submit`, `requests_of`, `request_of`) is called with a token and acts
    for that token's creature alone; the GM's side (`pending`, `all`, `approve`, `deny`)
    takes request numbers.

    Raises (every method):
        FileError: the encounter or a side file cannot be read or written. LockTimeout.
    """

    def __init__(self, tracker: Tracker) -> None:
        self.tracker = tracker
        self.door = tracker.door
        self.path = tracker.path

    # --- the seat's side --------------------------------------------------------------------

    def submit(self, token: str, action: SeatAction) -> Submitted:
        """Send *action* from the seat of *token*: checked on the encounter as it stands, then
        queued (``approve``) or carried out at once (``auto``), in one change. The request keeps
        what the player saw (`d4cli.fight.request_sight.Seen`) for its approval.

        Exactly once: an *action* whose ``key`` one of this seat's kept requests holds is that
        request sent again (a double tap, a retry after a lost answer): nothing is checked,
        queued or written, and the answer is that request as it stands (``again``).

        Raises:
            InputError: naming the field, nothing queued or written: ``token`` (no such
                seat), ``creature`` (not the seat's, or down, R18), ``aspect`` (unknown),
                ``cost`` (out of range, or the gate refuses, R2), ``target`` (not a creature
                the players see), ``extra``, ``faces`` (a count other than the roll takes,
                a face outside its die), ``key`` (not 8 to 128 URL-safe characters, or the
                key of another request of this seat, asking something else).
        """
        seat = seat_of(self.path, token)
        key = check_key(action.key)
        made: list[Submitted] = []

        def transition(
            encounter: Encounter, requests: Requests, unseen: Unindexed
        ) -> Step[ActRecord | None]:
            creature = own_creature(encounter, seat, action.creature).name
            stored = stored_action(action)
            base = recovered(requests, unseen)
            view = encounter.player_view
            auto = view is not None and view.seats == "auto"
            first = _keyed(base, creature, key)
            if first is not None:
                if first.act != stored:
                    problem = "is another request's key: a new request needs a new key"
                    raise InputError("key", key, problem)
                made.append(Submitted(first, None, again=True, auto=auto))
                return Step(encounter, None, journaled=False)
            check_waiting(base, creature)
            # A queued request is rolled at approval: the check's dice are thrown away.
            dice = self.door.rng if auto else random.Random()
            new, record = seat_act(creature, stored, dice)(encounter)
            shown = seen_json(seen(encounter, record))
            row = RequestRow(base.next, creature, self._now(), stored, key=key, seen=shown)
            if auto:
                row = row._replace(status="approved", result=journal_json(record))
            made.append(Submitted(row, None, auto=auto))
            kept = bounded(base._replace(next=row.number + 1, rows=(*base.rows, row)))
            if not auto:
                return Step(encounter, record, journaled=False, requests=kept, sent=creature)
            return Step(
                new,
                record,
                seat_facts(row),
                _note(row),
                requests=kept,
                carries=row.number,
                sent=creature,
            )

        change = self.door.seat_change(transition)
        if change.written:
            return made[0]._replace(change=cast("Change[ActRecord]", change))
        return made[0]

    def building(self, within: float = DRAFT_SECONDS) -> tuple[DraftRow, ...]:
        """The actions seats are building (``PATH.drafts``): each creature's newest preview of
        the last *within* seconds, not yet sent, newest first.

        Raises:
            FileError: ``PATH.drafts`` is not d4cli's own or damaged.
        """
        now: datetime = self.door.clock()
        rows = seat_files.read_drafts(self.path)
        fresh = [row for row in rows if age(now, row.time) <= within]
        return tuple(sorted(fresh, key=lambda row: row.time, reverse=True))

    def requests_of(self, token: str) -> tuple[RequestRow, ...]:
        """The requests the seat of *token* sent, oldest first (() for an unknown token), each
        with its outcome as the journal has it: ``pending``; ``approved`` with ``result`` (also
        a request whose entry stands though a crash kept the file from saying so); ``undone``
        (approved, then taken back by ``undo``: its ``result`` is what was undone); ``denied``
        with ``reason``. Reads the index and one journal line per carried-out request."""
        seat = seat_files.find(seat_files.read_seats(self.path), token)
        if seat is None:
            return ()
        requests = seat_files.read_requests(self.path)
        mine = requests._replace(
            rows=tuple(r for r in requests.rows if r.creature == seat.creature)
        )
        if any(row.status == "pending" for row in mine.rows):
            mine = recovered(mine, seat_files.unindexed(self.path, mine))
        marks = [mine.carried[r.number] for r in mine.rows if r.number in mine.carried]
        standing = standing_at(self.path, marks)
        return tuple(_as_journaled(row, mine.carried, standing) for row in mine.rows)

    def request_of(self, token: str, number: int) -> RequestRow | None:
        """The seat's own request *number* with its outcome (as `requests_of`), or None:
        unknown token, or not its request."""
        return next((row for row in self.requests_of(token) if row.number == number), None)

    # --- the GM's side ----------------------------------------------------------------------

    def all(self) -> tuple[RequestRow, ...]:
        """Every request, oldest first."""
        return seat_files.read_requests(self.path).rows

    def pending(self) -> tuple[RequestRow, ...]:
        """The requests waiting for the GM, oldest first."""
        return tuple(row for row in self.all() if row.status == "pending")

    def approve(
        self, number: int, *, confirmed: bool = False
    ) -> tuple[RequestRow, Change[ActRecord]]:
        """Carry out pending request *number* exactly as ``act`` would, judged on the encounter as
        it stands (rolled now, or with its entered faces); one journal entry, noted as from the seat.

        When the encounter changed since the request was sent in a way that matters to it (its
        target went down, the Load and so the pool, an effect, the turn:
        `d4cli.fight.request_sight.changes`), nothing is rolled or written unless *confirmed*:
        `ChangedSince` says what changed, and the request keeps waiting.

        A refusal by the rules (R2, R18) writes nothing and leaves the request pending: the
        `Change`'s record says why.

        A request already carried out (its journal entry stands: a crash came between the
        entry and the requests file) is not carried out again: it is marked approved with the
        entry's act, and the error says so.

        Raises:
            InputError: ``number`` unknown or already answered (or carried out already, as
                above); the request no longer fits the encounter (its creature, Aspect or
                target gone or hidden), naming the field.
            ChangedSince: the encounter changed since the request was sent (not *confirmed*).
        """
        answered: list[RequestRow] = []
        again: list[Mark] = []

        def transition(
            encounter: Encounter, requests: Requests, unseen: Unindexed
        ) -> Step[ActRecord | None]:
            base = recovered(requests, unseen)
            row = _numbered(base, number)
            if _numbered(requests, number).status == "pending" and row.status == "approved":
                # Journaled, then a crash before the requests file: never carried out twice.
                again.append(base.carried[number])
                return Step(encounter, None, journaled=False, requests=bounded(base))
            row = _pending(base, number)
            answered.append(row)
            try:
                new, record = seat_act(row.creature, row.act, self.door.rng, refuse=False)(
                    encounter
                )
            except InputError as error:
                problem = f"request {number}: {error.problem}"
                raise InputError(
                    error.field, error.value, problem, mentions=error.mentions
                ) from None
            if not record.allowed:
                return Step(encounter, record)
            then = read_seen(row.seen)
            found = () if then is None or confirmed else changes(then, seen(encounter, record))
            if found:
                raise ChangedSince(number, found, row.act.get("target"))
            done = row._replace(status="approved", result=journal_json(record))
            answered[0] = done
            kept = bounded(_with(base, done))
            return Step(new, record, seat_facts(row), _note(row), requests=kept, carries=number)

        change = self.door.seat_change(transition)
        if again:
            problem = (
                f"request {number} was carried out already (journal entry {again[0].seq}): "
                "now marked approved"
            )
            raise InputError("number", number, problem)
        return answered[0], cast("Change[ActRecord]", change)

    def deny(self, number: int, reason: str | None = None) -> RequestRow:
        """Answer pending request *number* with no: nothing is rolled or written but the answer,
        which the seat reads with *reason* (`request_of`).

        Raises:
            InputError: ``number`` unknown or already answered; a *reason* that is not text (N1).
        """
        text = None if reason is None else _one_line(reason, "reason")
        answered: list[RequestRow] = []

        def transition(encounter: Encounter, requests: Requests, unseen: Unindexed) -> Step[None]:
            base = recovered(requests, unseen)
            done = _pending(base, number)._replace(status="denied", reason=text)
            answered.append(done)
            return Step(encounter, None, journaled=False, requests=bounded(_with(base, done)))

        self.door.seat_change(transition)
        return answered[0]

    def _now(self) -> str:
        now: datetime = self.door.clock()
        return now.isoformat(timespec="seconds")


def recovered(requests: Requests, unseen: Unindexed) -> Requests:
    """*requests* with each waiting request that one of the *unseen* journal entries carried out
    (a crash came between the entry and the requests file) marked approved, its ``result`` the
    entry's act, and indexed. An entry older than the request carries out some other one."""
    found: dict[tuple[int, str], tuple[Mark, Journaled]] = {}
    for mark, entry in unseen:
        request = journaled(entry)
        if request is not None:
            found.setdefault((request.number, request.creature), (mark, request))
    if not found:
        return requests
    rows: list[RequestRow] = []
    carried = dict(requests.carried)
    for row in requests.rows:
        hit = found.get((row.number, row.creature))
        if row.status == "pending" and hit is not None and hit[1].time >= row.time:
            row = row._replace(status="approved", result=hit[1].act)
            carried[row.number] = hit[0]
        rows.append(row)
    return requests._replace(rows=tuple(rows), carried=carried)


def _as_journaled(
    row: RequestRow, carried: Mapping[int, Mark], standing: Mapping[Mark, object]
) -> RequestRow:
    """*row* with the status its journal entry gives: ``undone`` once its entry no longer
    stands (a request approved before the index was kept reads as the file says)."""
    mark = carried.get(row.number)
    if row.status == "approved" and mark is not None and mark not in standing:
        return row._replace(status="undone")
    return row


def _note(row: RequestRow) -> str:
    return f"from {row.creature}'s seat (request {row.number})"


def _one_line(text: str, field: str) -> str:
    """*text* once it is one line of at most 200 characters, without control characters."""
    check_text(text, field)
    if escape_control(text) != text or not text.strip() or len(text) > REASON_MAX:
        problem = f"must be one line of at most {REASON_MAX} characters, without control characters"
        raise InputError(field, escape_control(text)[:40], problem)
    return text


def _numbered(requests: Requests, number: int) -> RequestRow:
    for row in requests.rows:
        if row.number == number:
            return row
    raise InputError("number", number, "no such request (see 'd4cli requests')")


def _pending(requests: Requests, number: int) -> RequestRow:
    row = _numbered(requests, number)
    if row.status != "pending":
        raise InputError("number", number, f"request {number} was {row.status} already")
    return row


def _keyed(requests: Requests, creature: str, key: str | None) -> RequestRow | None:
    """The request of *creature*'s seat that *key* was given to, or None (no key, or a new one)."""
    if key is None:
        return None
    return next((r for r in requests.rows if r.creature == creature and r.key == key), None)


def _with(requests: Requests, done: RequestRow) -> Requests:
    rows = tuple(done if row.number == done.number else row for row in requests.rows)
    return requests._replace(rows=rows)
