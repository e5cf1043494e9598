"""The d20 Action Roll core (C1-C7) with scripted dice."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from d4cli.rules.action_roll import (
    CheckRequest,
    advantage_bonus,
    apply_disadvantage,
    grade,
    parse_dc,
    roll_check,
)
from d4cli.rules.dice import ScriptedDice
from d4cli.rules.errors import InputError


def test_c3_worked_examples():
    # From the rule text: Level 2 rolls 4 and 6 -> +6; 6 and 6 -> +7. C3: 6,6,6 -> +8.
    assert advantage_bonus((4, 6)) == 6
    assert advantage_bonus((6, 6)) == 7
    assert advantage_bonus((6, 6, 6)) == 8
    assert advantage_bonus((1, 2, 3)) == 3


def test_level_two_advantage_roll():
    request = CheckRequest(attribute=3, dc=12, advantage_level=2)
    result = roll_check(request, ScriptedDice([5, 6, 6]))
    assert result.natural == 5
    assert result.advantage_dice == (6, 6)
    assert result.advantage_bonus == 7
    assert result.total == 15
    assert result.outcome == "success"


def test_fog_example_disadvantage_subtracts_d6():
    # From the rule text: heavy fog gives Disadvantage; a d6 of 3 is subtracted.
    request = CheckRequest(attribute=2, disadvantage=1)
    result = roll_check(request, ScriptedDice([10, 3]))
    assert result.disadvantage_die == 3
    assert result.total == 10 + 2 - 3


def test_c4_one_disadvantage_lowers_level_without_die():
    levels = apply_disadvantage(2, 1)
    assert (levels.effective_level, levels.subtract_die, levels.impossible) == (1, False, False)
    result = roll_check(CheckRequest(advantage_level=1, disadvantage=1), ScriptedDice([9]))
    assert result.advantage_dice == () and result.disadvantage_die is None
    assert result.total == 9


def test_c4_two_disadvantages_impossible_whatever_the_advantage():
    dice = ScriptedDice([])
    result = roll_check(CheckRequest(advantage_level=5, disadvantage=2, dc=6), dice)
    assert result.impossible and result.outcome == "impossible"
    assert result.natural is None and result.total is None
    assert result.success is False
    assert dice.used == 0


def test_c5_natural_twenty_adds_d6_but_is_not_automatic():
    result = roll_check(CheckRequest(attribute=-10, dc=15), ScriptedDice([20, 4]))
    assert result.critical == "success" and result.crit_die == 4
    assert result.total == 14
    assert result.outcome == "failure"


def test_c6_natural_one_fails_and_is_never_softened():
    result = roll_check(CheckRequest(attribute=30, dc=12, rule_of_three=True), ScriptedDice([1]))
    assert result.total == 31
    assert result.critical == "failure"
    assert result.outcome == "failure"
    assert result.success is False


@pytest.mark.parametrize(
    ("total", "outcome"),
    [
        (9, "failure"),  # missed by 3: plain
        (10, "failure-but"),  # missed by 2
        (11, "failure-but"),  # missed by 1
        (12, "success"),  # beat by 0
        (15, "success"),  # beat by 3: plain
        (16, "success-and"),  # beat by 4
    ],
)
def test_c7_rule_of_three_bands(total, outcome):
    assert grade(10, total, 12, True) == outcome
    assert grade(10, total, 12, False) == ("success" if total >= 12 else "failure")


def test_no_dc_no_outcome():
    result = roll_check(CheckRequest(), ScriptedDice([7]))
    assert result.outcome is None and result.success is None and result.total == 7


def test_c2_tiers_and_numbers():
    assert [
        parse_dc(t) for t in ("easy", "medium", "hard", "challenging", "nearly-impossible")
    ] == [
        6,
        12,
        18,
        24,
        30,
    ]
    assert parse_dc("Hard") == 18
    assert parse_dc("-3") == -3
    for bad in ("legendary", "3.0", "", " 12", "100001"):
        with pytest.raises(InputError):
            parse_dc(bad)


def test_c3_level_out_of_range():
    with pytest.raises(InputError, match="^advantage_level: 6: "):
        apply_disadvantage(6, 0)


@given(
    level=st.integers(0, 5),
    dis=st.integers(0, 3),
    mods=st.tuples(st.integers(-20, 20), st.integers(-20, 20), st.integers(-20, 20)),
    seed=st.integers(0, 2**32),
)
def test_check_totals_within_bounds(level, dis, mods, seed):
    import random

    request = CheckRequest(*mods, advantage_level=level, disadvantage=dis, dc=12)
    result = roll_check(request, random.Random(seed))
    if dis >= 2:
        assert result.impossible and result.total is None
        return
    effective = result.levels.effective_level
    low = 1 + sum(mods) - (6 if result.disadvantage_die else 0)
    high = 20 + sum(mods) + (6 + effective - 1 if effective else 0) + 6
    assert low <= result.total <= high
    assert len(result.advantage_dice) == effective
