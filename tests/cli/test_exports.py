"""Exports carry their title and settings: ``odds`` Markdown and CSV name the grid and its Load,
Net Advantage and extra dice; ``simulate`` Markdown, CSV, SVG and JSON name the policy a run
set for everyone."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET

from _cli import ok, ok_json

NS = "{http://www.w3.org/2000/svg}"
SIM = ("simulate", "--from", "skirmish", "--runs", "50", "--seed", "1", "--modes", "turn")


def test_odds_markdown_names_the_grid_and_its_settings_above_the_table(isolated_env):
    out = ok(
        "odds",
        "damage",
        "--aspect",
        "3",
        "--load",
        "1",
        "--net-advantage",
        "-1",
        "--extra",
        "1d8",
        "--evasion",
        "4",
        "--format",
        "markdown",
    ).stdout
    head, settings, table = out.split("\n\n")
    assert head == "**Expected damage of a D4 pool: max(0, total - Evasion) (R5-R7)**"
    assert settings == "Settings: Load 1, Net Advantage -1, extra dice 1d8."
    # Aspect 3, Load 1, Net Advantage -1: 1d4 and the 1d8 against Evasion 4. The total
    # averages 7, so 3 over the Evasion, plus what max(0, .) saves below it: a total of 2
    # (1 in 32) saves 2, a total of 3 (2 in 32) saves 1: 3 + 4/32 = 3.125.
    assert table.splitlines()[2] == "| 3 (1d4+1d8) | 3.13 |"


def test_odds_csv_repeats_the_title_and_settings_on_every_row(isolated_env):
    out = ok(
        "odds", "pool", "--aspect", "2..3", "--load", "1", "--dc", "4", "--format", "csv"
    ).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [row["dc=4 exact"] for row in rows] == ["1/4", "13/16"]  # 1d4, then 2d4 >= 4
    assert {row["title"] for row in rows} == {"Chance of success of a D4 pool: total >= DC (R5-R7)"}
    assert {(row["load"], row["net_advantage"], row["extra"]) for row in rows} == {("1", "0", "")}


def test_simulate_exports_name_the_policy_the_run_set(isolated_env):
    given = ("--reserve", "1", "--target-rule", "random")
    report = ok_json(*SIM, *given)
    assert report["policy"] == {"target": "random", "reserve": 1}
    assert "policy" not in ok_json(*SIM)
    said = "every target rule random, every reserve 1"
    markdown = ok(*SIM, *given, "--format", "markdown").stdout
    assert markdown.splitlines()[0].startswith(
        f"**Skirmish at the old mill: 50 runs per mode, seed 1, draw after 100 rounds, {said},"
    )
    rows = list(csv.DictReader(io.StringIO(ok(*SIM, *given, "--format", "csv").stdout)))
    assert {(row["target_rule"], row["reserve"]) for row in rows} == {("random", "1")}
    wins = next(r for r in rows if r["figure"] == "wins" and r["side"] == "party")
    assert int(wins["value"]) == report["modes"][0]["wins"]["party"]["wins"]
    svg = ok(*SIM, *given, "--format", "svg").stdout
    title = " ".join(
        t.text or "" for t in ET.fromstring(svg).iter(f"{NS}text") if t.get("class") == "title"
    )
    assert said in title and "Skirmish at the old mill" in title
