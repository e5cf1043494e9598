"""`SeatDesk`: action requests sent from a seat, queued for the GM or carried out at once.

A seat (`d4cli.api.seats`) sends what ``act`` takes, for its own creature only: an Aspect or
named action, a Cost, Advantage/Disadvantage sources, extra dice, a target by the name the
players see, and either a roll or the faces of real dice (`SeatAction`). With ``[player_view]
seats = "approve"`` (the default) the request is queued, numbered, in ``PATH.requests``
(`d4cli.store.requests`) for the GM to `approve` or `deny`; with ``"auto"`` it is carried out
at once. Either way a carried-out request is one journal entry under the encounter's lock,
as ``act`` is, noted as coming from the seat; ``undo`` takes it back. No token is kept in
the requests, the journal or the record returned.

The journal is the truth of what was carried out: a request is carried out when a standing
journal entry holds its ``seat`` and ``request`` facts. The entry is written before
``PATH.requests``, so a crash between the two leaves the request ``pending`` in the file;
`SeatDesk.approve` finds its entry and marks it approved instead of carrying it out twice,
and a seat's reads (`SeatDesk.requests_of`) say ``approved`` for it, and ``undone`` for an
approved request whose entry ``undo`` took back.
"""

from __future__ import annotations

import random
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from d4cli.api.change import Change
from d4cli.api.seat_limits import DRAFT_SECONDS, age, bounded, check_waiting
from d4cli.api.tracker import Tracker
from d4cli.fight.actions import ActRecord, ActRequest, act, act_entered
from d4cli.fight.encounter import Creature, Encounter, same_name
from d4cli.fight.sheets import apply_named_action
from d4cli.journal.entry import journal_json
from d4cli.rules.dice import DiceSource, parse_extras
from d4cli.rules.errors import InputError, escape_control
from d4cli.rules.limits import COST, check_range
from d4cli.rules.names import check_text
from d4cli.store import requests as request_file
from d4cli.store import seats as seat_file
from d4cli.store.drafts import DraftRow, drop_draft, read_drafts
from d4cli.store.history import stream_history
from d4cli.store.requests import RequestRow, Requests
from d4cli.store.transaction import Transaction

NO_SEAT = "no such seat (revoked, reset or mistyped)"
REASON_MAX = 200  # a denial's reason: as long as a note may be
# A seat's extra dice (R6), all terms together: a weapon's few, not a GM's table of thousands,
# so that one seat's previews and odds stay cheap for the server every seat shares.
SEAT_EXTRA_DICE = 12
# The keys of a journal entry that are not the act's own object (`journal_json`).
ENTRY_ONLY = ("seq", "time", "note", "seat", "request")


class SeatAction(NamedTuple):
    """What a seat asks its creature to do (the fields ``act`` takes; R2-R8, R16).

    Attributes:
        aspect: an Aspect or named action of the seat's creature (N1).
        cost: the Cost (R3); None: 1, or the named action's.
        advantage / disadvantage: source names (R4).
        extra: extra dice in notation (``"1d6"``, R6, L3).
        target: the creature attacked, by the name the players see (its alias), among
            the creatures they see; None for no target.
        faces: the faces of real dice, the pool's d4s then the extra dice; None: roll.
        creature: the creature the sender thinks it acts for; None: the seat's. Any other
            than the seat's is refused.
    """

    aspect: str
    cost: int | None = None
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    target: str | None = None
    faces: tuple[int, ...] | None = None
    creature: str | None = None


class Submitted(NamedTuple):
    """The answer to a submission.

    Attributes:
        request: the request as now kept (``status`` ``pending``, or ``approved`` with its
            ``result`` when carried out at once).
        change: the act's `Change` when carried out at once (``seats = "auto"``), else None.
    """

    request: RequestRow
    change: Change[ActRecord] | None


class SeatDesk:
    """The requests of the encounter a *tracker* holds (its dice, clock and lock timeout).

    The seat's side (`submit`, `requests_of`, `request_of`) is called with a token and acts
    for that token's creature alone; the GM's side (`pending`, `all`, `approve`, `deny`)
    takes request numbers.

    Raises (every method):
        FileError: the encounter or a side file cannot be read or written. LockTimeout.
    """

    def __init__(self, tracker: Tracker) -> None:
        self.tracker = tracker
        self.path = tracker.path

    # --- the seat's side --------------------------------------------------------------------

    def submit(self, token: str, action: SeatAction) -> Submitted:
        """Send *action* from the seat of *token*: checked on the encounter as it stands, then
        queued (``approve``) or carried out at once (``auto``), all under the encounter's lock.

        Raises:
            InputError: naming the field, nothing queued or written: ``token`` (no such
                seat), ``creature`` (not the seat's, or down, R18), ``aspect`` (unknown),
                ``cost`` (out of range, or the gate refuses, R2), ``target`` (not a creature
                the players see), ``extra``, ``faces`` (a count other than the roll takes,
                a face outside its die).
        """
        with Transaction(
            self.path, timeout=self.tracker.lock_timeout, clock=self.tracker.clock
        ) as txn:
            creature = self._creature(token, action, txn.encounter)
            stored = stored_action(action)
            view = txn.encounter.player_view
            auto = view is not None and view.seats == "auto"
            # A queued request is rolled at approval: the check's dice are thrown away.
            dice = self.tracker.rng if auto else random.Random()
            requests = request_file.read_requests(self.path)
            check_waiting(requests, creature)
            drop_draft(self.path, creature)
            new, record = judged(txn.encounter, creature, stored, dice)
            # Past every journaled request too: a requests file removed to start afresh
            # must not reuse a number whose entry stands (it would read as carried out).
            number = max(requests.next, 1 + max(_carried_out(self.path), default=(0, ""))[0])
            row = RequestRow(number, creature, self._now(), stored)
            change = None
            if auto:
                change = _commit(txn, new, record, row)
                row = row._replace(status="approved", result=journal_json(record))
            rows = (*requests.rows, row)
            request_file.write_requests(self.path, bounded(Requests(number + 1, rows)))
        return Submitted(row, change)

    def building(self, within: float = DRAFT_SECONDS) -> tuple[DraftRow, ...]:
        """The actions seats are building (`d4cli.store.drafts`): each creature's newest
        preview of the last *within* seconds, not yet sent, newest first.

        Raises:
            FileError: ``PATH.drafts`` is not d4cli's own or damaged.
        """
        now: datetime = self.tracker.clock()
        fresh = [row for row in read_drafts(self.path) if age(now, row.time) <= within]
        return tuple(sorted(fresh, key=lambda row: row.time, reverse=True))

    def requests_of(self, token: str) -> tuple[RequestRow, ...]:
        """The requests the seat of *token* sent, oldest first (() for an unknown token), each
        with its outcome as the journal has it: ``pending``; ``approved`` with ``result`` (also
        a request whose entry stands though a crash kept the file from saying so); ``undone``
        (approved, then taken back by ``undo``: its ``result`` is what was undone); ``denied``
        with ``reason``."""
        seat = seat_file.find(seat_file.read_seats(self.path), token)
        if seat is None:
            return ()
        rows = [
            row
            for row in request_file.read_requests(self.path).rows
            if row.creature == seat.creature
        ]
        if not any(row.status in ("pending", "approved") for row in rows):
            return tuple(rows)
        carried = _carried_out(self.path)
        return tuple(_as_journaled(row, carried) for row in rows)

    def request_of(self, token: str, number: int) -> RequestRow | None:
        """The seat's own request *number* with its outcome (as `requests_of`), or None:
        unknown token, or not its request."""
        return next((row for row in self.requests_of(token) if row.number == number), None)

    # --- the GM's side ----------------------------------------------------------------------

    def all(self) -> tuple[RequestRow, ...]:
        """Every request, oldest first."""
        return request_file.read_requests(self.path).rows

    def pending(self) -> tuple[RequestRow, ...]:
        """The requests waiting for the GM, oldest first."""
        return tuple(row for row in self.all() if row.status == "pending")

    def approve(self, number: int) -> tuple[RequestRow, Change[ActRecord]]:
        """Carry out pending request *number* exactly as ``act`` would, judged on the encounter as
        it stands (rolled now, or with its entered faces); one journal entry, noted as from the seat.

        A refusal by the rules (R2, R18) writes nothing and leaves the request pending: the
        `Change`'s record says why.

        A request already carried out (its journal entry stands: a crash came between the
        entry and the requests file) is not carried out again: it is marked approved with the
        entry's act, and the error says so.

        Raises:
            InputError: ``number`` unknown or already answered (or carried out already, as
                above); the request no longer fits the encounter (its creature, Aspect or
                target gone or hidden), naming the field.
        """
        with Transaction(
            self.path, timeout=self.tracker.lock_timeout, clock=self.tracker.clock
        ) as txn:
            requests = request_file.read_requests(self.path)
            row = _pending(requests, number)
            entry = _carried_out(self.path).get((row.number, row.creature))
            if entry is None or entry["time"] < row.time:
                entry = None
                try:
                    new, record = judged(
                        txn.encounter, row.creature, row.act, self.tracker.rng, refuse=False
                    )
                except InputError as error:
                    raise InputError(
                        error.field,
                        error.value,
                        f"request {number}: {error.problem}",
                        mentions=error.mentions,
                    ) from None
                if not record.allowed:
                    return row, Change(record, txn.encounter, written=False)
                change = _commit(txn, new, record, row)
                done = row._replace(status="approved", result=journal_json(record))
            else:
                # Journaled, then a crash before the requests file: never carried out twice.
                done = row._replace(status="approved", result=_act_of(entry))
            request_file.write_requests(self.path, bounded(_with(requests, done)))
        if entry is not None:
            problem = (
                f"request {number} was carried out already (journal entry {entry['seq']}): "
                "now marked approved"
            )
            raise InputError("number", number, problem)
        return done, change

    def deny(self, number: int, reason: str | None = None) -> RequestRow:
        """Answer pending request *number* with no: nothing is rolled or written but the answer,
        which the seat reads with *reason* (`request_of`).

        Raises:
            InputError: ``number`` unknown or already answered; a *reason* that is not text (N1).
        """
        text = None if reason is None else _one_line(reason, "reason")
        with Transaction(self.path, timeout=self.tracker.lock_timeout):
            requests = request_file.read_requests(self.path)
            done = _pending(requests, number)._replace(status="denied", reason=text)
            request_file.write_requests(self.path, bounded(_with(requests, done)))
        return done

    # --- the seat's creature, the time -----------------------------------------------------

    def _creature(self, token: str, action: SeatAction, encounter: Encounter) -> str:
        seat = seat_file.find(seat_file.read_seats(self.path), token)
        if seat is None:
            raise InputError("token", None, NO_SEAT)
        creature = seated(encounter, seat.creature)
        if action.creature is not None and not (
            same_name(action.creature, creature.name)
            or same_name(action.creature, creature.alias or None)
        ):
            raise InputError("creature", action.creature, "a seat acts for its own creature only")
        return creature.name

    def _now(self) -> str:
        now: datetime = self.tracker.clock()
        return now.isoformat(timespec="seconds")


def seated(encounter: Encounter, name: str) -> Creature:
    """The seat's creature *name* (as the seats file writes it) in *encounter*.

    Raises:
        InputError: field ``token``, as for a token that finds no seat, when the creature is
            no longer in the encounter (removed): the error an unknown name gets would list
            every creature, hidden ones and real names behind aliases among them.
    """
    for creature in encounter.creatures:
        if creature.name == name:
            return creature
    raise InputError("token", None, NO_SEAT)


def stored_action(action: SeatAction) -> dict[str, Any]:
    """The request as ``PATH.requests`` keeps it, its fields checked on their own (L1-L3, N1)."""
    if action.cost is not None:
        check_range(action.cost, "cost", COST)
    extras = parse_extras(action.extra)
    count = sum(extra.count for extra in extras)
    if count > SEAT_EXTRA_DICE:
        problem = f"at most {SEAT_EXTRA_DICE} extra dice from a seat"
        raise InputError("extra", f"{count} dice", problem)
    return {
        "aspect": check_text(action.aspect, "aspect", name=True),
        "cost": action.cost,
        "advantage": [check_text(s, "advantage", name=True) for s in action.advantage],
        "disadvantage": [check_text(s, "disadvantage", name=True) for s in action.disadvantage],
        "extra": list(action.extra),
        "target": None if action.target is None else check_text(action.target, "target", name=True),
        "faces": None if action.faces is None else list(action.faces),
    }


def _one_line(text: str, field: str) -> str:
    """*text* once it is one line of at most 200 characters, without control characters."""
    check_text(text, field)
    if escape_control(text) != text or not text.strip() or len(text) > REASON_MAX:
        problem = f"must be one line of at most {REASON_MAX} characters, without control characters"
        raise InputError(field, escape_control(text)[:40], problem)
    return text


def _visible_target(encounter: Encounter, shown: str) -> str:
    """The creature the players see as *shown* (its alias, else its name); hidden ones are unknown."""
    for creature in encounter.creatures:
        if not creature.hidden and same_name(creature.alias or creature.name, shown):
            return creature.name
    raise InputError("target", shown, "no such creature among those the players see")


def judged(
    encounter: Encounter,
    creature: str,
    stored: dict[str, Any],
    rng: DiceSource,
    *,
    refuse: bool = True,
) -> tuple[Encounter, ActRecord]:
    """The act of *stored* for *creature* on *encounter*, as ``act`` computes it.

    With *refuse*, a refusal by the rules (R2, R18) is an `InputError` naming the field.
    """
    target = None if stored["target"] is None else _visible_target(encounter, stored["target"])
    cost = stored["cost"]
    request = ActRequest(
        actor=creature,
        aspect=stored["aspect"],
        cost=1 if cost is None else cost,
        advantage=tuple(stored["advantage"]),
        disadvantage=tuple(stored["disadvantage"]),
        extra=parse_extras(stored["extra"]),
        target=target,
    )
    named = {
        "cost": cost,
        "extra": stored["extra"] or None,
        "adv": stored["advantage"] or None,
        "dis": stored["disadvantage"] or None,
    }
    given = frozenset(key for key, value in named.items() if value is not None)
    faces = stored["faces"]
    try:
        named_request = apply_named_action(encounter, request, given)
        if faces is None:
            new, record = act(encounter, named_request, rng)
        else:
            new, record = act_entered(encounter, named_request, faces)
    except InputError as error:
        field = {"ASPECT": "aspect", "NAME": "creature"}.get(error.field, error.field)
        raise InputError(field, error.value, error.problem, mentions=error.mentions) from None
    if record.actor_down and refuse:
        raise InputError("creature", creature, "is down (0 hp) and cannot act (R18)")
    gate = record.result.plan.gate
    if not gate.allowed and refuse:
        problem = f"refused by the gate (R2): headroom {gate.headroom} < Cost {gate.cost}"
        raise InputError("cost", gate.cost, problem)
    return new, record


def _commit(
    txn: Transaction, new: Encounter, record: ActRecord, row: RequestRow
) -> Change[ActRecord]:
    """Journal the act of request *row* (noted as from its seat) and write the encounter."""
    facts = {**journal_json(record), "seat": row.creature, "request": row.number}
    written = txn.commit(new, facts, f"from {row.creature}'s seat (request {row.number})")
    return Change(record, new, True, False, written.warning, written.dropped_comments)


def _pending(requests: Requests, number: int) -> RequestRow:
    for row in requests.rows:
        if row.number == number:
            if row.status != "pending":
                raise InputError("number", number, f"request {number} was {row.status} already")
            return row
    raise InputError("number", number, "no such request (see 'd4cli requests')")


def _carried_out(path: Path) -> dict[tuple[int, str], dict[str, Any]]:
    """The standing journal entries of carried-out requests, by (request number, creature)."""
    found: dict[tuple[int, str], dict[str, Any]] = {}
    for entry in stream_history(path).entries():
        number, seat = entry.get("request"), entry.get("seat")
        if entry.get("kind") == "act" and isinstance(number, int) and isinstance(seat, str):
            found[number, seat] = entry
    return found


def _act_of(entry: dict[str, Any]) -> dict[str, Any]:
    """The act's object of a journal entry (as `journal_json` made it)."""
    return {key: value for key, value in entry.items() if key not in ENTRY_ONLY}


def _as_journaled(row: RequestRow, carried: dict[tuple[int, str], dict[str, Any]]) -> RequestRow:
    """*row* with the status its journal entry gives: approved once journaled, undone once
    the entry no longer stands."""
    entry = carried.get((row.number, row.creature))
    if row.status == "approved" and entry is None:
        return row._replace(status="undone")
    if row.status == "pending" and entry is not None and entry["time"] >= row.time:
        return row._replace(status="approved", result=_act_of(entry))
    return row


def _with(requests: Requests, done: RequestRow) -> Requests:
    rows = tuple(done if row.number == done.number else row for row in requests.rows)
    return requests._replace(rows=rows)
