"""Seats and their requests on the GM's screen: ``seat list`` and ``requests`` tables, and the
one lines of ``seat add``, ``approve`` and ``deny`` (from the JSON objects of
`d4cli.output.serialize.seats_json`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.table import Table

from d4cli.output.render import escape


def seats_table(seats: Sequence[dict[str, Any]]) -> Table:
    """``Seat | Join path``: each seat's creature and the path its player opens."""
    table = Table(title="Seats", title_justify="left")
    table.add_column("Creature")
    table.add_column("Join path", overflow="fold")
    for seat in seats:
        table.add_row(escape(seat["creature"]), escape(seat["path"]))
    return table


def action_text(act: dict[str, Any]) -> str:
    """``Finesse, Cost 2 at Goblin, +1d4, adv torch`` (plain text) of a request's ``act``."""
    parts = [str(act["aspect"]) + ("" if act["cost"] is None else f", Cost {act['cost']}")]
    if act["target"] is not None:
        parts[0] += f" at {act['target']}"
    parts += [f"+{extra}" for extra in act["extra"]]
    parts += [f"adv {source}" for source in act["advantage"]]
    parts += [f"dis {source}" for source in act["disadvantage"]]
    return ", ".join(parts)


def dice_text(act: dict[str, Any]) -> str:
    faces = act["faces"]
    return "roll" if faces is None else "entered " + ",".join(str(face) for face in faces)


def answer_text(request: dict[str, Any]) -> str:
    """``pending``, ``approved: total 9``, ``denied: not now``."""
    status = str(request["status"])
    result = request["result"]
    if status == "approved" and result is not None:
        damage = result.get("damage")
        return f"approved: total {result.get('total')}" + (
            "" if damage is None else f", {damage} damage"
        )
    if status == "denied" and request["reason"]:
        return f"denied: {request['reason']}"
    return status


def requests_table(requests: Sequence[dict[str, Any]]) -> Table:
    """``No. | Creature | Action | Dice | Answer``, oldest first."""
    table = Table(title="Requests from seats", title_justify="left")
    for header in ("No.", "Creature", "Action", "Dice", "Answer"):
        table.add_column(header, justify="right" if header == "No." else "left")
    for request in requests:
        table.add_row(
            str(request["id"]),
            escape(request["creature"]),
            escape(action_text(request["act"])),
            escape(dice_text(request["act"])),
            escape(answer_text(request)),
        )
    return table


def request_line(request: dict[str, Any]) -> str:
    """One line (markup): ``request 3 from Aria's seat: Finesse at Goblin: denied: not now``."""
    who = escape(request["creature"])
    action = escape(action_text(request["act"]))
    return f"request {request['id']} from [bold]{who}[/]'s seat: {action}: {escape(answer_text(request))}"


def pending_line(count: int) -> str | None:
    """``2 requests from seats wait: 'd4cli requests'`` for the GM's board, None for none."""
    if not count:
        return None
    what = "1 request from a seat waits" if count == 1 else f"{count} requests from seats wait"
    return f"[bold]{what}[/]: 'd4cli requests', then 'd4cli approve N' or 'd4cli deny N'"


def building_line(draft: dict[str, Any]) -> str:
    """One line (markup) for the GM's board: ``Aria's seat builds: Finesse, Cost 1 at
    Goblin 2: pool 4d4 + 1 extra die, the gate allows it (R2)``."""
    action = f"{draft['aspect']}, Cost {draft['cost']}"
    if draft["target"] is not None:
        action += f" at {draft['target']}"
    extra = draft["extra"]
    pool = f"pool {draft['pool']}d4" + (
        "" if not extra else f" + {extra} extra {'die' if extra == 1 else 'dice'}"
    )
    gate = "the gate allows it" if draft["allowed"] else "the gate refuses it"
    who = escape(draft["creature"])
    return f"[bold]{who}[/]'s seat builds: {escape(action)}: {pool}, {gate} (R2)"
