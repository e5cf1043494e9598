"""`SeatBoard`: what a seat's page reads (the table, its creature, its requests) and the live
preview of an action being built (pool, gate, exact odds), for one seat's token.

Everything here is computed on the GM's side from the encounter as it stands and keeps what
the GM hides (`d4cli.fight.players_view`): the table is the players' view (`PublicView`), the
creature the seat's own (`SeatCreature`), and a request's roll is rebuilt from its journal
facts by the rules themselves (the plan from its request, the dice as entered faces), with
GM-only sources unnamed and a target's Evasion only where the players see it. Only a preview
writes: it leaves the action being built in ``PATH.drafts`` for the GM's board.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any, NamedTuple

from d4cli.api.players import players_state
from d4cli.api.seat_requests import SeatDesk
from d4cli.api.seats import SeatAction, own_creature, seat_act, seat_of, seated, stored_action
from d4cli.api.tracker import Tracker
from d4cli.fight.encounter_state import Creature, Encounter, same_name
from d4cli.fight.players_view import (
    SeatPage,
    SeatPlan,
    SeatRequest,
    SeatRoll,
    public_sources,
    seat_creature,
    seat_plan,
    shown_sources,
)
from d4cli.journal.acts import ActChange
from d4cli.journal.entry import read_change
from d4cli.odds.roll_odds import PoolOdds, pool_odds
from d4cli.rules.dice import EnteredDice, parse_extra
from d4cli.rules.errors import D4Error
from d4cli.rules.pool import PoolRequest, roll_pool
from d4cli.store import fight_archive as fights
from d4cli.store import files
from d4cli.store.lock import LockTimeout, locked
from d4cli.store.seat_files import DraftRow, RequestRow, requests_path, seats_path, write_draft

# A draft is a courtesy to the GM's board: a preview never waits long for the lock.
DRAFT_LOCK_SECONDS = 0.5


class Previewed(NamedTuple):
    """A preview: the action's `SeatPlan` and its exact odds (the total's distribution; the
    damage only against an Evasion the players see, R7), None when it cannot act."""

    plan: SeatPlan
    odds: PoolOdds | None


class SeatBoard:
    """The reads of the seats of the encounter a *tracker* holds.

    Raises (every method):
        InputError: field ``token``: no such seat (revoked, reset or mistyped).
        FileError: the encounter or a side file cannot be read.
    """

    def __init__(self, tracker: Tracker) -> None:
        self.tracker = tracker
        self.desk = SeatDesk(tracker)

    def _seat(self, token: str) -> str:
        return seat_of(self.tracker.path, token)

    def page(self, token: str) -> SeatPage:
        """The seat's page: the table, its creature, its requests with their outcomes.

        The table is the TV's (`d4cli.api.players.players_state`: its roll feed, and while a
        hidden creature acts the state before that turn, R20), and the seat's own creature is
        shown from that same state, so no seat learns that a hidden turn runs.
        """
        name = self._seat(token)
        encounter = self.tracker.status()
        seated(encounter, name)
        shown = players_state(self.tracker.path, encounter)  # one read for both
        rows = self.desk.requests_of(token)
        settings = encounter.player_view
        return SeatPage(
            shown.view,
            seat_creature(_table_state(shown.encounter, encounter, name), name),
            tuple(_request(encounter, row) for row in rows),
            "auto" if settings is not None and settings.seats == "auto" else "approve",
            fights.fight_number(files.real_path(self.tracker.path)),
        )

    def request(self, token: str, number: int) -> SeatRequest | None:
        """The seat's own request *number* as its page shows it, or None (not its request)."""
        name = self._seat(token)
        row = self.desk.request_of(token, number)
        if row is None or row.creature != name:
            return None
        return _request(self.tracker.status(), row)

    def stamp(self) -> tuple[files.Stamp, ...]:
        """A cheap stamp of ``PATH.seats`` and ``PATH.requests`` (mtime, size, inode; None where
        missing): it moves when a seat is given, revoked or reset, or a request is answered."""
        return files.stamps((seats_path(self.tracker.path), requests_path(self.tracker.path)))

    def preview(self, token: str, action: SeatAction) -> Previewed:
        """The plan and exact odds of *action* for the seat's creature on the encounter as it
        stands; the faces it ignores (the page checks their count against `SeatPlan.faces`).

        Raises:
            InputError: as `SeatDesk.submit`, but a refusal by the gate (R2) is a preview
                with ``plan.gate.allowed`` false, not an error.
        """
        name = self._seat(token)
        encounter = self.tracker.status()
        creature = own_creature(encounter, name, action.creature)
        stored = {**stored_action(action._replace(faces=None)), "faces": None}
        _, record = seat_act(creature.name, stored, random.Random(0), refuse=False)(encounter)
        target = None if record.target is None else encounter.find(record.target)
        sources = shown_sources(record.sources, public_sources(_both(creature, target)))
        plan = seat_plan(record.result.plan.request, sources, _evasion_shown(target))
        allowed = plan.gate.allowed and not record.actor_down
        sides = (4,) * plan.size.size + tuple(
            e.sides for e in plan.request.extra for _ in range(e.count)
        )
        self._remember(creature.name, stored, plan.size.size, len(sides) - plan.size.size, allowed)
        return Previewed(
            SeatPlan(plan, sources, sides if allowed else (), record.actor_down),
            pool_odds(plan) if allowed else None,
        )

    def _remember(
        self, name: str, stored: dict[str, Any], pool: int, extra: int, allowed: bool
    ) -> None:
        """Leave the action being built for the GM's board (`d4cli.store.seat_files`); a lock
        that stays busy past `DRAFT_LOCK_SECONDS` skips it: the preview answers anyway."""
        now: datetime = self.tracker.door.clock()
        cost = stored["cost"] if stored["cost"] is not None else 1
        draft = DraftRow(
            name,
            now.isoformat(timespec="seconds"),
            stored["aspect"],
            cost,
            stored["target"],
            pool,
            extra,
            allowed,
        )
        try:
            with locked(self.tracker.path, DRAFT_LOCK_SECONDS):
                write_draft(self.tracker.path, draft)
        except LockTimeout:
            pass


def _table_state(shown: Encounter, live: Encounter, name: str) -> Encounter:
    """The state the seat's creature *name* is shown from: the table's (*shown*), unless the
    creature joined since that state (then the encounter as it stands, *live*)."""
    return shown if any(same_name(c.name, name) for c in shown.creatures) else live


def _both(creature: Creature, target: Creature | None) -> list[Creature]:
    return [creature] if target is None else [creature, target]


def _evasion_shown(target: Creature | None) -> bool:
    return target is not None and not target.hidden and target.evasion_shown


def _request(encounter: Encounter, row: RequestRow) -> SeatRequest:
    roll = None
    if row.result is not None and row.status in ("approved", "undone"):
        try:
            roll = seat_roll(encounter, row)
        except (D4Error, ValueError):
            roll = None  # facts a hand edit broke: the outcome is shown without its steps
    return SeatRequest(row.number, row.time, row.act, row.status, row.reason, roll)


def seat_roll(encounter: Encounter, row: RequestRow) -> SeatRoll:
    """The roll of carried-out request *row*, rebuilt by the rules from its facts (``result``,
    the act's journal object, read typed): the same plan from the same request, the same dice as
    entered faces, its sources and the target's Evasion as the seat may see them.

    Raises:
        ValueError, D4Error: facts that are not an act's.
    """
    assert row.result is not None
    act = read_change(row.result)
    if not isinstance(act, ActChange) or None in (act.aspect, act.load, act.cost, act.load_after):
        raise ValueError("the facts of a request carried out are not an act's")
    assert act.aspect is not None and act.load is not None and act.cost is not None
    assert act.load_after is not None
    ended = [(str(gone.source), gone.public) for gone in act.effects_ended]
    present = [c for c in encounter.creatures if c.name in (act.actor, act.target)]
    sources = shown_sources(act.model_sources(), public_sources(present, ended))
    target = next((c for c in present if c.name == act.target), None)
    extra = tuple(parse_extra(str(term.notation)) for term in act.extra)
    request = PoolRequest(
        aspect=act.aspect,
        load=act.load,
        cost=act.cost,
        extra=extra,
        dc=act.dc,
        evasion=act.evasion,
    )
    plan = seat_plan(request, sources, _evasion_shown(target))
    dice = EnteredDice([*act.dice, *(face for term in act.extra for face in term.dice)])
    result = roll_pool(plan, dice)
    dice.finish()
    unseen = act.target is not None and (target is None or target.hidden)
    outcome = None if unseen else act.outcome
    return SeatRoll(result, sources, act.entered, row.act.get("target"), act.load_after, outcome)
