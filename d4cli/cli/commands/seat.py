"""``d4cli seat add|list|remove|reset``: the players' seats (docs/seats.md).

A thin skin over `d4cli.api.front_ends.Seats`: a seat's token is shown to the GM in its join path, and
nowhere else.
"""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from typing import Annotated

import typer

from d4cli.api.seats import Seat, Seats
from d4cli.cli.completion.creatures import complete_creature
from d4cli.cli.options import FileOption, JsonOption
from d4cli.cli.settings import lock_timeout, resolve_path
from d4cli.cli.slips import say_note
from d4cli.cli.tracker_access import tell_side_files
from d4cli.output.render import escape, print_renderables
from d4cli.output.render.entry_lines import print_lines
from d4cli.output.render.seat_tables import seats_table
from d4cli.output.serialize.seats_json import added_json, removed_json, seat_json, seats_json
from d4cli.output.stdout import emit_json

app = typer.Typer(
    help="Players' seats: a secret join path for each player's creature.\n\nEach creature a player runs gets its own secret join path.",
    no_args_is_help=True,
)

NameArgument = Annotated[
    str,
    typer.Argument(metavar="NAME", help="The creature.", autocompletion=complete_creature),
]


def _seats(file: str | None) -> Seats:
    return Seats(resolve_path(file), lock_timeout=lock_timeout())


def _show(seats: tuple[Seat, ...], json_: bool) -> None:
    if json_:
        emit_json(seats_json((seat.creature, seat.join_path) for seat in seats))
    elif not seats:
        print_lines(["no seats yet: 'd4cli seat add NAME' gives a creature one"])
    else:
        print_renderables(seats_table([seat_json(s.creature, s.join_path) for s in seats]))


@app.command("add")
def add_command(name: NameArgument, file: FileOption = None, json_: JsonOption = False) -> None:
    """Give creature NAME a seat: a new secret token and its join path /seat/TOKEN.

    Example: d4cli seat add Aria
    """
    seat = _seats(file).add(name)
    if json_:
        emit_json(added_json(seat.creature, seat.join_path))
    else:
        print_lines([f"[bold]{escape(seat.creature)}[/] has a seat: {escape(seat.join_path)}"])


@app.command("list")
def list_command(file: FileOption = None, json_: JsonOption = False) -> None:
    """Show each seat's creature and join path (they hold the keys: GM's eyes only).

    Example: d4cli seat list --json
    """
    seats = _seats(file)
    _show(seats.list(), json_)
    tell_side_files(seats.path)
    for name in seats.absent():
        say_note(
            f"{name} is not in the encounter: its seat finds nothing until a creature of that "
            f"name is added ('d4cli seat remove {name}' revokes it)"
        )


@app.command("remove")
def remove_command(name: NameArgument, file: FileOption = None, json_: JsonOption = False) -> None:
    """Revoke creature NAME's seat: its join path stops working.

    Example: d4cli seat remove Aria
    """
    seat = _seats(file).remove(name)
    if json_:
        emit_json(removed_json(seat.creature))
    else:
        print_lines([f"[bold]{escape(seat.creature)}[/]'s seat is revoked"])


@app.command("reset")
def reset_command(file: FileOption = None, json_: JsonOption = False) -> None:
    """Give every seat a new token: every old join path stops working.

    Example: d4cli seat reset
    """
    _show(_seats(file).reset(), json_)
