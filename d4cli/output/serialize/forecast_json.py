"""``d4cli forecast --json``: the `d4cli.sim.forecast.Forecast` record as its JSON object (docs/cli.md "Forecast")."""

from __future__ import annotations

from d4cli.fight.encounter_state import Encounter
from d4cli.output.serialize import JsonObject
from d4cli.output.serialize.encounter_json import status_json
from d4cli.sim.forecast import Chance, Forecast


def chance_json(chance: Chance) -> JsonObject:
    """``{wins, rate, low, high}``: a count of runs, its share 0..1 and its 95% Wilson interval."""
    return {"wins": chance.wins, "rate": chance.rate, "low": chance.low, "high": chance.high}


def forecast_json(forecast: Forecast) -> JsonObject:
    """``{kind: "forecast", encounter, mode, runs, seed, max_rounds, sides, wins: {SIDE: {wins, rate, low, high}},
    draws: {draws, rate, low, high}, rounds_left: {median, p90, finished, histogram: {ROUNDS: fights}},
    engine: {name, reason}, fight_over: null}``; ``engine`` is null when no run was played
    (`engine_json`).

    ``status --forecast --json`` of a fight already over has ``{kind: "forecast", fight_over: {winner}}`` instead.
    """
    draws = chance_json(forecast.draws)
    return {
        "kind": "forecast",
        "encounter": forecast.encounter,
        "mode": forecast.mode,
        "runs": forecast.runs,
        "seed": forecast.seed,
        "max_rounds": forecast.max_rounds,
        "sides": [chance.side for chance in forecast.chances],
        "wins": {chance.side: chance_json(chance) for chance in forecast.chances},
        "draws": {"draws": draws.pop("wins"), **draws},
        "rounds_left": {
            "median": forecast.rounds_median,
            "p90": forecast.rounds_p90,
            "finished": forecast.finished,
            "histogram": {str(rounds): fights for rounds, fights in forecast.histogram},
        },
        "engine": engine_json(forecast.engine, forecast.engine_reason),
        "fight_over": None,
    }


def engine_json(name: str | None, reason: str | None) -> JsonObject | None:
    """``{name, reason}``: the engine that played (``batch`` or ``reference``) and, when the
    reference engine played because the batch engine cannot express the encounter, why
    (else null); None when no run was played."""
    return None if name is None else {"name": name, "reason": reason}


def settled_json(forecast: Forecast, winner: str | None) -> JsonObject:
    """``forecast --json`` of a fight already over (R18): `forecast_json` of the settled forecast
    (`d4cli.sim.forecast.decided`: the winner at 100%, no run played), ``fight_over: {winner}``."""
    return {**forecast_json(forecast), "fight_over": {"winner": winner}}


def over_json(winner: str | None) -> JsonObject:
    """``{kind: "forecast", fight_over: {winner}}``: the forecast of a fight already over (R18; winner null: nobody up)."""
    return {"kind": "forecast", "fight_over": {"winner": winner}}


def status_forecast_json(
    encounter: Encounter, forecast: Forecast | None, winner: str | None
) -> JsonObject:
    """``status --forecast --json``: the ``status --json`` object plus ``forecast`` (`forecast_json` or `over_json`)."""
    obj = status_json(encounter)
    obj["forecast"] = forecast_json(forecast) if forecast is not None else over_json(winner)
    return obj
