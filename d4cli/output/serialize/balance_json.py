"""``d4cli balance --json``: the `d4cli.sim.balance_search.Balance` record as its JSON object (docs/cli.md "Balance")."""

from __future__ import annotations

from d4cli.output.serialize import JsonObject
from d4cli.sim.balance_search import Balance, Point


def point_json(point: Point | None) -> JsonObject | None:
    """``{value, wins, runs, rate, low, high}``: the side's wins at one value, its share 0..1 and 95% interval."""
    if point is None:
        return None
    low, high = point.interval
    return {
        "value": point.value,
        "wins": point.wins,
        "runs": point.runs,
        "rate": point.rate,
        "low": low,
        "high": high,
    }


def balance_json(found: Balance, applied: bool = False) -> JsonObject:
    """``{kind: "balance", encounter, mode, side, target, vary: {creature, field, low, high}, runs, seed,
    reached, direction, value, wins, below, above, curve: [POINT...], applied}``.

    ``target`` and every rate are 0..1; ``wins`` (at ``value``)/``below``/``above`` and each of ``curve`` is a
    `point_json` (``below``/``above`` null at an end of the range); ``direction`` is 1 when the
    side's chance rises with the value, -1 when it falls, 0 when both ends give the same.
    """
    search = found.search
    return {
        "kind": "balance",
        "encounter": found.encounter,
        "mode": found.mode,
        "side": found.side,
        "target": search.target,
        "vary": {
            "creature": found.vary.creature,
            "field": found.vary.field,
            "low": search.low,
            "high": search.high,
        },
        "runs": found.runs,
        "seed": found.seed,
        "reached": search.reached,
        "direction": search.direction,
        "value": search.found.value,
        "wins": point_json(search.found),
        "below": point_json(search.below),
        "above": point_json(search.above),
        "curve": [point_json(point) for point in search.points],
        "applied": applied,
    }
