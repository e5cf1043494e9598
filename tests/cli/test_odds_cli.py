"""`--odds` on the rolls and `d4cli odds` through CliRunner: JSON, output shapes, exit codes."""

from __future__ import annotations

import csv
import io
import json
import math
import re
from fractions import Fraction

import pytest
from _cli import ok_json, run

from d4cli.cli.commands.odds import parse_range
from d4cli.rules.errors import InputError


def assert_input_error(result, option: str) -> None:
    """Exit 2, nothing on stdout, one plain error line on stderr naming *option*."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("d4cli: error:")
    assert option in last
    assert "Traceback" not in result.stderr


# ---------------------------------------------------------------------------
# --odds on roll pool / roll check


def test_roll_pool_odds_json_pinned():
    obj = ok_json("roll", "pool", "5", "--dc", "12", "--odds", "--seed", "1")
    odds = obj["odds"]
    assert odds["p_success"] == 0.6513671875
    assert odds["mean"] == 12.5
    assert list(odds["distribution"]) == [str(t) for t in range(5, 21)]
    assert odds["distribution"]["12"] == 155 / 1024
    assert math.fsum(odds["distribution"].values()) == 1.0
    assert "expected_damage" not in odds


def test_roll_pool_odds_json_against_evasion():
    obj = ok_json("roll", "pool", "6", "--load", "2", "--extra", "1d4", "--evasion", "11", "--odds")
    odds = obj["odds"]
    assert odds["expected_damage"] == 1963 / 1024
    assert odds["p_any_damage"] == 0.6513671875
    assert "p_success" not in odds


def test_roll_pool_odds_json_with_extra_modifier():
    obj = ok_json("roll", "pool", "1", "--extra", "1d6+2", "--dc", "8", "--odds")
    # 1d4 + 1d6 + 2 >= 8  <=>  d4 + d6 >= 6: 14 of 24.
    assert obj["odds"]["p_success"] == 14 / 24
    assert list(obj["odds"]["distribution"]) == [str(t) for t in range(4, 13)]


def test_roll_check_odds_json_pinned():
    obj = ok_json("roll", "check", "--attribute", "3", "--advantage", "2", "--dc", "12", "--odds")
    odds = obj["odds"]
    assert odds["p_success"] == 0.825  # 33/40, by brute force in test_odds
    assert odds["p_critical_success"] == 0.05 and odds["p_critical_failure"] == 0.05
    assert "p_success_and" not in odds and "p_failure_but" not in odds
    assert math.fsum(odds["distribution"].values()) == pytest.approx(1, abs=1e-12)


def test_roll_check_odds_json_rule_of_three_and_no_dc():
    obj = ok_json(
        "roll",
        "check",
        "--attribute",
        "3",
        "--advantage",
        "2",
        "--dc",
        "medium",
        "--rule-of-three",
        "--odds",
    )
    assert obj["odds"]["p_success_and"] == 0.625
    assert obj["odds"]["p_failure_but"] == 1 / 12
    no_dc = ok_json("roll", "check", "--odds")["odds"]
    assert "p_success" not in no_dc and no_dc["p_critical_success"] == 0.05
    assert no_dc["mean"] == pytest.approx(10.5 + 0.05 * 3.5)


def test_roll_pool_odds_human_output():
    result = run("roll", "pool", "5", "--dc", "12", "--odds", "--seed", "1")
    assert result.exit_code == 0
    out = result.stdout
    assert "65.14%" in out and "667/1024" in out
    assert "\x1b" not in out  # NO_COLOR and a pipe: no escape codes
    bars = [line for line in out.splitlines() if re.fullmatch(r"\s*\d+\s+[\d.<>]+%\s+[#-]+", line)]
    assert len(bars) == 16  # one per total 5..20
    # Totals 12 and up are drawn with '#', those below with '-'.
    for line in bars:
        total = int(line.split()[0])
        assert line.split()[-1][0] == ("#" if total >= 12 else "-")


def test_roll_pool_odds_chart_groups_wide_rolls_at_the_dc(monkeypatch):
    monkeypatch.delenv("NO_COLOR")  # piped output has no escape codes even with colour on
    result = run(
        "roll", "pool", "1000", "--extra", "9000d4", "--dc", "25010", "--odds", "--seed", "1"
    )
    assert result.exit_code == 0
    assert "\x1b" not in result.stdout
    bars = [
        line.split()
        for line in result.stdout.splitlines()
        if re.fullmatch(r"\s*\d+-\d+\s+[\d.<>]+%\s+[#-]+", line)
    ]
    assert 20 <= len(bars) <= 42
    first_hit = next(row for row in bars if row[-1][0] == "#")
    assert first_hit[0].startswith("25010-")  # a group starts at the DC
    assert all(row[-1][0] == "-" for row in bars[: bars.index(first_hit)])
    assert "fixed-point" in result.stdout


def test_roll_pool_odds_human_damage():
    result = run("roll", "pool", "4", "--extra", "1d4", "--evasion", "11", "--odds", "--seed", "3")
    assert result.exit_code == 0
    assert "Expected damage against Evasion 11: 1.917" in result.stdout
    assert "chance of any damage" in result.stdout


def test_roll_check_odds_human_output():
    result = run(
        "roll",
        "check",
        "--attribute",
        "3",
        "--advantage",
        "2",
        "--dc",
        "12",
        "--rule-of-three",
        "--odds",
        "--seed",
        "5",
    )
    assert result.exit_code == 0
    assert "82.50% = 33/40" in result.stdout
    assert "62.50% = 5/8" in result.stdout


def test_roll_pool_odds_too_many_totals_is_l4():
    result = run("roll", "pool", "1", "--extra", "200d1000", "--odds", "--json")
    assert_input_error(result, "--odds")
    assert "L4" in result.stderr


def test_largest_roll_odds(long_integers):
    # the exact fractions of 10,000 d4 have about 6,000 digits
    obj = ok_json("roll", "pool", "1000", "--extra", "9000d4", "--dc", "25000", "--odds")
    odds = obj["odds"]
    # Only totals whose probability is not 0.0 as a float; the tails left out hold the rest, exactly.
    listed = sorted(int(total) for total in odds["distribution"])
    assert listed == list(range(listed[0], listed[-1] + 1)) and 2_000 < len(listed) < 30_001
    assert all(p > 0 for p in odds["distribution"].values())
    omitted = Fraction(odds["distribution_omitted"])
    assert 0 < omitted < Fraction(1, 10**25) and listed[0] + listed[-1] == 2 * 25_000
    assert len(json.dumps(obj)) < 200_000
    assert Fraction(odds["p_success_exact"]) == pytest.approx(odds["p_success"], abs=1e-16)
    assert odds["mean"] == 25_000
    assert odds["p_success"] == pytest.approx(0.5 + odds["distribution"]["25000"] / 2, abs=1e-15)


# ---------------------------------------------------------------------------
# d4cli odds


def test_odds_pool_json_and_format_json_agree():
    by_flag = ok_json("odds", "pool", "--aspect", "3..5", "--dc", "12")
    result = run("odds", "pool", "--aspect", "3..5", "--dc", "12", "--format", "json")
    assert json.loads(result.stdout) == by_flag
    assert by_flag["columns"] == [12]
    assert [row["aspect"] for row in by_flag["rows"]] == [3, 4, 5]
    assert by_flag["rows"][2]["values"] == [0.6513671875]


def test_odds_pool_markdown_is_a_pipe_table():
    result = run("odds", "pool", "--aspect", "1..8", "--dc", "4..20/2", "--format", "markdown")
    assert result.exit_code == 0
    head, settings, table = result.stdout.split("\n\n")
    assert head == "**Chance of success of a D4 pool: total >= DC (R5-R7)**"
    assert settings == "Settings: Load 0, Net Advantage 0."
    lines = table.splitlines()
    assert len(lines) == 2 + 8
    widths = {line.count("|") for line in lines}
    assert widths == {1 + 1 + 9}  # label + 9 DCs (4, 6, ..., 20)
    assert all(line.startswith("|") and line.endswith("|") for line in lines)
    assert re.fullmatch(r"\|:---(\|---:)+\|", lines[1])
    assert lines[0].startswith("| Aspect (pool) | DC 4 | DC 6 |")
    assert lines[6].startswith("| 5 (5d4) |")
    assert "65.1%" in lines[6]


def test_odds_pool_by_pool_size_with_load_and_extra_csv():
    result = run(
        "odds", "pool", "--pool", "1..3", "--dc", "5,9", "--extra", "1d8", "--format", "csv"
    )
    assert result.exit_code == 0
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == [
        "label",
        "pool_size",
        "dc=5",
        "dc=9",
        "dc=5 exact",
        "dc=9 exact",
        "title",
        "extra",
    ]
    assert {row[6] for row in rows[1:]} == {"Chance of success of a D4 pool: total >= DC (R5-R7)"}
    assert {row[7] for row in rows[1:]} == {"1d8"}
    assert [row[1] for row in rows[1:]] == ["1", "2", "3"]
    assert rows[1][0] == "1d4+1d8"
    # 1d4 + 1d8 >= 9: 10 of 32, exactly 5/16.
    assert float(rows[1][3]) == 10 / 32
    assert rows[1][5] == "5/16"


def test_odds_pool_load_and_net_advantage_size_the_rows():
    obj = ok_json(
        "odds", "pool", "--aspect", "4", "--load", "2", "--net-advantage", "-1", "--dc", "3"
    )
    assert obj["rows"][0]["pool_size"] == 1  # max(1, 4 - 2 - 1)
    assert obj["settings"] == {"load": 2, "net_advantage": -1, "extra": []}


def test_odds_check_table_and_json():
    result = run("odds", "check", "--advantage", "0..2", "--disadvantage", "0..1", "--dc", "medium")
    assert result.exit_code == 0
    assert "Adv 2" in result.stdout and "Dis 1 (-1d6)" in result.stdout
    obj = ok_json(
        "odds", "check", "--advantage", "2", "--disadvantage", "0", "--dc", "12", "--modifier", "3"
    )
    assert obj["rows"][0]["values"] == [0.825]


def test_odds_damage_and_compare():
    obj = ok_json("odds", "damage", "--pool", "5", "--evasion", "0,11")
    assert obj["quantity"] == "expected_damage"
    assert obj["rows"][0]["values"] == [12.5, 1963 / 1024]
    compare = ok_json(
        "odds", "compare", "--aspect", "5", "--modifier", "3", "--advantage", "2", "--dc", "12"
    )
    assert [row["values"] for row in compare["rows"]] == [[0.6513671875], [0.825]]
    table = run("odds", "compare", "--dc", "4..20/4")
    assert table.exit_code == 0 and "d20+3" in table.stdout and "Aspect 5 (5d4)" in table.stdout


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("odds", "pool", "--aspect", "1..100000"), "--aspect"),
        (("odds", "pool", "--aspect", "5..1"), "--aspect"),
        (("odds", "pool", "--aspect", "1..3", "--pool", "1..3"), "--aspect/--pool"),
        (("odds", "pool", "--pool", "1..200", "--dc", "-100..100"), "--dc"),  # 40,200 cells
        (("odds", "pool", "--dc", "4..20/0"), "--dc"),
        (("odds", "pool", "--dc", "abc"), "--dc"),
        (("odds", "pool", "--dc", ""), "--dc"),
        (("odds", "pool", "--dc", "3.0"), "--dc"),
        (("odds", "pool", "--format", "xml"), "--format"),
        (("odds", "pool", "--pool", "0..3"), "--pool"),
        (("odds", "pool", "--pool", "9999", "--extra", "2d4"), "--pool"),  # L2
        (("odds", "pool", "--pool", "1", "--extra", "200d1000"), "--pool"),  # L4
        (("odds", "pool", "--extra", "0d8"), "--extra"),
        (("odds", "pool", "--load", "x"), "--load"),
        (("odds", "check", "--advantage", "0..6"), "--advantage"),
        (("odds", "check", "--modifier", "1.5"), "--modifier"),
        (("odds", "damage", "--evasion", "-1..3"), "--evasion"),
        (("odds", "compare", "--modifier", "0..20000"), "--modifier"),
        (("odds", "check", "--format", "csv", "--json"), "--json"),
    ],
)
def test_odds_bad_input_is_exit_2(args, option):
    assert_input_error(run(*args), option)


def test_odds_grid_limit_is_10000_cells():
    ok = run("odds", "pool", "--pool", "1..10", "--dc", "1..1000", "--format", "csv")
    assert ok.exit_code == 0
    assert len(ok.stdout.splitlines()) == 11
    too_big = run("odds", "pool", "--pool", "1..10", "--dc", "1..1001", "--format", "csv")
    assert_input_error(too_big, "--dc")
    assert "10,010 cells" in too_big.stderr


def test_parse_range_forms():
    assert parse_range("1..4", "--x", (0, 10)) == (1, 2, 3, 4)
    assert parse_range("4..12/4", "--x", (0, 20)) == (4, 8, 12)
    assert parse_range("1,3,2..4", "--x", (0, 10)) == (1, 3, 2, 4)
    assert parse_range("-2..1", "--x", (-5, 5)) == (-2, -1, 0, 1)
    assert parse_range("easy..medium/3,hard", "--dc", (-100, 100), tiers=True) == (6, 9, 12, 18)
    with pytest.raises(InputError) as info:
        parse_range("1..20001", "--x", (0, 100_000))
    assert info.value.field == "--x"
    with pytest.raises(InputError):
        parse_range("4/2", "--x", (0, 10))
    with pytest.raises(InputError):
        parse_range("1..", "--x", (0, 10))


@pytest.mark.parametrize("times", ["2", "100000", "1000000"])
@pytest.mark.parametrize(
    "argv",
    [["roll", "check", "--advantage", "5", "--odds"], ["roll", "pool", "3", "--odds", "--dc", "7"]],
)
def test_odds_with_times_is_refused_before_any_roll(argv, times):
    # One distribution for every roll: a million lines of it were 142 MB of repeats (docs/cli.md).
    for json_flag in (["--json"], []):
        result = run(*argv, "--times", times, *json_flag)
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.startswith(f"d4cli: error: --times: '{times}': --odds"), result.stderr


def test_odds_with_times_1_is_one_roll_with_its_odds():
    result = run("roll", "pool", "3", "--odds", "--times", "1", "--json")
    assert result.exit_code == 0
    assert "distribution" in json.loads(result.stdout)["odds"]
