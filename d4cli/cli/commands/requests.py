"""``d4cli requests``, ``approve N`` and ``deny N``: the GM answers the seats' action requests
(docs/seats.md). A thin skin over `d4cli.api.SeatDesk`."""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from typing import Annotated

import typer

from d4cli.api import RefusedError
from d4cli.api.inputs import parse_whole
from d4cli.api.seat_requests import SeatDesk
from d4cli.cli.options import FileOption, JsonOption, SeedOption, check_note
from d4cli.cli.tracker_access import open_tracker, tell, tell_side_files
from d4cli.output.act_views import act_refusal_line, down_refusal
from d4cli.output.printing import print_one
from d4cli.output.render import print_renderables
from d4cli.output.render.entry_lines import print_lines
from d4cli.output.render.seat_tables import request_line, requests_table
from d4cli.output.seat_views import SeatActView
from d4cli.output.serialize.changes import act_json
from d4cli.output.serialize.seats_json import request_json, requests_json, seat_act_json
from d4cli.output.stdout import emit_json

# A request's number: a whole number, at least 1 (L1).
NUMBER = (1, 10**9)

NumberArgument = Annotated[str, typer.Argument(metavar="N", help="The request's number.")]


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
    number: NumberArgument,
    seed: SeedOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Carry out request N exactly as 'act' would.

    It is judged on the encounter as it stands now.

    Example: d4cli approve 3
    """
    parsed = parse_whole(number, "N", NUMBER)
    tracker = open_tracker(file, seed, dice=True)
    row, change = SeatDesk(tracker).approve(parsed)
    tell(change, tracker)
    record = change.record
    if record.actor_down:
        if json_:
            emit_json(seat_act_json(act_json(record), row.number, row.creature))
        raise RefusedError(act_refusal_line(record, down_refusal(record.actor)), record)
    print_one(record.result, SeatActView(record, row.number, row.creature), json_=json_)


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
