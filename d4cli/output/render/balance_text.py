"""Human output of ``d4cli balance``: the value found, the chance at it and its neighbours, the curve.

Made from the JSON object (`d4cli.output.serialize.balance_json.balance_json`), as ``simulate``'s
report is: the terminal shows what a script reads. `balance_svg` draws the curve as one SVG
document (`d4cli.output.render.svg.bar_chart`).
"""

from __future__ import annotations

from typing import Any

from d4cli.output.figuretext import plural, share_places
from d4cli.output.render import console, escape
from d4cli.output.render.svg import Series, bar_chart

# The widest bar of the curve, and the room its labels take beside it.
BAR = 70
LABELS = 30


def percent(rate: float, places: int) -> str:
    return f"{100 * rate:.{places}f}%"


def chance_text(point: dict[str, Any], places: int) -> str:
    """``61.2% (59.0-63.3)``: a side's chance at one value and its 95% interval."""
    low, high = (f"{100 * point[key]:.{places}f}" for key in ("low", "high"))
    return f"{percent(point['rate'], places)} ({low}-{high})"


def setting(report: dict[str, Any]) -> str:
    """``Goblin Chief's hp`` (plain text)."""
    vary = report["vary"]
    return f"{vary['creature']}'s {vary['field']}"


def heading(report: dict[str, Any]) -> str:
    """``Ambush: Goblin Chief's hp for party to win 60%`` (plain text)."""
    return (
        f"{report['encounter'] or 'encounter'}: {setting(report)} for {report['side']} to win "
        f"{percent(report['target'], 0)}"
    )


def how(report: dict[str, Any]) -> str:
    """``turn mode, 2,000 runs per value, seed 1 for every value``."""
    return (
        f"{report['mode']} mode, {plural(report['runs'], 'run')} per value, "
        f"seed {report['seed']} for every value"
    )


def summary_lines(report: dict[str, Any]) -> list[str]:
    """The value found and the chance there, then its neighbours (plain text)."""
    places = share_places(report["runs"])
    field, side, vary = report["vary"]["field"], report["side"], report["vary"]
    at = report["wins"]
    if report["reached"]:
        lines = [f"{field} = {report['value']}: {side} wins {chance_text(at, places)}"]
    else:
        lines = [
            f"no {field} in {vary['low']}..{vary['high']} gets {side} to "
            f"{percent(report['target'], 0)}; the nearest is {field} = {report['value']}: "
            f"{side} wins {chance_text(at, places)}"
        ]
    for key in ("below", "above"):
        point = report[key]
        if point is not None:
            lines.append(f"  {field} = {point['value']}: {chance_text(point, places)}")
    return lines


def curve_lines(report: dict[str, Any], width: int) -> list[str]:
    """``  12 ############|#####      61.2% (59.0-63.3) <``: a bar per value played, ``|`` at the target,
    ``<`` at the value found; the bars scale to 100% in what *width* leaves."""
    places = share_places(report["runs"])
    bar = max(10, min(BAR, width - LABELS - 2 * places))
    values = [point["value"] for point in report["curve"]]
    room = max(len(str(value)) for value in values)
    mark = min(bar - 1, round(bar * report["target"]))
    lines = []
    for point in report["curve"]:
        cells = ["#" if n < round(bar * point["rate"]) else " " for n in range(bar)]
        if cells[mark] == " ":
            cells[mark] = "|"
        found = " <" if point["value"] == report["value"] else ""
        lines.append(
            f"  {point['value']:>{room}} {''.join(cells)} {chance_text(point, places)}{found}"
        )
    return lines


def print_balance(report: dict[str, Any], written: str | None = None) -> None:
    """The heading, the value and its neighbours, the curve of the values played; *written*: the
    file the value went into (``--apply``)."""
    out = console()
    out.print(f"[bold]{escape(heading(report))}[/]")
    out.print(f"[dim]{escape(how(report))}[/]")
    for line in summary_lines(report):
        out.print(line, markup=False)
    out.print(
        f"\n{report['side']}'s chance by {report['vary']['field']}, at the values played"
        " (| marks the target):",
        markup=False,
    )
    for line in curve_lines(report, out.width):
        out.print(line, markup=False)
    if written is not None:
        out.print(
            f"\nwrote {report['vary']['field']} = {report['value']} to {written} (undo takes it back)",
            markup=False,
        )


def balance_svg(report: dict[str, Any]) -> str:
    """``balance --format svg``: the side's chance at each value played, a bar per value."""
    places = share_places(report["runs"])
    values = [100 * point["rate"] for point in report["curve"]]
    series = Series(f"{report['side']} wins", values, [f"{value:.{places}f}%" for value in values])
    return bar_chart(
        f"{heading(report)}: {report['vary']['field']} = {report['value']} ({how(report)})",
        report["vary"]["field"],
        "chance to win (%)",
        [str(point["value"]) for point in report["curve"]],
        [series],
        tick=lambda value: f"{value:g}%",
    )
