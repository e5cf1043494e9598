"""The playtest simulator's figures as text: one cell per figure, shared by the table,
Markdown, CSV and SVG of ``d4cli simulate`` and by ``d4cli forecast`` (plain text, no Rich).

Reads the mode reports of `d4cli.sim.report.simulation_json`. `shown` prints a figure to
the decimal place of the first significant digit of its interval's half-width. A figure
without an interval, or with one of zero width (every run alike), shows 2 significant
digits (a whole number in full).
"""

from __future__ import annotations

import math
from typing import Any

from d4cli.sim.report import Z95, Figure, decimals


def significant(value: float, digits: int = 2) -> str:
    """*value* to *digits* significant digits; a whole number in full (``2``, ``2.3``, ``0.047``, ``123``)."""
    value = round(value, 9)
    if value == int(value):
        return str(int(value))
    places = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    return f"{value:.{places}f}"


def shown(
    value: float,
    low: float | None,
    high: float | None,
    scale: float = 1.0,
    places: int | None = None,
) -> str:
    """*value* (times *scale*) with only the digits its interval ``low..high`` supports, or with
    *places* decimals when given (a table column's one precision, `places_of`).

    Without an interval (None) or with one of width 0, 2 significant digits (`significant`).
    """
    if low is None or high is None or high - low <= 0:
        return significant(value * scale)
    if places is None:
        places = decimals((high - low) * scale / 2)
    return f"{value * scale:.{places}f}"


def places_of(figures: list[Figure], percent: bool) -> int | None:
    """The one precision of a figure shown side by side (across modes or settings) or of a
    column: the decimals the narrowest of their intervals supports, so no cell shows fewer
    digits than its own interval gives; None when none has an interval of some width."""
    scale = 100.0 if percent else 1.0
    found = [
        decimals((f["high"] - f["low"]) * scale / 2)
        for f in figures
        if f["low"] is not None and f["high"] is not None and f["high"] - f["low"] > 0
    ]
    return max(found) if found else None


# Each figure's row label by its CSV name, in full and short (for a terminal too narrow for
# the full ones); ``{}`` is the side or the creature.
LABELS: dict[str, tuple[str, str]] = {
    "win_rate": ("wins: {}", "wins: {}"),
    "draw_rate": ("draws", "draws"),
    "rounds_mean": ("rounds to finish: mean", "rounds: mean"),
    "rounds_middle": ("rounds to finish: median / p90", "rounds: median/p90"),
    "actions_per_turn": ("actions per turn", "actions/turn"),
    "reactions_per_round": ("reactions per round", "reactions/round"),
    "damage_per_round": ("damage per round: {}", "dmg/round: {}"),
    "stuck_share": ("turns unable to act", "stuck turns"),
    "creature_down_rate": ("{}: went down", "{}: down"),
    "creature_damage_per_fight": ("{}: damage per fight", "{}: dmg/fight"),
    "creature_damage_share": ("{}: share of its side's damage", "{}: dmg share"),
    "load_at_turn_start": ("Load at turn start", "Load at start"),
    "rounds_shares": ("rounds to finish (share of runs)", "rounds (share of runs)"),
}
# Said under a table with the short labels.
SHORT_NOTE = (
    "Short labels: dmg is damage (hp taken off, R16), dmg share a creature's share of its "
    "side's damage, stuck turns the turns on which a creature could not act."
)


def label(name: str, who: str = "", *, short: bool = False) -> str:
    """The row label of figure *name* (a CSV name of `LABELS`) for side or creature *who*."""
    return LABELS[name][short].format(who)


# (label, CSV name, side or "", figure, key of its value, a percentage) of one estimate.
Estimate = tuple[str, str, str, Figure, str, bool]

# The figures with an interval, in report order: (CSV name, key of the mode report, key of
# its value, a percentage); a side's figure is keyed again by side.
_MODE_FIGURES = (
    ("rounds_mean", "rounds", "mean", False),
    ("actions_per_turn", "actions_per_turn", "value", False),
    ("reactions_per_round", "reactions_per_round", "value", False),
)
_CREATURE_FIGURES = (
    ("creature_down_rate", "down", "rate", True),
    ("creature_damage_per_fight", "damage_per_fight", "value", False),
    ("creature_damage_share", "share_of_side", "value", True),
)


def estimates(m: dict[str, Any], sides: tuple[str, ...]) -> list[Estimate]:
    """Every figure of mode report *m* that has an interval, in report order."""
    out: list[Estimate] = [
        (label("win_rate", side), "win_rate", side, m["wins"][side], "rate", True) for side in sides
    ]
    out.append((label("draw_rate"), "draw_rate", "", m["draws"], "rate", True))
    out += [(label(name), name, "", m[key], value, pct) for name, key, value, pct in _MODE_FIGURES]
    out += [
        (
            label("damage_per_round", side),
            "damage_per_round",
            side,
            m["damage_per_round"][side],
            "value",
            False,
        )
        for side in sides
    ]
    out.append((label("stuck_share"), "stuck_share", "", m["stuck_share"], "value", True))
    for c in m.get("creatures", ()):  # the side slot holds the creature's name for these
        out += [
            (label(name, c["name"]), name, c["name"], c[key], value, pct)
            for name, key, value, pct in _CREATURE_FIGURES
        ]
    return out


def cell(figure: Figure, key: str, percent: bool, places: int | None = None) -> str:
    """``3.81 (3.70-3.92)``, ``93% (88-96)``: a figure to its supported digits, with its interval.

    ``-`` for a figure that does not exist (rounds when no fight finished); the value
    alone without an interval or with one of zero width (every run alike).
    """
    value, low, high = figure[key], figure["low"], figure["high"]
    if value is None:
        return "-"
    scale, unit = (100.0, "%") if percent else (1.0, "")
    text = shown(value, low, high, scale, places) + unit
    if low is None or high - low <= 0:
        return text
    return (
        f"{text} ({shown(low, low, high, scale, places)}-{shown(high, low, high, scale, places)})"
    )


def cells(row: list[Estimate]) -> list[str]:
    """One figure's cells side by side (one per mode or setting), at one precision (`places_of`)."""
    places = places_of([estimate[3] for estimate in row], row[0][5]) if row else None
    return [cell(*estimate[3:], places) for estimate in row]


def middle(rounds: Figure) -> str:
    """``1 / 2``: the median and 90th percentile of rounds to finish; ``-`` when none finished."""
    return "-" if rounds["median"] is None else f"{rounds['median']} / {rounds['p90']}"


def share_places(count: int) -> int:
    """Decimal places of a percentage of *count* things: what its widest 95% interval supports."""
    return decimals(100 * Z95 * math.sqrt(0.25 / count)) if count else 0


def loads_cell(m: dict[str, Any]) -> str:
    """``-1: 52%, 0: 30%``: shares of turns by starting Load, to the digits the turns support."""
    places = share_places(m["turns"])
    return ", ".join(
        f"{load}: {share * 100:.{places}f}%" for load, share in m["load_at_turn_start"].items()
    )


def rounds_shares(m: dict[str, Any]) -> list[tuple[str, float]]:
    """``[("1", 0.54), ("2", 0.41), ("draw", 0.05)]``: finished fights by rounds, then draws, as shares of all runs."""
    runs = m["runs"] or 1
    shares = [(k, count / runs) for k, count in m["rounds"]["histogram"].items()]
    if m["draws"]["draws"]:
        shares.append(("draw", m["draws"]["draws"] / runs))
    return shares


def rounds_cell(m: dict[str, Any]) -> str:
    """``1: 54%, 2: 41%, draw: 5%``: the rounds-to-finish distribution in one cell."""
    places = share_places(m["runs"])
    return ", ".join(f"{k}: {share * 100:.{places}f}%" for k, share in rounds_shares(m))


def figure_rows(
    modes: list[dict[str, Any]], sides: tuple[str, ...], *, short: bool = False
) -> list[list[str]]:
    """One row per figure, one column per mode (the first column names the figure, *short*:
    by its short label), with intervals."""
    rows: list[list[str]] = []
    for number, first in enumerate(estimates(modes[0], sides)):
        name = label(first[1], first[2], short=short)
        rows.append([name] + cells([estimates(m, sides)[number] for m in modes]))
        if first[1] == "rounds_mean":
            middle_label = label("rounds_middle", short=short)
            rows.append([middle_label] + [middle(m["rounds"]) for m in modes])
    rows.append([label("load_at_turn_start", short=short)] + [loads_cell(m) for m in modes])
    return rows


def sweep_columns(
    grid: list[tuple[Any, list[dict[str, Any]]]], sides: tuple[str, ...], *, short: bool = False
) -> list[tuple[str, str, list[str]]]:
    """``(mode, figure, one cell per setting)`` of a sweep: the modes as groups of columns.

    Every figure with its interval, then the rounds-to-finish and Load distributions;
    *short*: the figures by their short labels.
    """
    columns: list[tuple[str, str, list[str]]] = []
    for number, first in enumerate(grid[0][1]):
        mode_rows = [modes[number] for _, modes in grid]
        for place, estimate in enumerate(estimates(first, sides)):
            columns.append(
                (
                    first["mode"],
                    label(estimate[1], estimate[2], short=short),
                    cells([estimates(m, sides)[place] for m in mode_rows]),
                )
            )
            if estimate[1] == "rounds_mean":
                columns.append(
                    (
                        first["mode"],
                        label("rounds_middle", short=short),
                        [middle(m["rounds"]) for m in mode_rows],
                    )
                )
        columns.append(
            (
                first["mode"],
                label("rounds_shares", short=short),
                [rounds_cell(m) for m in mode_rows],
            )
        )
        columns.append(
            (
                first["mode"],
                label("load_at_turn_start", short=short),
                [loads_cell(m) for m in mode_rows],
            )
        )
    return columns


def few_runs(runs: int) -> str | None:
    """The note a report of *runs* fights per mode needs when too few give a mean or ratio an interval."""
    if runs >= 2:
        return None
    return "1 run per mode: too few for the interval of a mean or ratio; those show 2 significant digits"


def plural(count: int, word: str) -> str:
    """``1 run``, ``2 runs``, ``10,000 runs``."""
    return f"{count:,} {word}" + ("" if count == 1 else "s")


def heading(report: dict[str, Any]) -> str:
    """``Skirmish: 200 runs per mode, seed 3, draw after 100 rounds, batch engine`` (plain text),
    with ``every target rule random``, ``every reserve 2`` when the run set them."""
    engine = report.get("engine")
    policy = report.get("policy") or {}
    settings = "".join(
        f", {words} {policy[key]}"
        for key, words in (("target", "every target rule"), ("reserve", "every reserve"))
        if policy.get(key) is not None
    )
    return (
        f"{report['encounter'] or 'encounter'}: {plural(report['runs'], 'run')} per mode, seed {report['seed']}, "
        f"draw after {plural(report['max_rounds'], 'round')}{settings}"
        + ("" if engine is None else f", {engine_text(engine['name'], engine['reason'])}")
    )


# What the batch engine cannot express (`d4cli.sim.batch_scope.LIMITS`), in words.
ENGINE_LIMITS: dict[str, str] = {
    "effects": "lasting effects or Team Action grants on a creature, R11, R20",
    "tables": "so many creatures and Loads in its tables",
    "dice": "an action of that many dice",
}


def engine_text(name: str, reason: str | None) -> str:
    """``batch engine``, or ``reference engine (the batch engine cannot express ...)``."""
    if reason is None:
        return f"{name} engine"
    return f"{name} engine (the batch engine cannot express {ENGINE_LIMITS[reason]})"
