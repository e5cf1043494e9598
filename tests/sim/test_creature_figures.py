"""Per-creature simulator figures: how often each went down, its damage per fight, its share of its side's."""

from __future__ import annotations

import csv
import io

import pytest
from _cli import ok, ok_json, run

from d4cli.fileformat.encounter_toml import bundled_examples, parse_encounter
from d4cli.sim.engine import FIGURES
from d4cli.sim.pieces import run_all
from d4cli.sim.report import creature_figures
from d4cli.sim.setup import prepare


def example(name: str):
    path = bundled_examples()[name]
    return parse_encounter(path.read_text(), path)


def test_the_creatures_damage_adds_up_to_their_sides():
    setup = prepare(example("skirmish"), "turn")
    tally = run_all([("x", "turn", setup)], 300, 2, 1)["x"]
    for side in range(2):
        members = [n for n, s in enumerate(setup.side_of) if s == side]
        dealt = sum(tally.per_creature[n * 4 + 1] for n in members)
        assert dealt == tally.sums[len(FIGURES) + side]
        shares = [creature_figures(tally, n, side)["share_of_side"]["value"] for n in members]
        assert sum(shares) == pytest.approx(1.0) or dealt == 0


def test_a_side_that_always_loses_always_goes_down():
    setup = prepare(example("skirmish"), "turn")
    tally = run_all([("x", "turn", setup)], 200, 1, 1)["x"]
    assert tally.wins == [200, 0]  # the bundled skirmish: the party wins every fight
    archer, brute = (creature_figures(tally, n, 1)["down"] for n in (2, 3))
    assert archer["downs"] == brute["downs"] == 200 and archer["rate"] == 1.0
    mean = creature_figures(tally, 1, 0)["damage_per_fight"]
    assert mean["low"] < mean["value"] == tally.per_creature[1 * 4 + 1] / 200 < mean["high"]


def test_simulate_json_table_markdown_and_csv_carry_them(isolated_env):
    report = ok_json(
        "simulate", "--from", "duel", "--runs", "300", "--seed", "4", "--modes", "turn"
    )
    creatures = report["modes"][0]["creatures"]
    assert [(c["name"], c["side"]) for c in creatures] == [
        ("Sera", "Sera"),
        ("The Masked Blade", "the Blade"),
    ]
    for c in creatures:
        assert set(c) == {"name", "side", "down", "damage_per_fight", "share_of_side"}
        assert c["share_of_side"]["value"] == 1.0  # alone on its side
    # Who went down is who lost: a duel has no draw here.
    downs = [c["down"]["downs"] for c in creatures]
    wins = report["modes"][0]["wins"]
    assert downs == [wins["the Blade"]["wins"], wins["Sera"]["wins"]]
    table = ok(
        "simulate", "--from", "duel", "--runs", "300", "--seed", "4", "--modes", "turn"
    ).stdout
    assert "Sera: went down" in table and "The Masked Blade: damage per fight" in table
    markdown = ok(
        "simulate",
        "--from",
        "duel",
        "--runs",
        "300",
        "--seed",
        "4",
        "--modes",
        "turn",
        "--format",
        "markdown",
    ).stdout
    assert "| Sera: share of its side's damage |" in markdown
    rows = list(
        csv.DictReader(
            io.StringIO(
                ok(
                    "simulate",
                    "--from",
                    "duel",
                    "--runs",
                    "300",
                    "--seed",
                    "4",
                    "--modes",
                    "turn",
                    "--format",
                    "csv",
                ).stdout
            )
        )
    )
    down = {r["side"]: r["value"] for r in rows if r["figure"] == "creature_down_rate"}
    assert float(down["Sera"]) == pytest.approx(creatures[0]["down"]["rate"], abs=0.01)


@pytest.mark.slow  # over a second of simulation or child processes
def test_a_sweep_over_one_creature_changes_only_it(isolated_env):
    report = ok_json(
        "simulate",
        "--from",
        "skirmish",
        "--runs",
        "200",
        "--seed",
        "1",
        "--modes",
        "turn",
        "--sweep",
        "buffer:Goblin Brute=0..2",
    )
    assert report["sweep"] == {"key": "buffer:Goblin Brute", "values": [0, 1, 2]}
    brute = [row["modes"][0]["creatures"][3]["damage_per_fight"]["value"] for row in report["rows"]]
    assert brute[0] < brute[2]  # a bigger Load Buffer leaves the Brute more dice (R1, R5)
    plain = ok_json(
        "simulate", "--from", "skirmish", "--runs", "200", "--seed", "1", "--modes", "turn"
    )
    assert report["rows"][0]["modes"][0] == plain["modes"][0]  # the file's own buffer is 0
    reserve = ok_json(
        "simulate",
        "--from",
        "skirmish",
        "--runs",
        "200",
        "--seed",
        "1",
        "--modes",
        "turn",
        "--sweep",
        "reserve:aria=0..1",
    )
    assert reserve["rows"][0]["modes"][0] == plain["modes"][0]


@pytest.mark.parametrize(
    ("sweep", "needle"),
    [
        ("buffer:Nobody=0..1", "no such creature"),
        ("reserve:=0..1", "unknown key"),
        ("hp:Aria=0..1", "unknown key"),
    ],
)
def test_bad_one_creature_sweeps_are_refused(isolated_env, sweep, needle):
    result = run("simulate", "--from", "skirmish", "--runs", "10", "--sweep", sweep)
    assert result.exit_code == 2 and result.stdout == ""
    assert needle in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_reserve_for_everyone_and_for_one_is_refused(isolated_env):
    result = run(
        "simulate",
        "--from",
        "skirmish",
        "--runs",
        "10",
        "--reserve",
        "1",
        "--sweep",
        "reserve:Aria=0..1",
    )
    assert result.exit_code == 2 and "--reserve" in result.stderr


def test_a_share_of_nothing_is_null_and_a_dash_not_zero(isolated_env):
    # Foes no attack can reach: the party deals no damage at all, so each of its creatures'
    # share of its side's damage is 0 of 0.
    ok("init", "--from", "skirmish")
    ok("set", "Goblin Archer", "evasion=1000")
    ok("set", "Goblin Brute", "evasion=1000")
    args = ("simulate", "-f", "encounter.toml", "--runs", "40", "--seed", "3", "--modes", "turn")
    report = ok_json(*args, "--max-rounds", "3")
    creatures = {c["name"]: c for c in report["modes"][0]["creatures"]}
    for name in ("Aria", "Borin"):
        assert creatures[name]["damage_per_fight"]["value"] == 0.0
        assert creatures[name]["share_of_side"] == {"value": None, "low": None, "high": None}
    assert creatures["Goblin Archer"]["share_of_side"]["value"] is not None
    table = ok(*args, "--max-rounds", "3", env={"COLUMNS": "120"}).stdout
    row = next(line for line in table.splitlines() if "Aria: share of its side's" in line)
    assert row.split("│")[2].strip() == "-"
