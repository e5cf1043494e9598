"""``d4cli forecast``: each side's chance to win from the encounter as it stands (docs/cli.md "Forecast")."""

# No `from __future__ import annotations`: Typer reads the annotations on every run
# (see d4cli/cli/commands/roll.py).
from typing import TYPE_CHECKING, Annotated

import typer

from d4cli.cli.commands.common import FileOption, JsonOption
from d4cli.output.stdout import emit_json

if TYPE_CHECKING:
    from d4cli.fight.encounter import Encounter
    from d4cli.sim.forecast import Forecast


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
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Each side's chance to win from the state as it is (mid-turn, hp, Loads, effects), in the file's mode (R12, R18).

    The fight is played on many times by the simulator under its stated policy
    (`d4cli help simulate`); nothing is written.

    Example: d4cli forecast --seed 1
    """
    from d4cli.cli.settings import resolve_path
    from d4cli.store import read_encounter

    encounter = read_encounter(resolve_path(file))
    result = run_forecast(encounter, runs, seed)
    if json_:
        from d4cli.output.serialize.forecast import forecast_json

        emit_json(forecast_json(result))
        return
    from d4cli.output.render.forecast import print_forecast

    print_forecast(result)


def run_forecast(encounter: "Encounter", runs: str | None, seed: str | None) -> "Forecast":
    """The forecast of *encounter* with ``--runs`` and ``--seed`` as given (or D4CLI_SEED, else a random seed).

    Raises:
        InputError: a bad ``--runs`` or ``--seed``, a fight already over, or what the simulator refuses.
    """
    import os

    from d4cli.rules.limits import SEED, parse_whole
    from d4cli.sim.forecast import DEFAULT_RUNS, RUNS, forecast

    count = DEFAULT_RUNS if runs is None else parse_whole(runs, "--runs", RUNS)
    if seed is None:
        env = os.environ.get("D4CLI_SEED")
        number = (
            parse_whole(env, "D4CLI_SEED", SEED) if env else int.from_bytes(os.urandom(4), "big")
        )
    else:
        number = parse_whole(seed, "--seed", SEED)
    return forecast(
        encounter, count, number, jobs=min(2, os.cpu_count() or 1) if count >= 500 else 1
    )


def status_forecast(encounter: "Encounter") -> "tuple[Forecast | None, str | None]":
    """``status --forecast``: the forecast (D4CLI_SEED or a random seed, default runs), or the winner of a fight over.

    Returns:
        ``(forecast, None)``, or ``(None, winner)`` when the fight is over
        (winner None: no side has a creature up).

    Raises:
        InputError: what the simulator refuses (fewer than two sides, ...), before anything is printed.
    """
    from d4cli.sim.forecast import FightOver

    try:
        return run_forecast(encounter, None, None), None
    except FightOver as over:
        return None, over.winner


def print_status_forecast(encounter: "Encounter", json_: bool) -> None:
    """``status --forecast``: the status, then one forecast line (JSON: ``status --json`` plus ``forecast``)."""
    found, winner = status_forecast(encounter)
    if json_:
        from d4cli.output.serialize.forecast import status_forecast_json

        emit_json(status_forecast_json(encounter, found, winner))
        return
    from d4cli.output.render.encounter import print_lines
    from d4cli.output.render.forecast import forecast_line, over_line
    from d4cli.output.render.status import print_status

    print_status(encounter)
    print_lines([forecast_line(found) if found is not None else over_line(winner)])
