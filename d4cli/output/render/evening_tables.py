"""The evening's recap and the bestiary for people: Rich tables, and the recap as Markdown or CSV."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from d4cli.output import render
from d4cli.output.csv_text import csv_table
from d4cli.output.markdown import markdown_table
from d4cli.output.render import escape
from d4cli.output.render.recap_tables import ordinal

_FIGHT_HEADER = ("#", "Fight", "Rounds", "Winner")
_CREATURE_HEADER = (
    "Creature",
    "Side",
    "Fights",
    "Dealt",
    "Taken",
    "Load spent",
    "Reactions",
    "Luck",
)


def _fight_rows(report: dict[str, Any]) -> list[list[str]]:
    return [
        [str(f["number"]), f["name"], str(f["rounds"]), f["winner"] or "-"]
        for f in report["fights"]
    ]


def _luck(luck: dict[str, Any] | None) -> str:
    if luck is None:
        return "-"
    rolls = luck["rolls"]
    return (
        f"{luck['verdict']}: {ordinal(luck['mean'])} over {rolls} roll{'s' if rolls != 1 else ''}"
    )


def _creature_rows(report: dict[str, Any]) -> list[list[str]]:
    return [
        [
            c["name"],
            c["side"] or "-",
            str(c["fights"]),
            str(c["damage_dealt"]),
            str(c["damage_taken"]),
            str(c["load_spent"]),
            str(c["reactions"]),
            _luck(c["luck"]),
        ]
        for c in report["creatures"]
    ]


def _won_line(report: dict[str, Any]) -> str:
    won = report["won"]
    if not won:
        return "No fight won yet (R21)."
    return "Fights won: " + ", ".join(f"{side} {n}" for side, n in won.items()) + " (R21)."


def print_evening(report: dict[str, Any]) -> None:
    """The evening as two tables (fights, creatures) and a line of fights won."""
    out = render.console()
    fights = Table(title="The evening's fights", title_justify="left")
    for name in _FIGHT_HEADER:
        fights.add_column(name, justify="left" if name in ("Fight", "Winner") else "right")
    for row in _fight_rows(report):
        fights.add_row(*(escape(cell) for cell in row))
    out.print(fights)
    creatures = Table(
        title="Each creature over the evening (damage: hp, R16)", title_justify="left"
    )
    for name in _CREATURE_HEADER:
        creatures.add_column(
            name, justify="left" if name in ("Creature", "Side", "Luck") else "right"
        )
    for row in _creature_rows(report):
        creatures.add_row(*(escape(cell) for cell in row))
    out.print(creatures)
    out.print(_won_line(report), markup=False)


def markdown_evening(report: dict[str, Any]) -> str:
    """The evening as Markdown: the two tables and the line of fights won."""
    return "\n".join(
        [
            "**The evening's fights**",
            "",
            markdown_table(_FIGHT_HEADER, _fight_rows(report)),
            "",
            "**Each creature over the evening** (damage: hp, R16)",
            "",
            markdown_table(_CREATURE_HEADER, _creature_rows(report)),
            "",
            _won_line(report),
        ]
    )


# One row per number, as the one fight's CSV has it (`d4cli.output.render.recap_tables`):
# a fight's figures name the fight, a creature's the creature, the fights won the side.
EVENING_CSV_COLUMNS = ("figure", "fight", "fight_name", "creature", "side", "value")
EVENING_CSV_FIGURES = ("fights", "damage_dealt", "damage_taken", "load_spent", "reactions")


def csv_evening(report: dict[str, Any]) -> str:
    """The evening as CSV (`EVENING_CSV_COLUMNS`): each fight's rounds and winner (its side, in
    ``side``; empty when none won, R21), each creature's figures and luck (its mean as a fraction
    0..1 and its count of rolls), and the fights each side won."""
    rows: list[list[Any]] = []
    for fight in report["fights"]:
        head = [fight["number"], fight["name"]]
        rows.append(["rounds", *head, "", "", fight["rounds"]])
        rows.append(["winner", *head, "", fight["winner"] or "", ""])
    for c in report["creatures"]:
        named = ["", "", c["name"], c["side"] or ""]
        rows += [[key, *named, c[key]] for key in EVENING_CSV_FIGURES]
        if c["luck"] is not None:
            rows.append(["luck_mean", *named, c["luck"]["mean"]])
            rows.append(["luck_rolls", *named, c["luck"]["rolls"]])
    rows += [["fights_won", "", "", "", side, n] for side, n in report["won"].items()]
    return csv_table(EVENING_CSV_COLUMNS, rows)


def print_bestiary(listing: dict[str, Any]) -> None:
    """The bestiary (`d4cli.output.serialize.evening_json.bestiary_json`) as two tables; each file
    that could not be read on stderr."""
    out = render.console()
    for key, title in (("creatures", "Creatures"), ("templates", "Templates")):
        table = Table(title=f"{title} in {escape(listing['folder'])}", title_justify="left")
        table.add_column("Name")
        table.add_column("Holds")
        for entry in listing[key]:
            holds = ", ".join(
                c["name"] + " (" + ", ".join(f"{a} {v}" for a, v in c["aspects"].items()) + ")"
                if key == "creatures"
                else c["name"]
                for c in entry["creatures"]
            )
            table.add_row(escape(entry["name"]), escape(holds))
        out.print(table)
    errors = render.console(stderr=True)
    for problem in listing["problems"]:
        errors.print(f"warning: {problem}", markup=False)
