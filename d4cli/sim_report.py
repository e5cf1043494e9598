"""The playtest simulator's figures: rates with intervals, and digits the intervals support.

Pure arithmetic on `d4cli.simulate.Tally` sums. A win rate's 95% interval is
Wilson's score interval; a per-round or per-turn figure is a ratio of two
per-run sums, its interval from the delta method (normal, 95%). A figure is
printed to the decimal place of the first significant digit of its interval's
half-width (`shown`), never more.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from d4cli.simulate import FIGURES

if TYPE_CHECKING:
    from d4cli.simulate import Tally

Z95 = 1.959963984540054
Z999 = 3.2905267314918945


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


def shown(value: float, low: float, high: float, scale: float = 1.0) -> str:
    """*value* (times *scale*) with only the digits its interval ``low..high`` supports.

    An interval of width 0 (every run alike) shows the value to at most 3 decimals.
    """
    if high - low <= 0:
        return f"{value * scale:.3f}".rstrip("0").rstrip(".")
    places = decimals((high - low) * scale / 2)
    return f"{value * scale:.{places}f}"


def ratio(tally: Tally, top: int, bottom: int) -> dict[str, float]:
    """The ratio of two per-run sums (figures *top* over *bottom*) with a 95% interval (delta method)."""
    n = tally.runs
    width = len(tally.sums)
    x, y = tally.sums[top], tally.sums[bottom]
    if n == 0 or y == 0:
        return {"value": 0.0, "low": 0.0, "high": 0.0}
    value = x / y
    mean_y = y / n
    sxx = tally.products[top * width + top] / n - (x / n) ** 2
    syy = tally.products[bottom * width + bottom] / n - mean_y**2
    sxy = tally.products[top * width + bottom] / n - (x / n) * mean_y
    variance = max(0.0, sxx - 2 * value * sxy + value * value * syy) / (n * mean_y * mean_y)
    half = Z95 * math.sqrt(variance)
    return {"value": value, "low": value - half, "high": value + half}


def quantile(histogram: dict[int, int], fraction: float) -> int:
    """The smallest value with at least *fraction* of the counts at or below it."""
    total = sum(histogram.values())
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= fraction * total:
            return value
    return 0


def mode_report(mode: str, tally: Tally, sides: tuple[str, ...]) -> dict[str, Any]:
    """Every figure of one mode, JSON-ready: rates with ``low``/``high`` bounds, histograms."""
    index = {name: i for i, name in enumerate(FIGURES)}
    runs = tally.runs
    wins = {}
    for number, side in enumerate(sides):
        low, high = wilson(tally.wins[number], runs)
        wins[side] = {"wins": tally.wins[number], "rate": tally.wins[number] / runs if runs else 0.0, "low": low, "high": high}
    draw_low, draw_high = wilson(tally.draws, runs)
    rounds_mean = _mean(tally, index["rounds"])
    damage = {side: ratio(tally, len(FIGURES) + number, index["rounds"]) for number, side in enumerate(sides)}
    turns = sum(tally.loads.values())
    return {
        "mode": mode,
        "runs": runs,
        "wins": wins,
        "draws": {"draws": tally.draws, "rate": tally.draws / runs if runs else 0.0, "low": draw_low, "high": draw_high},
        "rounds": {
            **rounds_mean,
            "median": quantile(tally.rounds, 0.5),
            "p90": quantile(tally.rounds, 0.9),
            "histogram": {str(k): tally.rounds[k] for k in sorted(tally.rounds)},
        },
        "actions_per_turn": ratio(tally, index["actions"], index["turns"]),
        "reactions_per_round": ratio(tally, index["reactions"], index["rounds"]),
        "damage_per_round": damage,
        "stuck_share": ratio(tally, index["stuck"], index["turns"]),
        "load_at_turn_start": {str(k): tally.loads[k] / turns for k in sorted(tally.loads)} if turns else {},
        "turns": turns,
    }


def _mean(tally: Tally, figure: int) -> dict[str, float]:
    """The mean of a per-run figure with a 95% normal interval."""
    n = tally.runs
    width = len(tally.sums)
    if n == 0:
        return {"mean": 0.0, "low": 0.0, "high": 0.0}
    mean = tally.sums[figure] / n
    variance = max(0.0, tally.products[figure * width + figure] / n - mean * mean)
    half = Z95 * math.sqrt(variance / n)
    return {"mean": mean, "low": mean - half, "high": mean + half}


def _rate(figure: dict[str, Any]) -> str:
    """A rate as a percentage with its 95% interval, digits as `shown` allows."""
    low, high = figure["low"], figure["high"]
    return f"{shown(figure['rate'], low, high, 100)}% ({shown(low, low, high, 100)}-{shown(high, low, high, 100)})"


def _value(figure: dict[str, Any], key: str = "value") -> str:
    return shown(figure[key], figure["low"], figure["high"])


def _loads(shares: dict[str, float], turns: int) -> str:
    """``-1: 52%, 0: 30%``: shares of turns by starting Load, to the digits *turns* supports."""
    half = Z95 * math.sqrt(0.25 / turns) if turns else 1.0
    places = decimals(half * 100)
    return ", ".join(f"{load}: {share * 100:.{places}f}%" for load, share in shares.items())


def figure_rows(modes: list[dict[str, Any]], sides: tuple[str, ...]) -> list[list[str]]:
    """One row per figure, one column per mode (the first column names the figure)."""
    rows = [[f"{side} wins"] + [_rate(m["wins"][side]) for m in modes] for side in sides]
    rows.append(["draws"] + [_rate(m["draws"]) for m in modes])
    rows.append(["rounds: mean"] + [_value(m["rounds"], "mean") for m in modes])
    rows.append(["rounds: median / p90"] + [f"{m['rounds']['median']} / {m['rounds']['p90']}" for m in modes])
    rows.append(["actions per turn"] + [_value(m["actions_per_turn"]) for m in modes])
    rows.append(["reactions per round"] + [_value(m["reactions_per_round"]) for m in modes])
    rows += [[f"damage per round: {side}"] + [_value(m["damage_per_round"][side]) for m in modes] for side in sides]
    rows.append(["turns unable to act"] + [f"{shown(m['stuck_share']['value'], m['stuck_share']['low'], m['stuck_share']['high'], 100)}%" for m in modes])
    rows.append(["Load at turn start"] + [_loads(m["load_at_turn_start"], m["turns"]) for m in modes])
    return rows


SWEEP_HEADER = ["mode", "draws", "rounds: mean", "actions per turn", "reactions per round", "turns unable to act"]


def sweep_rows(key: str, grid: list[tuple[int, list[dict[str, Any]]]], sides: tuple[str, ...]) -> tuple[list[str], list[list[str]]]:
    """The header and one row per setting and mode of a ``--sweep KEY=RANGE`` grid."""
    header = [key, "mode"] + [f"{side} wins" for side in sides] + SWEEP_HEADER[1:]
    rows = []
    for value, modes in grid:
        for m in modes:
            rows.append(
                [str(value), m["mode"]]
                + [_rate(m["wins"][side]) for side in sides]
                + [_rate(m["draws"]), _value(m["rounds"], "mean"), _value(m["actions_per_turn"]),
                   _value(m["reactions_per_round"]),
                   f"{shown(m['stuck_share']['value'], m['stuck_share']['low'], m['stuck_share']['high'], 100)}%"]
            )
    return header, rows


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown pipe table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def csv_table(header: list[str], rows: list[list[str]]) -> str:
    """CSV text (RFC 4180 quoting), one line per row."""
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue().rstrip("\n")


def simulation_json(name: str, sides: tuple[str, ...], runs: int, seed: int, max_rounds: int, key: str | None,
            values: list[Any], grid: list[tuple[Any, str, str]], tallies: dict[str, Any]) -> dict[str, Any]:
    """The whole report of a run of ``d4cli simulate``, JSON-ready (docs/cli.md): per mode, or per sweep setting and mode."""
    head: dict[str, Any] = {"encounter": name, "runs": runs, "seed": seed, "max_rounds": max_rounds, "sides": list(sides)}
    if key is None:
        return {**head, "modes": [mode_report(mode, tallies[label], sides) for _, mode, label in grid]}
    rows = [{"value": value, "modes": [mode_report(mode, tallies[label], sides) for v, mode, label in grid if v == value]}
            for value in values]
    return {**head, "sweep": {"key": key, "values": values}, "rows": rows}
