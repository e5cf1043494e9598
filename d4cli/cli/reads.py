"""The forecast as the shell runs it: ``--runs`` and ``--seed`` read, and the line of
``status --forecast`` (shared by ``status``, ``board`` and ``forecast``)."""

from __future__ import annotations

from d4cli.api.encounter import Encounter
from d4cli.api.inputs import parse_whole
from d4cli.api.simulation import (
    DEFAULT_FORECAST_RUNS,
    FORECAST_RUNS,
    FightOver,
    Forecast,
    OnProgress,
    forecast,
)
from d4cli.cli.sim_input import seed_of
from d4cli.output.render.entry_lines import print_lines
from d4cli.output.render.forecast_text import forecast_line, over_line
from d4cli.output.render.status_tables import print_status
from d4cli.output.serialize.forecast_json import status_forecast_json
from d4cli.output.stdout import emit_json


def run_forecast(
    encounter: Encounter,
    runs: str | None,
    seed: str | None,
    engine: str | None = None,
    progress: OnProgress | None = None,
) -> Forecast:
    """The forecast of *encounter* with ``--runs``, ``--seed`` (or D4CLI_SEED, else a random seed)
    and ``--engine`` (default: the batch engine where it can) as given; *progress* is told the
    runs played so far and in all.

    Raises:
        InputError: a bad ``--runs`` or ``--seed``, a fight already over, or what the simulator refuses.
    """
    count = DEFAULT_FORECAST_RUNS if runs is None else parse_whole(runs, "--runs", FORECAST_RUNS)
    return forecast(encounter, runs=count, seed=seed_of(seed), engine=engine, progress=progress)


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
