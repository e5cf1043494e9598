"""Luck: a roll's mid-rank percentile in its exact distribution, checked against brute force (R5-R7, C1-C5)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from d4cli.api.recap import roll_luck
from d4cli.journal.entry import read_entry
from d4cli.odds.luck import (
    CreatureLuck,
    RollLuck,
    check_percentile,
    luck_by_creature,
    mid_rank,
    pool_percentile,
    verdict,
)
from d4cli.odds.roll_odds import pool_distribution
from d4cli.rules.dice import ExtraDice


def brute_mid_rank(totals: list[int], total: int) -> Fraction:
    """Mid-rank of *total* among every equally likely outcome's total."""
    below = sum(1 for t in totals if t < total)
    equal = sum(1 for t in totals if t == total)
    assert equal, total
    return Fraction(2 * below + equal, 2 * len(totals))


def pool_totals(pool: int, extra: list[tuple[int, int, int]]) -> list[int]:
    faces = [range(1, 5)] * pool + [range(1, x + 1) for n, x, _ in extra for _ in range(n)]
    shift = sum(m for _, _, m in extra)
    return [sum(dice) + shift for dice in itertools.product(*faces)]


@pytest.mark.parametrize(
    ("pool", "extra"),
    [(1, []), (2, []), (3, [(1, 6, 0)]), (4, [(1, 4, 0)]), (2, [(2, 6, 1)]), (1, [(1, 8, -2)])],
)
def test_every_pool_total_has_its_brute_force_mid_rank(pool, extra):
    totals = pool_totals(pool, extra)
    dice = tuple(ExtraDice(n, x, m) for n, x, m in extra)
    for total in sorted(set(totals)):
        assert pool_percentile(pool, dice, total) == brute_mid_rank(totals, total)


def test_a_single_d4_sits_at_the_middle_of_each_face():
    assert [pool_percentile(1, (), t) for t in (1, 2, 3, 4)] == [
        Fraction(1, 8),
        Fraction(3, 8),
        Fraction(5, 8),
        Fraction(7, 8),
    ]


def _bonus(dice: tuple[int, ...]) -> int:
    """C3 by hand: the highest d6, +1 for each 6 beyond the first."""
    if not dice:
        return 0
    sixes = dice.count(6)
    return max(dice) + max(0, sixes - 1)


def check_totals(modifiers: int, level: int, disadvantage: int) -> list[int]:
    """Every equally likely Result of an Action Roll (C1-C5), built by hand with a common denominator."""
    if disadvantage == 1 and level >= 1:
        level, minus = level - 1, False
    else:
        minus = disadvantage == 1
    totals = []
    for natural in range(1, 21):
        for dice in itertools.product(range(1, 7), repeat=level):
            for down in range(1, 7) if minus else [0]:
                for crit in range(1, 7) if natural == 20 else [0] * 6:  # six ways either way
                    totals.append(natural + modifiers + _bonus(dice) - down + crit)
    return totals


@pytest.mark.parametrize(
    ("modifiers", "level", "disadvantage"),
    [(0, 0, 0), (3, 0, 0), (2, 1, 0), (1, 2, 0), (0, 0, 1), (4, 2, 1)],
)
def test_every_check_total_has_its_brute_force_mid_rank(modifiers, level, disadvantage):
    totals = check_totals(modifiers, level, disadvantage)
    for total in sorted(set(totals)):
        assert check_percentile(modifiers, level, disadvantage, total) == brute_mid_rank(
            totals, total
        )


@given(
    st.integers(1, 6), st.sampled_from([(), (ExtraDice(1, 6),), (ExtraDice(1, 8, 2),)]), st.data()
)
def test_percentiles_of_all_totals_average_to_one_half(pool, extra, data):
    # Weighted by their chances, mid-ranks average exactly 1/2: fair dice are "even".
    distribution = pool_distribution(pool, extra)
    mean = sum(
        Fraction(w, distribution.denominator) * mid_rank(distribution, distribution.low + i)
        for i, w in enumerate(distribution.weights)
        if w
    )
    assert mean == Fraction(1, 2)
    total = data.draw(st.integers(distribution.low, distribution.high))
    assert 0 < pool_percentile(pool, extra, total) < 1


def test_a_total_that_cannot_be_rolled_is_refused():
    with pytest.raises(ValueError):
        pool_percentile(2, (), 9)


def test_verdicts_need_two_spreads():
    assert verdict(0.71, 9) == "favoured"  # 0.21 > 2 * 0.2887 / 3
    assert verdict(0.29, 9) == "against"
    assert verdict(0.60, 9) == "even"
    assert verdict(0.99, 1) == "even"  # one roll never calls a verdict: 0.49 < 2 * 0.2887
    assert verdict(0.9, 4) == "favoured" and verdict(0.75, 4) == "even"
    assert verdict(0.5, 0) == "even"


def test_luck_by_creature_means_in_order_of_first_roll():
    rolls = [
        RollLuck(1, "B", "act", 1, 5, Fraction(1, 4)),
        RollLuck(2, "A", "act", 1, 5, Fraction(3, 4)),
        RollLuck(3, "B", "check", 1, 5, Fraction(1, 2)),
    ]
    assert luck_by_creature(rolls) == [
        CreatureLuck("B", 2, 0.375, "even"),
        CreatureLuck("A", 1, 0.75, "even"),
    ]


def luck_of(entry: dict) -> RollLuck | None:
    return roll_luck(read_entry(entry))


def test_the_luck_of_a_logged_act_and_check_read_typed():
    act = {
        "seq": 3,
        "kind": "act",
        "actor": "Aria",
        "round": 1,
        "allowed": True,
        "pool_size": 4,
        "extra": [{"notation": "1d4", "dice": [1], "modifier": 0}],
        "total": 12,
    }
    found = luck_of(act)
    assert found == RollLuck(
        3, "Aria", "act", 1, 12, brute_mid_rank(pool_totals(4, [(1, 4, 0)]), 12)
    )
    check = {
        "seq": 7,
        "kind": "check",
        "actor": "Aria",
        "round": 1,
        "attribute": 3,
        "proficiency": 0,
        "specialization": 0,
        "advantage_level": 0,
        "disadvantage": 1,
        "impossible": False,
        "total": 6,
    }
    assert luck_of(check).percentile == brute_mid_rank(check_totals(3, 0, 1), 6)  # type: ignore[union-attr]
    assert luck_of({**act, "allowed": False, "total": None}) is None
    assert luck_of({**check, "impossible": True, "total": None}) is None
    assert luck_of({"kind": "turn-start", "actor": "Aria"}) is None
    assert luck_of({**act, "total": 99}) is None  # does not fit its dice: a hand-edited journal
