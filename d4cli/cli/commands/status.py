"""``status``: the turn tracker, one creature's sheet, the encounter as it stood after a journal
entry (``--at``), and with ``--forecast`` each side's chance to win (docs/cli.md "Encounter").

A thin skin: parse the options, read the encounter through `d4cli.api.encounter.Tracker`, print its
JSON (`d4cli.output.serialize.encounter_json.status_json`) or draw it (`_draw`: Rich loads there,
never for ``--json``). The simulator is an optional part of this command: it loads only
with ``--forecast``, where that option is handled.
"""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from typing import Annotated, Any

import typer

from d4cli.api import InputError
from d4cli.api.encounter import Encounter, public_entry
from d4cli.api.inputs import parse_whole
from d4cli.api.replay import SEQ
from d4cli.cli.completion.creatures import complete_creature
from d4cli.cli.options import FileOption, JsonOption
from d4cli.cli.tracker_access import open_tracker, tell_side_files
from d4cli.output.serialize.encounter_json import status_json
from d4cli.output.stdout import emit_json


def status_command(
    name: Annotated[
        str | None,
        typer.Argument(
            metavar="[NAME]",
            help="Show this creature's whole sheet.",
            autocompletion=complete_creature,
        ),
    ] = None,
    at: Annotated[
        str | None,
        typer.Option(
            "--at", metavar="SEQ", help="As it stood after journal entry SEQ (replayed; read-only)."
        ),
    ] = None,
    forecast: Annotated[
        bool,
        typer.Option(
            "--forecast", help="Add one line: each side's chance to win from here (d4cli forecast)."
        ),
    ] = False,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Show whose turn it is, Loads and headroom (R2); NAME: one sheet.

    The turn tracker: whose turn, Loads, headroom, who can still act at Cost 1.

    Past the terminal's height the table becomes one line per creature.

    Example: d4cli status --json
    """
    entry = None
    if at is not None:
        if forecast:
            raise InputError("--forecast", None, "forecasts from the state as it is, not with --at")
        entry, encounter = status_at(file, at)  # as it stood after entry SEQ, replayed (read-only)
    else:
        tracker = open_tracker(file)
        encounter = tracker.status()
        tell_side_files(tracker.path)
    if forecast:
        if name is not None:
            raise InputError("--forecast", None, "is for the whole encounter, not one sheet")
        from d4cli.cli.reads import print_status_forecast  # --forecast: the simulator loads here

        print_status_forecast(encounter, json_)
        return
    creature = None if name is None else encounter.find(name)
    if json_:
        obj = status_json(encounter)
        if creature is not None:  # one creature's sheet: its entry of the whole status
            obj = next(item for item in obj["creatures"] if item["name"] == creature.name)
        emit_json(obj)
        return
    _draw(encounter, creature, entry)


def status_at(file: str | None, at: str) -> tuple[dict[str, Any], Encounter]:
    """``--at SEQ``: journal entry SEQ and the encounter as it stood right after it.

    Raises:
        InputError: naming ``--at``: a SEQ that is not a whole number, or as `Tracker.status_at`.
    """
    seq = parse_whole(at, "--at", SEQ)
    return open_tracker(file).status_at(seq)


def _draw(encounter: Encounter, creature: Any, entry: dict[str, Any] | None) -> None:
    """The status for people: one creature's sheet, or the tracker, headed by *entry*'s line when
    it was replayed (read-only)."""
    from d4cli.output.render.status_tables import print_replayed, print_sheet, print_status  # drawn

    if creature is not None:
        print_sheet(encounter, creature)
    elif entry is not None:
        print_replayed(public_entry(entry), encounter)
    else:
        print_status(encounter)
