"""The playtest simulator's figures: rates with intervals, and digits the intervals support.

Pure arithmetic on `d4cli.sim.tally.Tally` sums; every interval is 95%.

* A share of runs (a side's win rate, the draws) has Wilson's score interval.
* The share of turns on which a creature could not act (``stuck_share``) is a
  share of all turns played. Its interval is Wilson's over those turns, widened
  to the per-run ratio's (delta-method) interval where that one is wider, since
  the turns of one fight are not independent: never ``[0, 0]``.
* Rounds to finish (mean, median, 90th percentile, histogram) count finished
  fights only; a draw (a fight stopped at ``max_rounds``) is counted apart. The
  mean's interval is normal, from the spread of the finished fights.
* A per-turn or per-round figure (actions per turn, reactions and damage per
  round) is a ratio of two per-run sums over every round played, draws
  included; its interval comes from the delta method (normal).
* With fewer than two runs (two finished fights for the rounds) a mean or a
  ratio has no interval: its ``low`` and ``high`` are None.

`decimals` gives the decimal places an interval's half-width supports; the figures
as text (cells, headings) are `d4cli.output.figuretext`.
"""

from __future__ import annotations

import math
from typing import Any

from d4cli.sim.engines import EngineChoice
from d4cli.sim.tally import CREATURE_SUMS, FIGURES, Tally

Z95 = 1.959963984540054
Z999 = 3.2905267314918945

Figure = dict[str, Any]


def nothing_to_share() -> Figure:
    """A ratio of nothing to nothing (0 of 0: no damage dealt by the side, no turn played):
    no value, which the table shows as ``-`` and JSON as null, never as 0%."""
    return {"value": None, "low": None, "high": None}


def wilson(successes: int, runs: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion *successes* / *runs* (default 95%)."""
    if runs == 0:
        return 0.0, 1.0
    p = successes / runs
    denominator = 1 + z * z / runs
    centre = (p + z * z / (2 * runs)) / denominator
    half = z * math.sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == runs else min(1.0, centre + half)
    return low, high


def decimals(half_width: float, most: int = 6) -> int:
    """Decimal places that a value known to +- *half_width* supports (its first significant digit)."""
    if half_width <= 0 or not math.isfinite(half_width):
        return most
    return max(0, min(most, -math.floor(math.log10(half_width))))


def ratio(tally: Tally, top: int, bottom: int) -> Figure:
    """The ratio of two per-run sums (figures *top* over *bottom*) with a 95% interval (delta method).

    ``{value, low, high}``; ``low``/``high`` are None with fewer than two runs.
    """
    n = tally.runs
    width = len(tally.sums)
    x, y = tally.sums[top], tally.sums[bottom]
    if n == 0 or y == 0:
        return nothing_to_share()
    value = x / y
    if n < 2:
        return {"value": value, "low": None, "high": None}
    mean_y = y / n
    sxx = tally.products[top * width + top] / n - (x / n) ** 2
    syy = tally.products[bottom * width + bottom] / n - mean_y**2
    sxy = tally.products[top * width + bottom] / n - (x / n) * mean_y
    variance = max(0.0, sxx - 2 * value * sxy + value * value * syy) / (n * mean_y * mean_y)
    half = Z95 * math.sqrt(variance)
    return {"value": value, "low": max(0.0, value - half), "high": value + half}


def turn_share(tally: Tally, top: int, bottom: int) -> Figure:
    """A share of turns (*top* of *bottom*): Wilson over the turns, widened to the per-run ratio's interval."""
    part, turns = tally.sums[top], tally.sums[bottom]
    if turns == 0:
        return nothing_to_share()
    low, high = wilson(part, turns)
    per_run = ratio(tally, top, bottom)
    if per_run["low"] is not None:
        low, high = min(low, per_run["low"]), min(1.0, max(high, per_run["high"]))
    return {"value": part / turns, "low": low, "high": high}


def quantile(histogram: dict[int, int], fraction: float) -> int | None:
    """The smallest value with at least *fraction* of the counts at or below it; None when empty."""
    total = sum(histogram.values())
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= fraction * total:
            return value
    return None


def finishes(rounds: dict[int, int], draws: int, max_rounds: int) -> dict[int, int]:
    """Finished fights by rounds played: *rounds* less the *draws*, every one stopped at *max_rounds*.

    Raises:
        ValueError: fewer fights at *max_rounds* than draws (a tally that cannot be).
    """
    finished = {k: count for k, count in rounds.items() if k != max_rounds}
    left = rounds.get(max_rounds, 0) - draws
    if left < 0:
        raise ValueError(
            f"{draws} draws but {rounds.get(max_rounds, 0)} fights of {max_rounds} rounds"
        )
    if left:
        finished[max_rounds] = left
    return dict(sorted(finished.items()))


def rounds_figure(finished: dict[int, int]) -> Figure:
    """Rounds to finish: ``{mean, low, high, median, p90, histogram, finished}`` of finished fights.

    ``mean``/``median``/``p90`` are None when no fight finished; ``low``/``high`` with fewer than two.
    """
    n = sum(finished.values())
    mean = sum(k * c for k, c in finished.items()) / n if n else None
    low = high = None
    if mean is not None and n >= 2:
        variance = sum(c * (k - mean) ** 2 for k, c in finished.items()) / (n - 1)
        half = Z95 * math.sqrt(variance / n)
        low, high = max(0.0, mean - half), mean + half
    return {
        "mean": mean,
        "low": low,
        "high": high,
        "median": quantile(finished, 0.5),
        "p90": quantile(finished, 0.9),
        "histogram": {str(k): c for k, c in finished.items()},
        "finished": n,
    }


def creature_figures(tally: Tally, number: int, side: int) -> dict[str, Figure]:
    """Creature *number*'s ``down`` (Wilson), ``damage_per_fight`` (normal) and ``share_of_side`` (its
    side's damage over all runs, delta method) from the tally's per-creature sums."""
    n = tally.runs
    row = number * len(CREATURE_SUMS)
    downs, dealt, squared, by_side = tally.per_creature[row : row + len(CREATURE_SUMS)]
    low, high = wilson(downs, n)
    down = {"downs": downs, "rate": downs / n if n else 0.0, "low": low, "high": high}
    mean = dealt / n if n else 0.0
    per_fight: Figure = {"value": mean, "low": None, "high": None}
    if n >= 2:
        half = Z95 * math.sqrt(max(0.0, (squared - dealt * dealt / n) / (n - 1)) / n)
        per_fight = {"value": mean, "low": max(0.0, mean - half), "high": mean + half}
    width = len(tally.sums)
    column = len(FIGURES) + side
    side_total = tally.sums[column]
    share: Figure = nothing_to_share()
    if side_total:
        value = dealt / side_total
        share = {"value": value, "low": None, "high": None}
        if n >= 2:
            mean_s = side_total / n
            scc = squared / n - mean * mean
            sss = tally.products[column * width + column] / n - mean_s * mean_s
            scs = by_side / n - mean * mean_s
            variance = max(0.0, scc - 2 * value * scs + value * value * sss) / (n * mean_s * mean_s)
            half = Z95 * math.sqrt(variance)
            share = {"value": value, "low": max(0.0, value - half), "high": min(1.0, value + half)}
    return {"down": down, "damage_per_fight": per_fight, "share_of_side": share}


def mode_report(
    mode: str,
    tally: Tally,
    sides: tuple[str, ...],
    max_rounds: int,
    creatures: tuple[tuple[str, int], ...] = (),
) -> dict[str, Any]:
    """Every figure of one mode, JSON-ready (docs/cli.md): rates with ``low``/``high`` bounds, histograms.

    *creatures* (``(name, side index)`` in turn order) adds ``creatures``: each one's
    `creature_figures` with its ``name`` and ``side``.
    """
    index = {name: i for i, name in enumerate(FIGURES)}
    runs = tally.runs
    wins = {}
    for number, side in enumerate(sides):
        low, high = wilson(tally.wins[number], runs)
        wins[side] = {
            "wins": tally.wins[number],
            "rate": tally.wins[number] / runs if runs else 0.0,
            "low": low,
            "high": high,
        }
    draw_low, draw_high = wilson(tally.draws, runs)
    damage = {
        side: ratio(tally, len(FIGURES) + number, index["rounds"])
        for number, side in enumerate(sides)
    }
    turns = sum(tally.loads.values())
    return {
        "mode": mode,
        "runs": runs,
        "wins": wins,
        "draws": {
            "draws": tally.draws,
            "rate": tally.draws / runs if runs else 0.0,
            "low": draw_low,
            "high": draw_high,
        },
        "rounds": rounds_figure(finishes(tally.rounds, tally.draws, max_rounds)),
        "actions_per_turn": ratio(tally, index["actions"], index["turns"]),
        "reactions_per_round": ratio(tally, index["reactions"], index["rounds"]),
        "damage_per_round": damage,
        "stuck_share": turn_share(tally, index["stuck"], index["turns"]),
        "load_at_turn_start": {str(k): tally.loads[k] / turns for k in sorted(tally.loads)}
        if turns
        else {},
        "turns": turns,
        **(
            {
                "creatures": [
                    {"name": name, "side": sides[side], **creature_figures(tally, number, side)}
                    for number, (name, side) in enumerate(creatures)
                ]
            }
            if creatures and tally.per_creature
            else {}
        ),
    }


def simulation_json(
    name: str,
    sides: tuple[str, ...],
    runs: int,
    seed: int,
    max_rounds: int,
    sweeps: list[dict[str, Any]],
    grid: list[tuple[tuple[int, ...], str, str]],
    tallies: dict[str, Any],
    creatures: tuple[tuple[str, int], ...] = (),
    engine: EngineChoice | None = None,
) -> dict[str, Any]:
    """The whole report of a run of ``d4cli simulate``, JSON-ready (docs/cli.md): per mode, or per
    cell of the sweeps.

    *sweeps* holds ``{key, values}`` per sweep; *grid* ``(settings, mode, label)`` per cell,
    ``settings`` one value per sweep. With sweeps the report has ``sweeps`` and ``cells``
    (each a mode's report with ``settings: {KEY: VALUE}``); with one sweep also ``sweep`` and
    ``rows`` (per setting, its modes).

    *creatures* (``(name, side index)``) adds each mode's per-creature figures (`mode_report`);
    *engine* adds ``engine: {name, reason}``: the engine that played and, when the reference
    engine played because the batch engine cannot express the setups, why (a code of
    `d4cli.sim.batch_scope.LIMITS`; else null).
    """
    head: dict[str, Any] = {
        "encounter": name,
        "runs": runs,
        "seed": seed,
        "max_rounds": max_rounds,
        "sides": list(sides),
    }
    if engine is not None:
        head["engine"] = {"name": engine.name, "reason": engine.reason}
    reports = [
        (settings, mode_report(mode, tallies[label], sides, max_rounds, creatures))
        for settings, mode, label in grid
    ]
    if not sweeps:
        return {**head, "modes": [report for _, report in reports]}
    keys = [sweep["key"] for sweep in sweeps]
    cells = [{"settings": dict(zip(keys, settings)), **report} for settings, report in reports]
    if len(sweeps) > 1:
        return {**head, "sweeps": sweeps, "cells": cells}
    values = sweeps[0]["values"]
    rows = [
        {"value": value, "modes": [report for (v,), report in reports if v == value]}
        for value in values
    ]
    return {**head, "sweep": sweeps[0], "rows": rows, "sweeps": sweeps, "cells": cells}
