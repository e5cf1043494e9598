"""``d4cli requests``, ``approve N`` and ``deny N``: the GM answers the seats' action requests
(docs/seats.md). A thin skin over `d4cli.api.front_ends.SeatDesk`."""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

import sys
from typing import Annotated

import typer

from d4cli.api import RefusedError
from d4cli.api.encounter import ActRecord, Change
from d4cli.api.front_ends import ChangedSince, RequestRow
from d4cli.api.inputs import parse_whole
from d4cli.api.seat_requests import SeatDesk
from d4cli.cli.completion.requests import complete_request
from d4cli.cli.options import FileOption, JsonOption, SeedOption, check_note
from d4cli.cli.tracker_access import open_tracker, tell, tell_side_files
from d4cli.output.act_views import act_refusal_line, down_refusal
from d4cli.output.changed_since_text import changes_text, denial_reason
from d4cli.output.printing import print_one
from d4cli.output.render import print_renderables
from d4cli.output.render.entry_lines import print_lines
from d4cli.output.render.seat_tables import request_line, requests_table
from d4cli.output.seat_views import SeatActView
from d4cli.output.serialize.change_json import act_json
from d4cli.output.serialize.seats_json import (
    changed_json,
    request_json,
    requests_json,
    seat_act_json,
)
from d4cli.output.stdout import emit_json

# A request's number: a whole number, at least 1 (L1).
NUMBER = (1, 10**9)

NumberArgument = Annotated[
    str,
    typer.Argument(metavar="N", help="The request's number.", autocompletion=complete_request),
]


def requests_command(
    every: Annotated[
        bool, typer.Option("--all", help="Also the requests already approved or denied.")
    ] = False,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """List the seats' action requests waiting for the GM.

    With --all, every request.

    Example: d4cli requests --all
    """
    tracker = open_tracker(file)
    desk = SeatDesk(tracker)
    rows = desk.all() if every else desk.pending()
    tell_side_files(tracker.path)
    objects = [request_json(row) for row in rows]
    if json_:
        emit_json(requests_json(rows))
    elif not objects:
        print_lines(["no requests from seats" if every else "no requests wait"])
    else:
        print_renderables(requests_table(objects))


def approve_command(
    ctx: typer.Context,
    number: NumberArgument,
    yes: Annotated[
        bool,
        typer.Option(
            "--yes", help="Carry it out even when the encounter changed since it was sent."
        ),
    ] = False,
    seed: SeedOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Carry out request N exactly as 'act' would.

    It is judged on the encounter as it stands now.

    When the encounter changed since the request was sent (its target went down,
    the Load and so the pool, an effect, the turn), says what changed and carries
    out nothing (exit 3) unless --yes; in play on a terminal, asks.

    Example: d4cli approve 3
    """
    parsed = parse_whole(number, "N", NUMBER)
    tracker = open_tracker(file, seed, dice=True)
    desk = SeatDesk(tracker)
    try:
        row, change = desk.approve(parsed, confirmed=yes)
    except ChangedSince as stale:
        answered = _ask(desk, stale) if not json_ and _asks(ctx) else None
        if answered is None:
            if json_:
                emit_json(changed_json(stale.number, stale.changes, stale.target))
            text = changes_text(stale.number, stale.changes, stale.target)
            raise RefusedError(f"{text}: 'approve {parsed} --yes' carries it out anyway") from None
        if isinstance(answered, RequestRow):
            print_lines([request_line(request_json(answered))])
            return
        row, change = answered
    tell(change, tracker)
    record = change.record
    if record.actor_down:
        if json_:
            emit_json(seat_act_json(act_json(record), row.number, row.creature))
        raise RefusedError(act_refusal_line(record, down_refusal(record.actor)), record)
    print_one(record.result, SeatActView(record, row.number, row.creature), json_=json_)


def _asks(ctx: typer.Context) -> bool:
    """Whether to ask the GM rather than refuse: in ``play``, on a terminal."""
    root = ctx.find_root().command
    return bool(getattr(root, "in_session", False)) and sys.stdin.isatty()


def _ask(desk: SeatDesk, stale: ChangedSince) -> RequestRow | tuple[RequestRow, Change[ActRecord]]:
    """Ask the GM whether to carry out a request the encounter changed under: yes carries it
    out; no denies it, the seat reading what changed as the reason."""
    text = changes_text(stale.number, stale.changes, stale.target)
    if typer.confirm(f"{text}. Carry it out anyway?", default=False):
        return desk.approve(stale.number, confirmed=True)
    return desk.deny(stale.number, denial_reason(stale.changes, stale.target))


def deny_command(
    number: NumberArgument,
    reason: Annotated[
        str | None,
        typer.Option("--reason", metavar="TEXT", help="Why: the seat reads it with the answer."),
    ] = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Answer request N with no; the seat reads the reason.

    The seat reads the answer and the reason.

    Example: d4cli deny 3 --reason "the bridge is out of reach"
    """
    parsed = parse_whole(number, "N", NUMBER)
    row = SeatDesk(open_tracker(file)).deny(parsed, check_note(reason, "--reason"))
    if json_:
        emit_json(request_json(row))
    else:
        print_lines([request_line(request_json(row))])
