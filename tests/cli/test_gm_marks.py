"""The GM's ``status`` marks what the players do not see: hidden creatures, aliases, GM-only effects."""

from __future__ import annotations

import io

from _cli import ok, run
from rich.console import Console

from d4cli.api.encounter import Tracker
from d4cli.output.render.status_tables import compact_status_table


def _hidden_things():
    ok("init", "--from", "skirmish")
    ok("conceal", "Goblin Brute")
    ok("alias", "Goblin Archer", "Sniper")
    ok("effect", "add", "Borin", "cursed", "--dis", "--gm-only")


def _row(table: str, name: str) -> list[str]:
    line = next(line for line in table.splitlines() if f"│ {name}" in line)
    return [cell.strip() for cell in line.split("│")[1:-1]]


def test_the_wide_status_marks_hidden_creatures_aliases_and_gm_only_effects():
    _hidden_things()
    table = ok("status", env={"COLUMNS": "200"}).stdout
    assert _row(table, "Goblin Brute")[1] == "Goblin Brute (foes, hidden)"
    assert _row(table, "Goblin Archer")[1] == "Goblin Archer (foes, as 'Sniper')"
    assert _row(table, "Aria")[1] == "Aria (party)"
    assert _row(table, "Borin")[-1] == "cursed -1d4 (GM only), until removed"


def test_the_compact_status_and_the_sheet_say_it_too():
    _hidden_things()
    console = Console(width=80, record=True, file=io.StringIO(), color_system=None)
    console.print(compact_status_table(Tracker("encounter.toml").status(), 80))
    compact = console.export_text()
    # The name column is narrow: the marks wrap onto the next line of the cell.
    lines = compact.splitlines()
    brute = next(n for n, line in enumerate(lines) if "Goblin Brute" in line)
    assert lines[brute + 1].split() == ["(hidden)"]
    assert "Goblin Archer (as" in compact and "'Sniper')" in compact
    assert (
        ok("status", "Goblin Archer").stdout.splitlines()[0] == "Goblin Archer (foes, as 'Sniper')"
    )
    assert ok("status", "Goblin Brute").stdout.splitlines()[0] == "Goblin Brute (foes, hidden)"
    ok("reveal", "Goblin Brute")
    ok("alias", "Goblin Archer", "--clear")
    assert ok("status", "Goblin Brute").stdout.splitlines()[0] == "Goblin Brute (foes)"
    assert ok("status", "Goblin Archer").stdout.splitlines()[0] == "Goblin Archer (foes)"


def test_an_unknown_name_among_many_lists_only_the_nearest():
    ok("init")
    ok("add", "Goblin", "--aspect", "Might=2", "--count", "20")
    ok("add", "Ogre", "--aspect", "Might=3")
    line = run("damage", "Gobln 7", "2").stderr.strip()
    assert line == (
        "d4cli: error: NAME: 'Gobln 7': no such creature in the encounter (21 creatures; "
        "the nearest: Goblin 7, Goblin 17, Goblin 1, Goblin 2, Goblin 3; "
        "'d4cli status' lists them all)"
    )
    ok("remove", "Goblin 20")
    ok("remove", "Goblin 19")
    ok("remove", "Goblin 18")
    ok("remove", "Goblin 17")
    ok("remove", "Goblin 16")
    ok("remove", "Goblin 15")
    ok("remove", "Goblin 14")
    ok("remove", "Goblin 13")
    ok("remove", "Goblin 12")  # 12 left: all of them, and the closest as a hint
    line = run("damage", "Ogr", "1").stderr.strip()
    assert "(it has: Goblin 1, Goblin 2," in line and line.endswith("Ogre); did you mean 'Ogre'?")


def test_an_act_against_its_own_actor_says_so():
    ok("init", "--from", "skirmish")
    short = ok("act", "Aria", "Finesse", "--target", "aria", "--seed", "1", "--short").stdout
    assert "vs Aria (Evasion 11, itself):" in short
    table = ok("act", "Aria", "Finesse", "--target", "Aria", "--seed", "1", "--dry-run").stdout
    assert "Aria acts against itself: its own Evasion and hp (R7, R16)" in table
    other = ok("act", "Aria", "Finesse", "--target", "Borin", "--seed", "1", "--dry-run").stdout
    assert "itself" not in other
