"""``d4cli forecast``: each side's chance to win from the encounter as it stands (docs/cli.md "Forecast")."""

# No `from __future__ import annotations`: Typer reads the annotations on every run
# (see d4cli/cli/commands/roll.py).
from typing import Annotated

import typer

from d4cli.api.simulation import FightOver, decided
from d4cli.cli.options import EngineOption, FileOption, JsonOption
from d4cli.cli.reads import run_forecast
from d4cli.cli.tracker_access import open_tracker
from d4cli.output.render.entry_lines import print_lines
from d4cli.output.render.forecast_text import print_forecast, settled_line
from d4cli.output.render.progress import Progress
from d4cli.output.serialize.forecast_json import forecast_json, settled_json
from d4cli.output.stdout import emit_json


def forecast_command(
    runs: Annotated[
        str | None,
        typer.Option("--runs", metavar="N", help="Fights to play (1..1,000,000); default 2,000."),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(
            "--seed", metavar="N", help="Seed of the dice: the same seed gives the same forecast."
        ),
    ] = None,
    engine: EngineOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Each side's chance to win from the state as it is (R12, R18).

    The state is taken as it is (mid-turn, hp, Loads, effects), in the file's
    mode.

    The fight is played on many times by the simulator under its stated policy
    ('d4cli help simulate'); nothing is written.

    Example: d4cli forecast --seed 1
    """
    encounter = open_tracker(file).status()
    bar = Progress("forecasting")
    try:
        result = run_forecast(encounter, runs, seed, engine, progress=bar)
    except FightOver as over:  # nothing to play: the side left standing has won (R21)
        settled = decided(encounter, over.winner)
        if json_:
            emit_json(settled_json(settled, over.winner))
            return
        print_lines([settled_line(settled, over.winner)])
        return
    finally:
        bar.close()
    if json_:
        emit_json(forecast_json(result))
        return
    print_forecast(result)
