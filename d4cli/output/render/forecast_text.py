"""Human output of ``d4cli forecast`` and the one line of ``status --forecast``."""

from __future__ import annotations

from rich.table import Table

from d4cli.output.figuretext import cell, engine_text, places_of, plural
from d4cli.output.render import console, escape
from d4cli.output.sidetext import side_wins
from d4cli.sim.forecast import Chance, Forecast


def percent(chance: Chance, places: int | None = None) -> str:
    """``62% (60-64%)``: the share to the digits its 95% interval supports (or to *places*
    decimals: its column's one precision), then the interval."""
    return cell(_figure(chance), "value", True, places)


def _figure(chance: Chance) -> dict[str, float]:
    return {"value": chance.rate, "low": chance.low, "high": chance.high}


def rounds_left(forecast: Forecast) -> str:
    """``rounds left 2 (90%: 3)``, the round running (or next) counted as 1; ``no fight finished`` when none did."""
    if forecast.rounds_median is None:
        return f"no fight finished within {forecast.max_rounds} rounds"
    return f"rounds left {forecast.rounds_median} (90%: {forecast.rounds_p90})"


def forecast_line(forecast: Forecast) -> str:
    """``Forecast: party 62% (60-64), foes 38% (36-40), draws 0%; rounds left 2 (90%: 3); 2,000 runs, turn mode``."""
    sides = ", ".join(f"{escape(chance.side)} {percent(chance)}" for chance in forecast.chances)
    return (
        f"Forecast: {sides}, draws {percent(forecast.draws)}; {rounds_left(forecast)}; "
        f"{forecast.runs:,} runs, {forecast.mode} mode, seed {forecast.seed}"
    )


def print_forecast(forecast: Forecast) -> None:
    """A table of each side's chance to win (95% interval), the draws, and the rounds left."""
    out = console()
    title = (
        f"{escape(forecast.encounter) or 'encounter'}: forecast from the state as it is, "
        f"{forecast.mode} mode, {plural(forecast.runs, 'run')}, seed {forecast.seed}"
        + (
            ""
            if forecast.engine is None
            else f", {engine_text(forecast.engine, forecast.engine_reason)}"
        )
    )
    table = Table(title=title, title_justify="left")
    table.add_column("outcome")
    table.add_column("share of runs (95% interval)", justify="right")
    column = [*forecast.chances, forecast.draws]
    places = places_of([_figure(chance) for chance in column], True)  # one precision per column
    for chance in forecast.chances:
        table.add_row(escape(side_wins(chance.side)), percent(chance, places))
    table.add_row("draw", percent(forecast.draws, places))
    out.print(table)
    if forecast.rounds_median is None:
        out.print(rounds_left(forecast) + ".", markup=False)
    else:
        out.print(
            f"Rounds left (the round running or next counts as 1), of {plural(forecast.finished, 'finished fight')}: "
            f"median {forecast.rounds_median}, 90th percentile {forecast.rounds_p90}.",
            markup=False,
        )
    for line in bar_lines(
        [(str(rounds), fights) for rounds, fights in forecast.histogram], forecast.runs
    ):
        out.print(line, markup=False)
    out.print(
        f"Draw: still running after {plural(forecast.max_rounds, 'round')}. Policy: d4cli help simulate.",
        markup=False,
    )


def settled_line(forecast: Forecast, winner: str | None) -> str:
    """``Forecast: the fight is over: party won (R21); party 100%, foes 0%, draws 0%``."""
    sides = ", ".join(f"{escape(chance.side)} {percent(chance)}" for chance in forecast.chances)
    return f"{over_line(winner)}; {sides}, draws {percent(forecast.draws)}"


def over_line(winner: str | None) -> str:
    """``Forecast: the fight is over: party won (R21)``; with everyone down, no side won."""
    if winner is None:
        return "Forecast: the fight is over: everyone is down, no side won (R21)"
    return f"Forecast: the fight is over: {escape(winner)} won (R21)"


BAR = 40


def bar_lines(bars: list[tuple[str, int]], total: int, unit: str = "%") -> list[str]:
    """``  2 ######## 41%``: one bar per label, scaled to the largest; the share of *total* (``%``) or the count."""
    if not bars:
        return []
    peak = max(value for _, value in bars) or 1
    width = max(len(label) for label, _ in bars)
    lines = []
    for label, value in bars:
        bar = "#" * max(1 if value else 0, round(BAR * value / peak))
        shown = f"{100 * value / total:.0f}%" if unit == "%" and total else str(value)
        lines.append(f"  {label:>{width}} {bar:<{BAR}} {shown}")
    return lines
