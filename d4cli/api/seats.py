"""`Seats`: the players' seats of an encounter, each a secret token that acts for one creature.

A seat is a creature's name and a random token (192 bits, `secrets`), kept in ``PATH.seats``
beside the encounter (mode 0600, never a link; `d4cli.store.seats`) and nowhere else: not in
the encounter file, its journal, the players' view or a log. Its join path is
``/seat/TOKEN``. A token is looked up in constant time (`Seats.find`); the requests a seat
sends go through `d4cli.api.seat_requests.SeatDesk`, which takes the creature from the seat.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from d4cli.fight.encounter import same_name
from d4cli.rules.errors import InputError
from d4cli.store import read_encounter
from d4cli.store import seats as seat_file
from d4cli.store.files import real_path
from d4cli.store.transaction import Transaction

JOIN_PREFIX = "/seat/"


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
    """The seats of the encounter file at *path* (`d4cli.store.seats`).

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
        return tuple(Seat(*row) for row in seat_file.read_seats(self.path))

    def absent(self) -> tuple[str, ...]:
        """The seated creatures not in the encounter now (removed, or another encounter began
        in the file): their tokens find nothing, until a creature of that name is added.

        Raises:
            FileError: the encounter file cannot be read or is invalid.
        """
        present = {creature.name for creature in read_encounter(self.path).creatures}
        return tuple(
            row.creature for row in seat_file.read_seats(self.path) if row.creature not in present
        )

    def find(self, token: str) -> Seat | None:
        """The seat whose token is *token*, or None (unknown, revoked or reset); constant time
        for each seat (`hmac.compare_digest`), so a guess learns nothing from the time taken."""
        found = seat_file.find(seat_file.read_seats(self.path), token)
        return None if found is None else Seat(*found)

    def add(self, name: str) -> Seat:
        """Give the creature *name* (N1) a seat with a new token.

        Raises:
            InputError: no such creature (field ``NAME``); it has a seat already.
        """
        with Transaction(self.path, timeout=self.lock_timeout) as txn:
            creature = txn.encounter.find(name).name
            rows = seat_file.read_seats(self.path)
            if any(row.creature == creature for row in rows):
                problem = "has a seat already ('d4cli seat reset' gives every seat a new token)"
                raise InputError("NAME", creature, problem)
            row = seat_file.SeatRow(creature, seat_file.new_token())
            seat_file.write_seats(self.path, (*rows, row))
        return Seat(*row)

    def remove(self, name: str) -> Seat:
        """Revoke the seat of the creature *name* (N1): its token no longer finds a seat.

        Raises:
            InputError: the creature has no seat (field ``NAME``).
        """
        with Transaction(self.path, timeout=self.lock_timeout):
            rows = seat_file.read_seats(self.path)
            kept = tuple(row for row in rows if not _same(row.creature, name))
            if len(kept) == len(rows):
                raise InputError("NAME", name, "has no seat (see 'd4cli seat list')")
            seat_file.write_seats(self.path, kept)
        return next(Seat(*row) for row in rows if _same(row.creature, name))

    def reset(self) -> tuple[Seat, ...]:
        """Give every seat a new token: every old join path stops working."""
        with Transaction(self.path, timeout=self.lock_timeout):
            rows = tuple(
                seat_file.SeatRow(row.creature, seat_file.new_token())
                for row in seat_file.read_seats(self.path)
            )
            seat_file.write_seats(self.path, rows)
        return tuple(Seat(*row) for row in rows)


def _same(a: str, b: str) -> bool:
    return same_name(a, b)
