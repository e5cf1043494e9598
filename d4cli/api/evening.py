"""An evening of several fights in one encounter file: ``next`` and the evening's recap.

`start_next` ends the fight the file holds and starts the next one in the same file, as one
change through the encounter's door (`d4cli.api.change.Door.fight_change`): under the lock it
plans the finished fight's archive (`d4cli.store.fight_archive`), runs the pure transition
(`d4cli.fight.next_fight.next_fight`), and the door writes the archive, then the ``next`` journal
entry, then the new file. ``undo`` takes it back byte for byte like any change; the archive it
leaves behind counts nowhere (the ``next`` entries say which archives make the evening) and is
reused by the next ``next`` when the fight is the same.

Requests the finished fight left waiting are denied (``FIGHT_ENDED``) after the entry; the
archive keeps ``PATH.requests`` as it was. Seats stay with their creatures (``PATH.seats`` is
not touched): the same join link opens the
next fight's page; a seat whose creature did not carry finds no creature and says so.

The evening's recap is `d4cli.api.evening_recap`.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from d4cli.api.change import Change, Step, Unindexed
from d4cli.api.seat_requests import recovered
from d4cli.api.seats import bounded
from d4cli.api.tracker import Tracker
from d4cli.fight.encounter_state import Encounter, same_name
from d4cli.fight.events import NextEvent
from d4cli.fight.next_fight import (
    Foe,
    kept_side,
    next_fight,
)
from d4cli.rules.errors import InputError
from d4cli.store import fight_archive as fights
from d4cli.store import seat_files
from d4cli.store.files import real_path
from d4cli.store.seat_files import Requests


class NextPlan(NamedTuple):
    """What ``next`` was asked for (None: the default).

    Attributes:
        keep: the side that carries (default: the side of the seated creatures, else ``party``).
        template: creatures of a template (`d4cli.api.bestiary.template_foes` with no side
            left out): those not of the kept side join.
        foes: more foes (``--add "goblin x3"``), after the template's.
        name / mode / round_reset: the new fight's (R12).
        keep_effects: lasting effects carry too (R20).
        force: end a running turn with the fight.
    """

    keep: str | None = None
    template: tuple[Foe, ...] = ()
    foes: tuple[Foe, ...] = ()
    name: str | None = None
    mode: str | None = None
    round_reset: str | None = None
    keep_effects: bool = False
    force: bool = False


def start_next(tracker: Tracker, plan: NextPlan, *, note: str | None = None) -> Change[NextEvent]:
    """End the fight in *tracker*'s file and start the next one there, as *plan* says.

    Raises:
        InputError: a turn is running (without ``force``), an unknown side to keep, a foe's
            name taken (N1), a bad mode or round reset (R12).
        FileError: the archive folder is a file, a symlink or another user's; a write failed.
            Nothing is written then.
    """
    path = real_path(tracker.path)
    fights.check_folder(path)

    def transition(encounter: Encounter, requests: Requests, unseen: Unindexed) -> Step[NextEvent]:
        if encounter.current is not None and not plan.force:
            raise InputError(
                "force",
                None,
                f"{encounter.current}'s turn is running: end it first (d4cli turn end), "
                "or add {force} to end it with the fight",
                mentions=("force",),
            )
        seated = tuple(row.creature for row in seat_files.read_seats(path))
        side = kept_side(encounter, seated, plan.keep)
        number = fights.fight_number(path)
        archive = fights.plan_archive(path, number, encounter.name)
        foes = tuple(f for f in plan.template if not same_name(f.sheet.side, side))
        after, event = next_fight(
            encounter,
            fight=number + 1,
            archived=os.path.relpath(archive.path, path.parent),
            keep_side=side,
            foes=foes + plan.foes,
            name=plan.name,
            mode=plan.mode,
            round_reset=plan.round_reset,
            keep_effects=plan.keep_effects,
        )
        return Step(after, event, archive=archive, requests=ended_requests(requests, unseen))

    return tracker.door.fight_change(transition, note=note)


# What a seat reads of a request the finished fight left waiting.
FIGHT_ENDED = "the fight ended before it was answered (d4cli next)"


def ended_requests(requests: Requests, unseen: Unindexed) -> Requests | None:
    """``PATH.requests`` with every request the finished fight left waiting denied (an act of
    the old fight is never carried out in the new one; the archive keeps the file as it was);
    None when none was waiting (the file is left as it is)."""
    base = recovered(requests, unseen)
    if not any(row.status == "pending" for row in base.rows):
        return None
    rows = tuple(
        row._replace(status="denied", reason=FIGHT_ENDED) if row.status == "pending" else row
        for row in base.rows
    )
    return bounded(base._replace(rows=rows))
