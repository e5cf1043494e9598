"""``d4cli roll dice EXPR``: plain dice, die by die, with exact odds (L2, L3, L4)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from _cli import ok, ok_json, run
from hypothesis import given
from hypothesis import strategies as st

from d4cli.rules.dice import ScriptedDice, parse_expression, roll_expression


def test_the_terms_roll_in_order_with_the_numbers_on_the_last():
    expression = parse_expression("2d6 + 1d4 + 3")
    assert [t.notation for t in expression.terms] == ["2d6", "1d4+3"]
    roll = roll_expression(expression, ScriptedDice([6, 2, 4]))
    assert roll.total == 6 + 2 + 4 + 3
    assert [r.dice for r in roll.rolls] == [(6, 2), (4,)]


def test_json_has_the_contract_keys():
    obj = ok_json("roll", "dice", "2d6+1", "--seed", "7")
    assert obj["kind"] == "dice" and obj["expression"] == "2d6+1"
    [term] = obj["terms"]
    assert term["notation"] == "2d6+1" and term["modifier"] == 1 and len(term["dice"]) == 2
    assert all(1 <= die <= 6 for die in term["dice"])
    assert obj["total"] == sum(term["dice"]) + 1
    assert "odds" not in obj
    assert ok_json("roll", "dice", "2d6+1", "--seed", "7") == obj


def test_odds_are_exact():
    obj = ok_json("roll", "dice", "2d6+1", "--odds", "--seed", "1")
    odds = obj["odds"]
    assert odds["mean"] == 8.0 and odds["exact"] is True
    assert set(odds["distribution"]) == {str(t) for t in range(3, 14)}
    assert odds["distribution"]["8"] == pytest.approx(6 / 36, abs=1e-12)
    assert odds["distribution"]["3"] == pytest.approx(1 / 36, abs=1e-12)
    three = ok_json("roll", "dice", "1d4+1d6+2", "--odds")["odds"]["distribution"]
    assert min(map(int, three)) == 4 and three["4"] == pytest.approx(
        float(Fraction(1, 24)), abs=1e-12
    )


def test_the_table_explains_each_term():
    out = ok("roll", "dice", "2d6+1d4+3", "--seed", "3").stdout
    obj = ok_json("roll", "dice", "2d6+1d4+3", "--seed", "3")
    six, four = obj["terms"]
    assert f"{six['dice'][0]} + {six['dice'][1]} = {sum(six['dice'])}" in out
    assert f"1d4+3 │ {four['dice'][0]} +3 = {four['dice'][0] + 3}" in out
    assert f"= {obj['total']}" in out
    odds = ok("roll", "dice", "2d6+1", "--odds", "--seed", "3").stdout
    assert "Odds of 2d6+1 (exact): totals 3..13, mean 8" in odds


def test_times_and_quiet():
    lines = ok("roll", "dice", "1d6", "--times", "5", "--seed", "2", "--json").stdout.splitlines()
    assert len(lines) == 5 and all(json.loads(line)["kind"] == "dice" for line in lines)
    quiet = ok("roll", "dice", "3d1+2", "--quiet").stdout
    assert quiet == "5\n"
    summary = ok("roll", "dice", "1d6", "--times", "30", "--seed", "2").stdout
    assert "30 rolls" in summary and "mean total" in summary


@pytest.mark.parametrize(
    ("expr", "says"),
    [
        ("3", "has no dice"),
        ("0d6", "must roll at least one die"),
        ("1d0", "dice must have 1 to 1000 sides"),
        ("d6", "write 1d6"),
        ("2d6-1d4", "dice can only be added"),
        ("20000d4", "at most 10,000 dice (L2)"),
        ("5000d4+5001d6", "at most 10,000 dice (L2)"),
        ("2d6+", "must be dice like"),
        ("2d6x", "must be dice like"),
        ("", "must be dice like"),
    ],
)
def test_bad_expressions_name_the_value(expr, says):
    result = run("roll", "dice", expr)
    assert result.exit_code == 2 and result.stdout == ""
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"d4cli: error: EXPR: {expr!r}: ") and says in line


def test_odds_beyond_l4_are_refused():
    result = run("roll", "dice", "200d1000", "--odds")
    assert result.exit_code == 2 and "(L4)" in result.stderr and result.stdout == ""


def test_roll_with_counted_dice_notation_rolls_it_as_dice():
    # `roll 1d20+5` is `roll dice 1d20+5`: the same roll, the same output.
    for expr in ("1d20+5", "3d4", "2D6+1d4-2"):
        implied = run("roll", expr, "--seed", "7", "--json")
        assert implied.exit_code == 0, str(implied)
        assert implied.stdout == run("roll", "dice", expr, "--seed", "7", "--json").stdout
        assert implied.json()["expression"] == expr
    human = run("roll", "1d20+5", "--seed", "3")
    assert human.exit_code == 0
    assert human.stdout == run("roll", "dice", "1d20+5", "--seed", "3").stdout
    # Bad dice after the implied `dice`: its own error, naming EXPR.
    bad = run("roll", "0d6")
    assert bad.exit_code == 2 and bad.stdout == ""
    assert bad.stderr.strip().splitlines()[-1].startswith("d4cli: error: EXPR: '0d6'")


def test_roll_with_dice_notation_without_a_count_hints_at_dice_and_pool():
    result = run("roll", "d4")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines()[-1] == (
        "d4cli: error: No such command 'd4'; did you mean 'd4cli roll dice 1d4' or 'd4cli roll pool 1'?"
    )
    assert "did you mean 'd4cli roll dice 1d6+1'?" in run("roll", "d6+1").stderr
    assert "roll pool" not in run("roll", "d6+1").stderr
    assert "Did you mean 'pool'?" in run("roll", "pol").stderr


@given(
    st.lists(st.tuples(st.integers(1, 20), st.integers(1, 30)), min_size=1, max_size=4),
    st.integers(-50, 50),
)
def test_any_written_sum_rolls_within_its_bounds(terms, number):
    import random

    text = "+".join(f"{n}d{x}" for n, x in terms) + (f"{number:+d}" if number else "")
    roll = roll_expression(parse_expression(text), random.Random(0))
    low = sum(n for n, _ in terms) + number
    high = sum(n * x for n, x in terms) + number
    assert low <= roll.total <= high
