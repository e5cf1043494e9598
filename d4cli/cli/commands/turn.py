"""``d4cli turn start [NAME]`` and ``d4cli turn end`` (R1, R12-R14)."""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from typing import Annotated

import typer

from d4cli.cli.completion.creatures import complete_creature
from d4cli.cli.options import FileOption, JsonOption, NoteOption, check_note
from d4cli.cli.tracker_access import open_tracker, print_change

app = typer.Typer(help="Start and end turns (R1, R12-R14).", no_args_is_help=True)


@app.command("start")
def start_command(
    name: Annotated[
        str | None,
        typer.Argument(
            metavar="[NAME]",
            help="Whose turn; default the next in order.",
            autocompletion=complete_creature,
        ),
    ] = None,
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Start NAME's turn, or the next; a running turn ends first (R1, R12, R13).

    Example: d4cli turn start "Goblin Archer"
    """
    tracker = open_tracker(file)
    print_change(tracker.turn_start(name, note=check_note(note)), tracker, json_=json_, note=note)


@app.command("end")
def end_command(
    note: NoteOption = None, file: FileOption = None, json_: JsonOption = False
) -> None:
    """End the running turn; its Load stays where it is (R14).

    Example: d4cli turn end
    """
    tracker = open_tracker(file)
    print_change(tracker.turn_end(note=check_note(note)), tracker, json_=json_, note=note)
