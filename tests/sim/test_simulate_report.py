"""`d4cli simulate`'s report: digits, intervals, draws apart, Markdown, CSV, sweeps and the stated policy."""

from __future__ import annotations

import csv
import io
import json
import os
import re
from pathlib import Path

import pytest
from _cli import fails, ok, ok_json

from d4cli.output.figuretext import shown, significant
from d4cli.sim.engine import FIGURES, Tally
from d4cli.sim.report import Z95, finishes, rounds_figure, turn_share, wilson

# The figures pinned here are the reference engine's (one fight at a time, its own dice).
DUEL = ("simulate", "--from", "duel", "--jobs", "1", "--engine", "reference")
SKIRMISH = ("simulate", "--from", "skirmish", "--jobs", "1", "--engine", "reference")


def here() -> Path:
    return Path(os.environ["D4CLI_FILE"])


# --- Digits the interval supports -------------------------------------------------------


def test_digits_follow_the_half_width():
    assert shown(3.81234, 3.7012, 3.9234) == "3.8"  # half-width 0.11: tenths
    assert shown(3.81234, 3.7612, 3.8634) == "3.81"  # half-width 0.05: hundredths
    assert shown(11.567, 10.9, 12.2) == "11.6"
    assert shown(0.93, 0.8613, 0.9713, 100) == "93"  # a rate as a percentage: +-5.5
    assert shown(0.0, 0.0, 0.006041, 100) == "0.0"  # +-0.3%: tenths of a percent


def test_no_interval_or_zero_width_shows_two_significant_digits_not_three_decimals():
    assert shown(7 / 3, None, None) == "2.3"
    assert shown(7 / 3, 7 / 3, 7 / 3) == "2.3"
    assert shown(1 / 3, None, None, 100) == "33"
    assert shown(0.046666, None, None) == "0.047"
    assert shown(2.0, 2.0, 2.0) == "2" and shown(0.0, 0.0, 0.0) == "0"
    assert significant(123.4) == "123" and significant(0.07 * 100) == "7"


def test_one_run_says_it_is_too_few_and_prints_no_false_precision():
    result = ok(*SKIRMISH, "--runs", "1", "--seed", "3")
    assert "1 run per mode," in result.stdout and "1 runs" not in result.stdout
    assert "too few for the interval of a mean or ratio" in result.stdout
    assert not re.search(r"\d\.\d{3}", result.stdout), (
        result.stdout
    )  # never 2.333 or 33.333% from one run
    report = ok_json(*SKIRMISH, "--runs", "1", "--seed", "3")
    turn = report["modes"][0]
    assert turn["actions_per_turn"]["low"] is None and turn["actions_per_turn"]["high"] is None
    assert turn["damage_per_round"]["party"]["low"] is None
    assert turn["rounds"]["low"] is None and turn["rounds"]["mean"] == turn["rounds"]["median"]
    # Proportions keep a Wilson interval even from one fight.
    assert (
        turn["wins"]["party"]["low"] == pytest.approx(wilson(1, 1)[0])
        and turn["wins"]["party"]["low"] < 0.25
    )
    stuck = report["modes"][2]["stuck_share"]
    assert stuck["low"] < stuck["value"] < stuck["high"]


def _tally(runs: int, turns: int, stuck: int) -> Tally:
    tally = Tally(2)
    for run in range(runs):
        figures = [2, turns, turns * 2, 1, stuck if run == 0 else 0, 5, 0]
        tally.add_run(0, figures, {0: turns})
    return tally


def test_stuck_share_is_a_wilson_interval_over_turns_never_zero_width():
    stuck_at = FIGURES.index("stuck")
    turns_at = FIGURES.index("turns")
    none = turn_share(_tally(158, 4, 0), stuck_at, turns_at)  # 632 turns, not one stuck
    assert none["value"] == 0.0 and none["low"] == 0.0
    assert none["high"] == pytest.approx(Z95**2 / (632 + Z95**2))  # about 0.6%, not 0
    assert none["high"] == pytest.approx(0.00604, abs=1e-5)
    # All stuck turns in one fight: the per-fight interval is wider than Wilson's over turns, and wins.
    clustered = turn_share(_tally(10, 4, 4), stuck_at, turns_at)
    assert clustered["value"] == pytest.approx(0.1)
    low, high = wilson(4, 40)
    assert clustered["low"] <= low and clustered["high"] > high


# --- Rounds to finish: finished fights only, draws apart --------------------------------


def test_finishes_take_the_draws_out_of_the_last_round():
    assert finishes({1: 5, 3: 7}, 4, 3) == {1: 5, 3: 3}
    assert finishes({1: 5, 3: 4}, 4, 3) == {1: 5}
    with pytest.raises(ValueError):
        finishes({1: 5, 3: 2}, 4, 3)


def test_rounds_figure_of_finished_fights():
    figure = rounds_figure({2: 3, 4: 1})
    assert (figure["mean"], figure["median"], figure["p90"], figure["finished"]) == (2.5, 2, 4, 4)
    half = Z95 * (1.0 / 4) ** 0.5  # sample variance 1.0 over 4 fights
    assert figure["low"] == pytest.approx(2.5 - half) and figure["high"] == pytest.approx(
        2.5 + half
    )
    empty = rounds_figure({})
    assert (empty["mean"], empty["median"], empty["p90"], empty["low"], empty["finished"]) == (
        None,
        None,
        None,
        None,
        0,
    )


def test_draws_are_not_finishes_in_the_figures_or_the_chart():
    args = (
        *DUEL,
        "--runs",
        "100",
        "--seed",
        "2",
        "--max-rounds",
        "1",
        "--modes",
        "turn,round-zero",
    )
    report = ok_json(*args)
    turn, zero = report["modes"]
    assert turn["draws"]["draws"] == 90 and turn["rounds"]["finished"] == 10
    assert turn["rounds"]["histogram"] == {"1": 10} and turn["rounds"]["mean"] == 1
    # The default policy weighs reactions (`help simulate`): round-zero duels can end in round 1.
    assert zero["draws"]["draws"] == 84 and zero["rounds"]["finished"] == 16
    assert zero["rounds"]["histogram"] == {"1": 16} and zero["rounds"]["mean"] == 1
    assert rounds_figure({})["mean"] is None and rounds_figure({})["histogram"] == {}
    table = ok(*args).stdout
    assert "draw after 1 round" in table and "1 rounds" not in table
    assert "rounds to finish, turn (10 of 100 finished):" in table
    assert re.search(r"^ +1 #+ +10%$", table, re.M) and re.search(
        r"^ +draw \(stopped after 1 round\) #+ +90%$", table, re.M
    )
    assert "rounds to finish: mean" in table and "count finished fights only" in table


# --- Markdown and CSV carry every figure ------------------------------------------------


def test_markdown_has_every_figure_with_its_interval_and_the_distribution():
    text = ok(
        *DUEL, "--runs", "100", "--seed", "2", "--max-rounds", "3", "--format", "markdown"
    ).stdout
    assert text.startswith(
        "**Playtest duel: 100 runs per mode, seed 2, draw after 3 rounds, reference engine**"
    )
    rows = {line.split(" | ")[0][2:]: line for line in text.splitlines() if line.startswith("| ")}
    for label in (
        "wins: Sera",
        "draws",
        "rounds to finish: mean",
        "actions per turn",
        "reactions per round",
        "damage per round: Sera",
        "turns unable to act",
    ):
        assert (
            re.search(r"\| [\d.]+%? \([\d.]+-[\d.]+\) \|", rows[label]) or "| 0 |" in rows[label]
        ), rows[label]
    assert (
        rows["rounds to finish: mean"]
        == "| rounds to finish: mean | 2.03 (1.94-2.12) | 1.48 (1.38-1.58) | 2.01 (1.90-2.12) |"
    )  # one precision for the figure across the modes: the finest its intervals support
    assert (
        rows["draw (stopped after 3 rounds)"] == "| draw (stopped after 3 rounds) | 0% | 0% | 1% |"
    )
    assert rows["2"] == "| 2 | 77% | 46% | 66% |"


def _csv(*args: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(ok(*args, "--format", "csv").stdout)))


def test_csv_is_tidy_numbers_with_runs_seed_and_distribution():
    rows = _csv(*DUEL, "--runs", "100", "--seed", "2", "--max-rounds", "3")
    assert {(r["encounter"], r["runs"], r["seed"], r["max_rounds"]) for r in rows} == {
        ("Playtest duel", "100", "2", "3")
    }
    for row in rows:
        for key in ("value", "low", "high"):
            if row[key]:
                float(row[key])  # a number, never "93% (86-97)"
        if row["low"]:
            assert float(row["low"]) <= float(row["value"]) <= float(row["high"])
    turn = {(r["figure"], r["side"], r["bin"]): r for r in rows if r["mode"] == "turn"}
    sera = turn[("win_rate", "Sera", "")]
    assert (sera["value"], sera["low"], sera["high"]) == ("0.93", "0.86", "0.97")
    assert turn[("wins", "Sera", "")]["value"] == "93"
    assert turn[("rounds_mean", "", "")]["value"] == "2.03"
    round_mode = [r for r in rows if r["mode"] == "round"]
    finished = sum(int(r["value"]) for r in round_mode if r["figure"] == "finished_in_rounds")
    draws = next(int(r["value"]) for r in round_mode if r["figure"] == "draws")
    assert finished + draws == 100 and draws == 0
    stuck = turn[("stuck_share", "", "")]
    assert float(stuck["value"]) == 0 and float(stuck["high"]) > 0
    assert sum(
        int(r["value"]) for r in rows if r["mode"] == "turn" and r["figure"] == "turns_at_load"
    ) == int(turn[("turns", "", "")]["value"])


def test_csv_with_one_run_leaves_missing_intervals_empty():
    rows = _csv(*DUEL, "--runs", "1", "--seed", "2", "--modes", "turn")
    per_turn = next(r for r in rows if r["figure"] == "actions_per_turn")
    assert per_turn["low"] == per_turn["high"] == "" and per_turn["value"]


# --- Sweeps -------------------------------------------------------------------------------


def test_sweep_table_has_one_table_per_mode_with_a_column_per_setting():
    text = ok(
        *SKIRMISH, "--runs", "30", "--seed", "1", "--sweep", "reserve=0..2", "--modes", "turn,round"
    ).stdout
    headers = [line for line in text.splitlines() if "figure (95% interval)" in line]
    assert len(headers) == 2  # one table per mode (a pipe: every setting in one)
    assert all(
        re.search(r"figure \(95% interval\) .* reserve=0 .* reserve=1 .* reserve=2 ", h)
        for h in headers
    )
    assert [line.strip() for line in text.splitlines() if line.strip().endswith(" mode")] == [
        "turn mode",
        "round mode",
    ]
    for label in ("damage per round: party", "rounds to finish: median / p90", "wins: party"):
        assert text.count(label) == 2


def test_sweep_markdown_and_csv_have_every_figure_per_setting():
    args = (
        *SKIRMISH,
        "--runs",
        "30",
        "--seed",
        "1",
        "--sweep",
        "buffer=0..1",
        "--modes",
        "turn,round",
    )
    text = ok(*args, "--format", "markdown").stdout
    assert "turn mode:" in text and "round mode:" in text
    tables = [block.splitlines() for block in text.split("\n\n") if block.startswith("|")]
    assert len(tables) == 2  # one per mode
    for table in tables:
        assert (
            table[0] == "| figure | buffer=0 | buffer=1 |"
        )  # a column per setting: a page holds it
        labels = [row.split(" | ")[0].lstrip("| ") for row in table[2:]]
        for label in (
            "damage per round: party",
            "rounds to finish: median / p90",
            "rounds to finish (share of runs)",
            "Load at turn start",
        ):
            assert label in labels
        assert all(row.count("|") == 4 for row in table)
    rows = _csv(*args)
    assert {(r["sweep"], r["setting"], r["mode"]) for r in rows} == {
        ("buffer", "0", "turn"),
        ("buffer", "0", "round"),
        ("buffer", "1", "turn"),
        ("buffer", "1", "round"),
    }
    assert json.loads(ok(*args, "--json").stdout)["sweep"] == {"key": "buffer", "values": [0, 1]}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--reserve", "3", "--sweep", "reserve=0..1"], ("--reserve", "--sweep reserve=0..1")),
        (["--sweep", "reserve=3..1"], ("low..high", "reserve=1..3")),
        (["--sweep", "buffer=0..60"], ("at most 51 settings", "buffer=0..50")),
        (["--json", "--format", "csv"], ("--json", "--format csv")),
        (["--json", "--format", "markdown"], ("--json", "--format markdown")),
    ],
)
def test_conflicts_and_bad_ranges_exit_2_with_one_line(args, words):
    line = fails(2, here(), *DUEL, "--runs", "5", *args)
    for word in words:
        assert word in line


def test_reserve_with_a_buffer_sweep_is_fine_and_used():
    plain = ok_json(
        *DUEL, "--runs", "40", "--seed", "1", "--sweep", "buffer=0..0", "--modes", "turn"
    )
    careful = ok_json(
        *DUEL,
        "--runs",
        "40",
        "--seed",
        "1",
        "--sweep",
        "buffer=0..0",
        "--modes",
        "turn",
        "--reserve",
        "2",
    )
    per_turn = [r["rows"][0]["modes"][0]["actions_per_turn"]["value"] for r in (plain, careful)]
    assert per_turn[1] < per_turn[0]


# --- The stated policy --------------------------------------------------------------------


def test_help_states_the_defaults_and_how_a_reaction_meets_the_reserve():
    text = " ".join(ok("help", "simulate").stdout.split())
    assert (
        "`lowest-hp` by default" in text
        and "reserve 0 by default" in text
        and "`weigh` (the default)" in text
    )
    assert "The reserve does not apply to a reaction" in text
    assert (
        "exceeds the expected damage the reaction forgoes" in text
        and '`reaction = "always"`' in text
    )
    assert "count finished fights only, draws apart" in text
    example = ok("help", "simulate").stdout.split("Example\n")[1].splitlines()
    assert not example[0].startswith("d4cli") and all(
        line.startswith("  d4cli simulate ") for line in example[1:]
    )


def test_a_figure_has_one_precision_across_the_modes():
    # Each row of the table is one figure: its cells in every mode show the same decimals.
    table = ok(*SKIRMISH, "--runs", "300", "--seed", "1").stdout
    checked = 0
    for line in table.splitlines():
        cells = re.findall(r"([\d.]+)%? \(([\d.]+)-([\d.]+)\)", line)
        if len(cells) == 3:
            places = {len(n.partition(".")[2]) for cell in cells for n in cell}
            assert len(places) == 1, line
            checked += 1
    assert checked >= 10
