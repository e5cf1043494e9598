"""Human output of ``d4cli recap``: tables (Rich), Markdown or CSV, all from the ``recap --json`` object."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from d4cli.output import render
from d4cli.output.csv_text import csv_table
from d4cli.output.markdown import markdown_table, md_text
from d4cli.output.render import escape
from d4cli.output.render.forecast_text import bar_lines

CREATURE_HEADER = [
    "creature",
    "dealt",
    "taken",
    "actions on/off turn",
    "Team Actions",
    "Load spent",
    "turns unable (R2)",
    "down/up (round)",
    "luck (mean, rolls)",
]
# The column of GM-called rolls (R9: neither on nor off a turn), after the actions; shown only
# when some creature was called to roll.
GM_COLUMN = "GM-called (R9)"
_LEFT = ("creature", "down/up (round)", "luck (mean, rolls)")
CSV_COLUMNS = ("encounter", "from_seq", "to_seq", "figure", "creature", "side", "round", "value")
# The creature figures that CSV carries, by their JSON keys.
CSV_FIGURES = (
    "damage_dealt",
    "damage_taken",
    "actions_on_turn",
    "actions_off_turn",
    "gm_called",
    "team_actions",
    "load_spent",
    "turns",
    "turns_unable",
    "longest_unable",
)


def ordinal(share: float) -> str:
    """``71st``: a share 0..1 as a whole percentile with its English ending."""
    number = round(100 * share)
    ending = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{ending}"


def luck_sentence(name: str, luck: dict[str, Any]) -> str:
    """``the dice favoured Aria: 71st percentile over 9 rolls`` (``went against``, ``were even for``)."""
    verb = {"favoured": "favoured", "against": "went against", "even": "were even for"}[
        luck["verdict"]
    ]
    rolls = luck["rolls"]
    return f"the dice {verb} {name}: {ordinal(luck['mean'])} percentile over {rolls} roll{'s' if rolls != 1 else ''}"


def _downs(creature: dict[str, Any]) -> str:
    return ", ".join(f"{item['event']} {item['round']}" for item in creature["downs"]) or "-"


def _who(creature: dict[str, Any]) -> str:
    return f"{creature['name']} ({creature['side']})" if creature["side"] else creature["name"]


def _with_gm(report: dict[str, Any]) -> bool:
    """Whether the creature table has the `GM_COLUMN`: some creature was called to roll (R9)."""
    return any(c["gm_called"] for c in report["creatures"])


def creature_header(report: dict[str, Any]) -> list[str]:
    """The creature table's columns: `CREATURE_HEADER`, with `GM_COLUMN` after the actions
    when the GM called for a roll (R9)."""
    if not _with_gm(report):
        return list(CREATURE_HEADER)
    at = CREATURE_HEADER.index("actions on/off turn") + 1
    return CREATURE_HEADER[:at] + [GM_COLUMN] + CREATURE_HEADER[at:]


def creature_rows(report: dict[str, Any]) -> list[list[str]]:
    """One row of `creature_header` cells per creature (plain text)."""
    rows = []
    gm = _with_gm(report)
    for c in report["creatures"]:
        luck = c["luck"]
        rows.append(
            [
                _who(c),
                str(c["damage_dealt"]),
                str(c["damage_taken"]),
                f"{c['actions_on_turn']} / {c['actions_off_turn']}",
                *([str(c["gm_called"])] if gm else []),
                str(c["team_actions"]),
                str(c["load_spent"]),
                f"{c['turns_unable']} of {c['turns']}",
                _downs(c),
                "-"
                if luck is None
                else f"{ordinal(luck['mean'])} ({luck['rolls']}), {luck['verdict']}",
            ]
        )
    return rows


def round_rows(report: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The damage per round table: a column per side, then ``damage command``; one row per round."""
    header = ["round"] + [f"{side} dealt" for side in report["sides"]] + ["damage command"]
    rows = [
        [str(r["round"])]
        + [str(r["sides"].get(side, 0)) for side in report["sides"]]
        + [str(r["other"])]
        for r in report["damage_per_round"]
    ]
    return header, rows


def heading(report: dict[str, Any]) -> str:
    """``Recap of Skirmish: entries #2-#24, 2 rounds; the fight goes on`` (plain text)."""
    state = f"{report['winner']} won" if report["winner"] else "the fight goes on"
    rounds = report["rounds"]
    return (
        f"Recap of {report['encounter'] or 'the encounter'}: entries #{report['from_seq'] + 1}-#{report['to_seq']}, "
        f"{rounds} round{'s' if rounds != 1 else ''}; {state}"
    )


def sentences(report: dict[str, Any]) -> list[str]:
    """The recap's lines under its tables: the refusal streak, the luck verdicts, the simulated fights."""
    lines = []
    streak = report["longest_refusal"]
    if streak is None:
        lines.append("Longest refusal streak: none (every turn began with Cost 1 allowed, R2).")
    else:
        lines.append(
            f"Longest refusal streak: {streak['creature']}, {streak['turns']} turn"
            f"{'s' if streak['turns'] != 1 else ''} in a row without Cost 1 at their start (R2)."
        )
    lucky = [c for c in report["creatures"] if c["luck"] is not None]
    if lucky:
        lines.append(
            "Luck (each roll's exact percentile in its own distribution, mid-rank for ties):"
        )
        lines += [f"  {luck_sentence(c['name'], c['luck'])}" for c in lucky]
    else:
        lines.append("Luck: no roll in the recap.")
    sim = report["simulated"]
    if sim is None:
        lines.append(f"Against the simulator: {report['simulated_note']}.")
    else:
        real, share = sim["rounds"]["real"], sim["rounds"]["percentile"]
        parts = [f"{real} round{'s' if real != 1 else ''}: {ordinal(share)} percentile"]
        parts += [
            f"{side} dealt {d['real']}: {ordinal(d['percentile'])}"
            for side, d in sim["damage"].items()
        ]
        wins = ", ".join(f"{side} won {100 * share:.0f}%" for side, share in sim["wins"].items())
        so_far = "" if report["winner"] else "; the fight goes on, so these are its figures so far"
        lines.append(
            f"Against {sim['runs']:,} simulated fights from #{report['from_seq']} ({sim['mode']} mode, "
            f"seed {sim['seed']}; {wins}{so_far}): " + "; ".join(parts) + "."
        )
    return lines


def print_recap(report: dict[str, Any]) -> None:
    """The recap as two Rich tables (per creature, per round) and its lines."""
    out = render.console()
    table = Table(
        title=escape(heading(report)) + " (damage: hp taken off, R16)", title_justify="left"
    )
    for name in creature_header(report):
        table.add_column(name, justify="left" if name in _LEFT else "right")
    for row in creature_rows(report):
        table.add_row(*(escape(cell) for cell in row))
    out.print(table)
    header, rows = round_rows(report)
    if rows:
        rounds = Table(title="Damage per round (hp taken off, R16)", title_justify="left")
        for name in header:
            rounds.add_column(escape(name), justify="right")
        for row in rows:
            rounds.add_row(*row)
        out.print(rounds)

        for side in report["sides"]:
            out.print(f"{escape(side)} dealt, per round:", markup=False)
            bars = [(str(r["round"]), r["sides"].get(side, 0)) for r in report["damage_per_round"]]
            for line in bar_lines(bars, 0, unit="count"):
                out.print(line, markup=False)
    for line in sentences(report):
        out.print(line, markup=False)


def markdown_recap(report: dict[str, Any]) -> str:
    """The recap as Markdown: a heading line, the two tables, the lines as a list."""
    lines = [
        f"**{md_text(heading(report))}**",
        "",
        markdown_table(creature_header(report), creature_rows(report)),
    ]
    header, rows = round_rows(report)
    if rows:
        lines += ["", "Damage per round (hp taken off, R16):", "", markdown_table(header, rows)]
    lines.append("")
    lines += [
        ("  - " if line.startswith("  ") else "- ") + md_text(line.strip())
        for line in sentences(report)
    ]
    return "\n".join(lines)


def csv_recap(report: dict[str, Any]) -> str:
    """The recap as CSV (`CSV_COLUMNS`): one row per number; percentiles as fractions 0..1."""
    head = [report["encounter"], report["from_seq"], report["to_seq"]]
    rows: list[list[Any]] = [head + ["rounds", "", "", "", report["rounds"]]]
    for c in report["creatures"]:
        side = c["side"] or ""
        rows += [head + [key, c["name"], side, "", c[key]] for key in CSV_FIGURES]
        rows += [
            head + [f"went_{item['event']}", c["name"], side, item["round"], item["seq"]]
            for item in c["downs"]
        ]
        if c["luck"] is not None:
            rows += [
                head + ["luck_mean", c["name"], side, "", c["luck"]["mean"]],
                head + ["luck_rolls", c["name"], side, "", c["luck"]["rolls"]],
            ]
    for r in report["damage_per_round"]:
        rows += [
            head + ["damage_per_round", "", side, r["round"], value]
            for side, value in r["sides"].items()
        ]
        rows.append(head + ["damage_command", "", "", r["round"], r["other"]])
    rows += [
        head + ["roll_percentile", roll["creature"], "", roll["round"], roll["percentile"]]
        for roll in report["rolls"]
    ]
    sim = report["simulated"]
    if sim is not None:
        rows.append(head + ["simulated_rounds_percentile", "", "", "", sim["rounds"]["percentile"]])
        rows += [
            head + ["simulated_damage_percentile", "", side, "", d["percentile"]]
            for side, d in sim["damage"].items()
        ]
        rows += [
            head + ["simulated_win_share", "", side, "", share]
            for side, share in sim["wins"].items()
        ]
    return csv_table(CSV_COLUMNS, rows)
