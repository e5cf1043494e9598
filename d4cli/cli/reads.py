"""What several commands show of the encounter: a creature's sheet, the state at a journal
entry, the forecast line of ``status --forecast`` (shared by ``status``, ``board`` and ``forecast``)."""

from __future__ import annotations

from typing import Any

from d4cli.api import Encounter, public_entry, same_name
from d4cli.api.replay import SEQ
from d4cli.api.simulation import DEFAULT_FORECAST_RUNS, FORECAST_RUNS, FightOver, Forecast, forecast
from d4cli.cli.changes import open_tracker
from d4cli.cli.sim_input import seed_of
from d4cli.journal.entry import read_head
from d4cli.output.render import console, escape
from d4cli.output.render.encounter import print_lines, summary
from d4cli.output.render.forecast import forecast_line, over_line
from d4cli.output.render.sheet import sheet_table
from d4cli.output.render.status import print_status
from d4cli.output.serialize.forecast import status_forecast_json
from d4cli.output.serialize.views import status_json
from d4cli.output.stdout import emit_json
from d4cli.rules.limits import parse_whole


def status_at(file: str | None, at: str) -> tuple[dict[str, Any], Encounter]:
    """``--at SEQ``: journal entry SEQ and the encounter as it stood right after it.

    Raises:
        InputError: naming ``--at``: a SEQ that is not a whole number, or as `Tracker.status_at`.
    """
    seq = parse_whole(at, "--at", SEQ)
    return open_tracker(file).status_at(seq)


def print_replayed(entry: dict[str, Any], encounter: Encounter) -> None:
    """The tracker as it stood after *entry*, headed by that entry's line (read-only replay)."""
    head = read_head(entry)
    kind = escape(str(head.kind))
    print_lines(
        [
            f"As it stood after #{head.seq} {kind}: {summary(public_entry(entry))} (replayed from the journal)"
        ]
    )
    print_status(encounter)


def show_sheet(encounter: Encounter, name: str, *, json_: bool) -> None:
    """``d4cli status NAME``: one creature's whole sheet (JSON: its ``status --json`` entry)."""
    creature = encounter.find(name)
    if json_:
        entries = status_json(encounter)["creatures"]
        emit_json(next(entry for entry in entries if entry["name"] == creature.name))
        return
    current = same_name(encounter.current, creature.name)
    console().print(
        sheet_table(
            creature, encounter.round, reset_to=encounter.reset_to(creature), current=current
        )
    )


def run_forecast(
    encounter: Encounter, runs: str | None, seed: str | None, engine: str | None = None
) -> Forecast:
    """The forecast of *encounter* with ``--runs``, ``--seed`` (or D4CLI_SEED, else a random seed)
    and ``--engine`` (default: the batch engine where it can) as given.

    Raises:
        InputError: a bad ``--runs`` or ``--seed``, a fight already over, or what the simulator refuses.
    """
    count = DEFAULT_FORECAST_RUNS if runs is None else parse_whole(runs, "--runs", FORECAST_RUNS)
    return forecast(encounter, runs=count, seed=seed_of(seed), engine=engine)


def status_forecast(encounter: Encounter) -> tuple[Forecast | None, str | None]:
    """``status --forecast``: the forecast (D4CLI_SEED or a random seed, default runs), or the winner of a fight over.

    Returns:
        ``(forecast, None)``, or ``(None, winner)`` when the fight is over
        (winner None: no side has a creature up).

    Raises:
        InputError: what the simulator refuses (fewer than two sides, ...), before anything is printed.
    """
    try:
        return run_forecast(encounter, None, None), None
    except FightOver as over:
        return None, over.winner


def print_status_forecast(encounter: Encounter, json_: bool) -> None:
    """``status --forecast``: the status, then one forecast line (JSON: ``status --json`` plus ``forecast``)."""
    found, winner = status_forecast(encounter)
    if json_:
        emit_json(status_forecast_json(encounter, found, winner))
        return
    print_status(encounter)
    print_lines([forecast_line(found) if found is not None else over_line(winner)])
