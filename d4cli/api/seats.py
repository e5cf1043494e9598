"""The players' seats: `Seats` (each a secret token that acts for one creature), what a seat may
send (`SeatAction`, checked into the request ``PATH.requests`` keeps), the one rule that a seat
acts for its own creature only (`own_creature`), the act a request asks for (`seat_act`, built
by the same builder as ``act``'s) and what keeps one seat from loading the table for all.

A seat is a creature's name and a random token (192 bits, `secrets`), kept in ``PATH.seats``
beside the encounter (mode 0600, never a link; `d4cli.store.seat_files`) and nowhere else: not
in the encounter file, its journal, the players' view or a log. Its join path is
``/seat/TOKEN``. A token is looked up in constant time (`Seats.find`); the requests a seat
sends go through `d4cli.api.seat_requests.SeatDesk`, which takes the creature from the seat.
"""

from __future__ import annotations

import math
import os
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from d4cli.api.transitions import Transition, act_transition
from d4cli.fight.actions import ActRecord
from d4cli.fight.encounter_state import Creature, Encounter, same_name
from d4cli.rules.dice import DiceSource, parse_extras
from d4cli.rules.errors import InputError
from d4cli.rules.limits import COST, check_range
from d4cli.rules.names import check_text
from d4cli.store import read_encounter, seat_files
from d4cli.store.files import real_path
from d4cli.store.seat_files import Requests
from d4cli.store.transaction import Transaction

JOIN_PREFIX = "/seat/"
NO_SEAT = "no such seat (revoked, reset or mistyped)"
# A seat whose creature left the encounter (removed, or it did not carry into the next fight).
SEAT_ENDED = "this seat has ended: its creature is not in this fight"
# A seat's extra dice (R6), all terms together: a weapon's few, not a GM's table of thousands,
# so that one seat's previews and odds stay cheap for the server every seat shares.
SEAT_EXTRA_DICE = 12
# One seat cannot grow PATH.requests without end: so many of its requests may wait at once,
# and the file keeps the newest answered ones (the journal keeps every act carried out).
WAITING_MAX = 10
ANSWERED_KEPT = 100
# A request's exactly-once key: long enough for a random one, short enough to keep.
KEY_CHARS = (8, 128)
KEY_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
# An action previewed longer ago than this is no longer "being built" on the GM's board.
DRAFT_SECONDS = 60.0


class Seat(NamedTuple):
    """A seat: the creature it acts for (its name as the encounter writes it) and its token.

    The token is a key: show it to the GM and to that player only (`join_path`).
    """

    creature: str
    token: str

    @property
    def join_path(self) -> str:
        """The path a player opens to sit at this seat: ``/seat/TOKEN``."""
        return JOIN_PREFIX + self.token


class Seats:
    """The seats of the encounter file at *path* (``PATH.seats``).

    Changes (`add`, `remove`, `reset`) hold the encounter's lock and read the encounter once,
    so that a seat always names a creature of it; reads need no lock (the file is replaced whole).

    Args:
        path: the encounter file.
        lock_timeout: seconds to wait for another command's lock (None: 5 s).

    Raises (every method):
        FileError: the encounter or ``PATH.seats`` cannot be read (a link, another's file,
            damaged: naming the file and the field) or written. LockTimeout.
    """

    def __init__(self, path: str | os.PathLike[str], *, lock_timeout: float | None = None) -> None:
        self.path = real_path(Path(path))
        self.lock_timeout = lock_timeout

    def list(self) -> tuple[Seat, ...]:
        """Every seat, in the order they were given."""
        return tuple(Seat(*row) for row in seat_files.read_seats(self.path))

    def absent(self) -> tuple[str, ...]:
        """The seated creatures not in the encounter now (removed, or another encounter began
        in the file): their tokens find nothing, until a creature of that name is added.

        Raises:
            FileError: the encounter file cannot be read or is invalid.
        """
        present = {creature.name for creature in read_encounter(self.path).creatures}
        rows = seat_files.read_seats(self.path)
        return tuple(row.creature for row in rows if row.creature not in present)

    def find(self, token: str) -> Seat | None:
        """The seat whose token is *token*, or None (unknown, revoked or reset); constant time
        for each seat (`hmac.compare_digest`), so a guess learns nothing from the time taken."""
        found = seat_files.find(seat_files.read_seats(self.path), token)
        return None if found is None else Seat(*found)

    def add(self, name: str) -> Seat:
        """Give the creature *name* (N1) a seat with a new token.

        Raises:
            InputError: no such creature (field ``NAME``); it has a seat already.
        """
        with Transaction(self.path, timeout=self.lock_timeout) as txn:
            creature = txn.encounter.find(name).name
            rows = seat_files.read_seats(self.path)
            if any(row.creature == creature for row in rows):
                problem = "has a seat already ('d4cli seat reset' gives every seat a new token)"
                raise InputError("NAME", creature, problem)
            row = seat_files.SeatRow(creature, seat_files.new_token())
            seat_files.write_seats(self.path, (*rows, row))
        return Seat(*row)

    def remove(self, name: str) -> Seat:
        """Revoke the seat of the creature *name* (N1): its token no longer finds a seat.

        Raises:
            InputError: the creature has no seat (field ``NAME``).
        """
        with Transaction(self.path, timeout=self.lock_timeout):
            rows = seat_files.read_seats(self.path)
            kept = tuple(row for row in rows if not same_name(row.creature, name))
            if len(kept) == len(rows):
                raise InputError("NAME", name, "has no seat (see 'd4cli seat list')")
            seat_files.write_seats(self.path, kept)
        return next(Seat(*row) for row in rows if same_name(row.creature, name))

    def reset(self) -> tuple[Seat, ...]:
        """Give every seat a new token: every old join path stops working."""
        with Transaction(self.path, timeout=self.lock_timeout):
            rows = tuple(
                seat_files.SeatRow(row.creature, seat_files.new_token())
                for row in seat_files.read_seats(self.path)
            )
            seat_files.write_seats(self.path, rows)
        return tuple(Seat(*row) for row in rows)


def seat_of(path: Path, token: str) -> str:
    """The creature (as the seats file writes it) of the seat of *token*.

    Raises:
        InputError: field ``token``: no such seat (revoked, reset or mistyped).
    """
    seat = seat_files.find(seat_files.read_seats(path), token)
    if seat is None:
        raise InputError("token", None, NO_SEAT)
    return seat.creature


# --- what a seat sends ------------------------------------------------------------------------


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
            than the seat's is refused (`own_creature`).
        key: the sender's own key for this request (`check_key`): sent again, the same key
            finds the first request, never a second one; None: no such promise.
    """

    aspect: str
    cost: int | None = None
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    target: str | None = None
    faces: tuple[int, ...] | None = None
    creature: str | None = None
    key: str | None = None


def check_key(key: str | None) -> str | None:
    """*key* once it is 8 to 128 URL-safe characters (letters, digits, ``-`` and ``_``: what a
    page makes of random bytes), or None.

    Raises:
        InputError: field ``key``, any other text.
    """
    if key is None:
        return None
    if not KEY_CHARS[0] <= len(key) <= KEY_CHARS[1] or not set(key) <= KEY_ALPHABET:
        low, high = KEY_CHARS
        problem = f"must be {low} to {high} letters, digits, - or _"
        raise InputError("key", key[:40], problem)
    return key


def seated(encounter: Encounter, name: str) -> Creature:
    """The seat's creature *name* (as the seats file writes it) in *encounter*.

    Raises:
        InputError: field ``token``, as for a token that finds no seat but saying the seat
            ended, when the creature is no longer in the encounter (removed, or it did not
            carry into the next fight): the error an unknown name gets would list every
            creature, hidden ones and real names behind aliases among them.
    """
    for creature in encounter.creatures:
        if creature.name == name:
            return creature
    raise InputError("token", None, SEAT_ENDED)


def own_creature(encounter: Encounter, seat: str, claimed: str | None) -> Creature:
    """The rule that a seat acts for its own creature only: the seat's creature *seat* in
    *encounter*, when *claimed* (the creature the sender names, by its name or its alias; None:
    the seat's) is that creature.

    Raises:
        InputError: field ``token`` (the creature is gone, `seated`); field ``creature``: another.
    """
    creature = seated(encounter, seat)
    if claimed is not None and not (
        same_name(claimed, creature.name) or same_name(claimed, creature.alias or None)
    ):
        raise InputError("creature", claimed, "a seat acts for its own creature only")
    return creature


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


def _visible_target(encounter: Encounter, shown: str) -> str:
    """The creature the players see as *shown* (its alias, else its name); hidden ones are unknown."""
    for creature in encounter.creatures:
        if not creature.hidden and same_name(creature.alias or creature.name, shown):
            return creature.name
    raise InputError("target", shown, "no such creature among those the players see")


def seat_act(
    creature: str, stored: dict[str, Any], rng: DiceSource, *, refuse: bool = True
) -> Transition[ActRecord]:
    """The act *stored* (as ``PATH.requests`` keeps it) asks of *creature*: ``act``'s own
    transition (`d4cli.api.transitions.act_transition`), its target named as the players see it.

    With *refuse*, a refusal by the rules (R2, R18) is an `InputError` naming the field.
    """

    def transition(encounter: Encounter) -> tuple[Encounter, ActRecord]:
        target = None if stored["target"] is None else _visible_target(encounter, stored["target"])
        act = act_transition(
            creature,
            stored["aspect"],
            rng=rng,
            cost=stored["cost"],
            advantage=stored["advantage"] or None,
            disadvantage=stored["disadvantage"] or None,
            extra=parse_extras(stored["extra"]) or None,
            target=target,
            faces=stored["faces"],
        )
        try:
            new, record = act(encounter)
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

    return transition


# --- what keeps one seat from loading the table for all (docs/seats.md) -------------------------


def check_waiting(requests: Requests, creature: str) -> None:
    """Refuse a request while `WAITING_MAX` of *creature*'s seat wait for the GM already.

    Raises:
        InputError: field ``request``, the count waiting.
    """
    waiting = sum(
        1 for row in requests.rows if row.status == "pending" and row.creature == creature
    )
    if waiting >= WAITING_MAX:
        problem = f"requests of this seat wait for the GM already (at most {WAITING_MAX})"
        raise InputError("request", waiting, problem)


def bounded(requests: Requests) -> Requests:
    """*requests* with every waiting request and the newest `ANSWERED_KEPT` answered ones."""
    answered = [row.number for row in requests.rows if row.status != "pending"]
    dropped = set(answered[:-ANSWERED_KEPT])
    return requests._replace(rows=tuple(row for row in requests.rows if row.number not in dropped))


def age(now: datetime, time: str) -> float:
    """Seconds from *time* (ISO 8601) to *now*; infinite for a time unreadable or to come."""
    try:
        then = datetime.fromisoformat(time)
        seconds = (now - then).total_seconds()
    except (ValueError, TypeError):  # a hand edit, or a time without its offset
        return math.inf
    return seconds if seconds >= 0 else math.inf
