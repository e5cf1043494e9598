"""Exact odds (d4cli.odds.roll_odds): brute force over every die, pinned values, both paths, properties."""

from __future__ import annotations

import math
import time
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from d4cli.odds.dice_sums import DiceSum, dice_sum, kronecker, sum_distribution, uniform_counts
from d4cli.odds.grids import (
    EXPECTED_DAMAGE,
    P_SUCCESS,
    check_grid,
    compare_grid,
    damage_grid,
    pool_grid,
)
from d4cli.odds.roll_odds import (
    CheckOdds,
    PoolOdds,
    check_odds,
    expected_pool_damage,
    p_check_success,
    p_pool_success,
    pool_distribution,
    pool_odds,
)
from d4cli.output.gridtext import row_label
from d4cli.output.serialize.grids_json import grid_json
from d4cli.output.serialize.odds_json import check_odds_json, odds_json
from d4cli.rules.action_roll import CheckRequest, advantage_bonus, apply_disadvantage, roll_check
from d4cli.rules.dice import ExtraDice, ScriptedDice
from d4cli.rules.errors import InputError, RefusedError
from d4cli.rules.pool import PoolRequest, plan_pool, roll_pool

# ---------------------------------------------------------------------------
# Brute force: every combination of dice through the real rollers.


def brute_pool(request: PoolRequest) -> Counter[int]:
    """Totals of every equally likely roll of *request*, made by `roll_pool` itself."""
    plan = plan_pool(request)
    assert plan.gate.allowed
    faces = [4] * plan.size.size + [item.sides for item in request.extra for _ in range(item.count)]
    totals: Counter[int] = Counter()
    for dice in product(*(range(1, x + 1) for x in faces)):
        totals[roll_pool(plan, ScriptedDice(dice)).total] += 1
    return totals


def brute_check(request: CheckRequest) -> tuple[Counter[int], Counter[str | None], int]:
    """Totals and outcomes of every equally likely Action Roll, made by `roll_check` itself.

    The critical d6 is enumerated for every natural and only consumed on a 20,
    so every combination has the same weight.
    """
    levels = apply_disadvantage(request.advantage_level, request.disadvantage)
    d6_count = levels.effective_level + (1 if levels.subtract_die else 0)
    totals: Counter[int] = Counter()
    outcomes: Counter[str | None] = Counter()
    combos = 0
    for natural in range(1, 21):
        for d6s in product(range(1, 7), repeat=d6_count):
            for crit in range(1, 7):
                script = (natural, *d6s) + ((crit,) if natural == 20 else ())
                dice = ScriptedDice(script)
                result = roll_check(request, dice)
                assert dice.left == 0
                totals[result.total] += 1
                outcomes[result.outcome] += 1
                combos += 1
    return totals, outcomes, combos


POOL_CASES = [
    PoolRequest(5, dc=12),
    PoolRequest(1),
    PoolRequest(-3, dc=2, gm=True),  # R5: at least 1d4 (R9: the GM skips the gate)
    PoolRequest(4, load=2, advantage=("torch",), dc=7),
    PoolRequest(3, load=-1, disadvantage=("dark",), evasion=4),  # negative Load never enlarges
    PoolRequest(2, extra=(ExtraDice(1, 8),), dc=8),
    PoolRequest(3, extra=(ExtraDice(1, 4),), evasion=6),  # a dagger joins the d4 group
    PoolRequest(2, extra=(ExtraDice(1, 6, 2), ExtraDice(1, 4, -1)), evasion=5),
    PoolRequest(1, extra=(ExtraDice(2, 6, -3),), dc=4),
    PoolRequest(2, extra=(ExtraDice(1, 1), ExtraDice(2, 3)), dc=6),  # a d1 is the constant 1
    PoolRequest(1, extra=(ExtraDice(1, 10, 5), ExtraDice(1, 2)), evasion=9),
    PoolRequest(1, extra=(ExtraDice(1, 20),), dc=15),
]


@pytest.mark.parametrize("request_", POOL_CASES, ids=repr)
def test_pool_odds_match_brute_force(request_):
    totals = brute_pool(request_)
    outcomes = sum(totals.values())
    odds = pool_odds(plan_pool(request_))
    dist = odds.distribution
    assert dist.exact
    assert (dist.low, dist.high) == (min(totals), max(totals))
    for total in range(dist.low - 2, dist.high + 3):
        exact = Fraction(totals[total], outcomes)
        assert dist.fraction(total) == exact
        assert dist.probability(total) == float(exact)
        tail = Fraction(sum(n for t, n in totals.items() if t >= total), outcomes)
        assert dist.fraction_at_least(total) == tail
        assert dist.p_at_least(total) == float(tail)
        excess = Fraction(sum(n * max(0, t - total) for t, n in totals.items()), outcomes)
        assert dist.fraction_expected_excess(total) == excess
        assert dist.expected_excess(total) == pytest.approx(float(excess), abs=1e-15)
    assert dist.mean_exact == Fraction(sum(t * n for t, n in totals.items()), outcomes)
    assert sum(dist.weights) == dist.denominator
    if request_.dc is not None:
        assert odds.success_fraction == Fraction(
            sum(n for t, n in totals.items() if t >= request_.dc), outcomes
        )
    if request_.evasion is not None:
        assert odds.expected_damage_fraction == Fraction(
            sum(n * max(0, t - request_.evasion) for t, n in totals.items()), outcomes
        )
        assert odds.p_any_damage == float(
            Fraction(sum(n for t, n in totals.items() if t > request_.evasion), outcomes)
        )


def test_pinned_five_d4_against_dc_12():
    odds = pool_odds(plan_pool(PoolRequest(5, dc=12)))
    assert odds.success_fraction == Fraction(667, 1024)
    assert odds.p_success == 0.6513671875
    assert p_pool_success(5, 12) == 0.6513671875
    assert odds.mean == 12.5


def test_pinned_dagger_against_evasion_11():
    # R6/R7 example: Aspect 6, Load 2 -> 4d4, plus a dagger's 1d4, against Evasion 11.
    odds = pool_odds(plan_pool(PoolRequest(6, load=2, extra=(ExtraDice(1, 4),), evasion=11)))
    assert odds.pool_size == 4
    assert odds.expected_damage_fraction == Fraction(1963, 1024)
    assert odds.p_any_damage == 0.6513671875
    assert expected_pool_damage(4, 11, (ExtraDice(1, 4),)) == 1963 / 1024


def test_extra_dice_order_does_not_matter():
    a = (ExtraDice(1, 8, 2), ExtraDice(2, 6))
    assert pool_distribution(3, a) == pool_distribution(3, a[::-1])
    assert dice_sum(3, a) == DiceSum(((4, 3), (6, 2), (8, 1)), 3 + 2 + 1 + 2)


# ---------------------------------------------------------------------------
# The counting engine


@pytest.mark.parametrize("faces", range(1, 8))
@pytest.mark.parametrize("count", range(6))
def test_uniform_counts_match_enumeration(count, faces):
    expected = Counter(sum(dice) for dice in product(range(faces), repeat=count))
    counts = uniform_counts(count, faces)
    assert counts == tuple(expected[s] for s in range(count * (faces - 1) + 1))
    assert sum(counts) == faces**count


def test_uniform_counts_large_faces_against_direct_convolution():
    # 3d1000 and 5d37 against repeated direct convolution.
    for count, faces in ((3, 1000), (5, 37)):
        direct = [1]
        for _ in range(count):
            direct = [
                sum(direct[s - k] for k in range(faces) if 0 <= s - k < len(direct))
                for s in range(len(direct) + faces - 1)
            ]
        assert uniform_counts(count, faces) == tuple(direct)


@given(
    st.lists(st.integers(0, 2**80), min_size=1, max_size=30),
    st.lists(st.integers(0, 2**80), min_size=1, max_size=30),
)
def test_kronecker_is_the_convolution(a, b):
    naive = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            naive[i + j] += x * y
    assert kronecker(a, b, max(naive + a + b).bit_length() + 1) == naive


FIXED_CASES = [
    dice_sum(300, (ExtraDice(2, 6), ExtraDice(1, 8, -3))),
    dice_sum(40, (ExtraDice(50, 10), ExtraDice(20, 6), ExtraDice(3, 100))),
    dice_sum(1000),
    dice_sum(1, (ExtraDice(1, 1000), ExtraDice(1, 999), ExtraDice(7, 3))),
]


@pytest.mark.parametrize("spec", FIXED_CASES, ids=repr)
def test_fixed_point_path_agrees_with_exact_path(spec):
    exact = sum_distribution(spec, exact=True)
    fixed = sum_distribution(spec, exact=False)
    assert exact.exact and not fixed.exact
    assert (exact.low, exact.high) == (fixed.low, fixed.high)
    assert exact.mean_exact == fixed.mean_exact
    worst = max(abs(a - b) for a, b in zip(exact.probabilities, fixed.probabilities))
    assert worst < 1e-15
    step = max(1, len(exact) // 200)
    for total in range(exact.low - 1, exact.high + 2, step):
        assert abs(exact.p_at_least(total) - fixed.p_at_least(total)) < 1e-15
        e, f = exact.expected_excess(total), fixed.expected_excess(total)
        assert abs(e - f) <= 1e-13 * max(1.0, e)
    assert abs(math.fsum(fixed.probabilities) - 1) < 1e-13


@pytest.mark.slow
def test_ten_thousand_d4_is_fast_and_right():
    started = time.perf_counter()
    dist = sum_distribution(dice_sum(10_000))
    elapsed = time.perf_counter() - started
    assert elapsed < 5.0  # about 0.2 s; a quadratic float path would take minutes
    assert (dist.low, dist.high, len(dist)) == (10_000, 40_000, 30_001)
    assert dist.mean == 25_000
    assert abs(math.fsum(dist.probabilities) - 1) < 1e-12
    # Independently: n d4 - n = B + 2B' with two Binomial(n, 1/2), exact in integers.
    n = 10_000
    comb = [1]
    for k in range(n):
        comb.append(comb[-1] * (n - k) // (k + 1))
    assert comb[5_000] == math.comb(n, 5_000)
    for s in (15_000, 15_123, 14_400):
        ways = sum(comb[j] * comb[s - 2 * j] for j in range(max(0, (s - n + 1) // 2), s // 2 + 1))
        exact = Fraction(ways, 4**n)
        assert dist.probability(n + s) == pytest.approx(float(exact), rel=1e-12, abs=1e-16)
    assert dist.probability(24_000) == dist.probability(26_000)  # symmetric
    assert dist.p_at_least(25_000) == pytest.approx(0.5 + dist.probability(25_000) / 2, abs=1e-15)


def test_l4_refuses_more_than_100000_totals():
    # 1d4 + 361d278: 3 + 361 * 277 + 1 = 100,001 possible totals.
    plan = plan_pool(PoolRequest(1, extra=(ExtraDice(361, 278),)))
    with pytest.raises(InputError) as info:
        pool_odds(plan)
    assert info.value.field == "odds"
    assert info.value.value == 100_001
    assert "(L4)" in str(info.value)


@pytest.mark.slow
def test_l4_allows_exactly_100000_totals():
    # 1d4 + 156d642: 3 + 156 * 641 + 1 = 100,000 possible totals.
    odds = pool_odds(plan_pool(PoolRequest(1, extra=(ExtraDice(156, 642),), dc=50_000)))
    dist = odds.distribution
    assert len(dist) == 100_000 and not dist.exact
    assert abs(math.fsum(dist.probabilities) - 1) < 1e-12
    exact = sum_distribution(dice_sum(1, (ExtraDice(156, 642),)), exact=True)
    for dc in (200, 40_000, 50_000, 50_157, 60_000, 100_000):
        assert abs(dist.p_at_least(dc) - exact.p_at_least(dc)) < 1e-15
    assert odds.p_success == exact.p_at_least(50_000)


def test_pool_below_one_die_is_refused():
    with pytest.raises(InputError):
        pool_distribution(0)


# ---------------------------------------------------------------------------
# The d20 Action Roll


CHECK_CASES = [
    CheckRequest(attribute=3, advantage_level=2, dc=12),
    CheckRequest(dc=10),
    CheckRequest(dc=21),
    CheckRequest(attribute=-2, proficiency=1, dc=5, rule_of_three=True),
    CheckRequest(attribute=2, disadvantage=1, dc=9, rule_of_three=True),  # subtract 1d6 (C4)
    CheckRequest(specialization=1, advantage_level=1, disadvantage=1, dc=14),  # level lowered
    CheckRequest(attribute=4, advantage_level=3, dc=18, rule_of_three=True),
    CheckRequest(attribute=1, advantage_level=2, disadvantage=1, dc=3, rule_of_three=True),
    CheckRequest(attribute=5, advantage_level=1),  # no DC
    CheckRequest(attribute=-10, dc=-3, rule_of_three=True),  # only natural 1s fail
]


@pytest.mark.parametrize("request_", CHECK_CASES, ids=repr)
def test_check_odds_match_brute_force(request_):
    totals, outcomes, combos = brute_check(request_)
    odds = check_odds(request_)
    dist = odds.distribution
    assert dist.denominator == combos
    for total in range(dist.low - 1, dist.high + 2):
        assert dist.fraction(total) == Fraction(totals[total], combos)
    assert dist.mean_exact == Fraction(sum(t * n for t, n in totals.items()), combos)
    if request_.dc is None:
        assert odds.success is None and odds.p_success is None
    else:
        won = outcomes["success"] + outcomes["success-and"]
        assert odds.success == Fraction(won, combos)
        assert odds.fraction_success_at(request_.dc) == odds.success
    if request_.rule_of_three and request_.dc is not None:
        assert odds.success_and == Fraction(outcomes["success-and"], combos)
        assert odds.failure_but == Fraction(outcomes["failure-but"], combos)
    else:
        assert odds.success_and is None and odds.failure_but is None
    assert odds.critical_success == Fraction(1, 20) == odds.critical_failure


@pytest.mark.slow
def test_check_level_four_matches_brute_force():
    request = CheckRequest(attribute=1, advantage_level=4, dc=16, rule_of_three=True)
    totals, outcomes, combos = brute_check(request)
    odds = check_odds(request)
    assert odds.distribution.mean_exact == Fraction(sum(t * n for t, n in totals.items()), combos)
    assert odds.success == Fraction(outcomes["success"] + outcomes["success-and"], combos)
    assert odds.success_and == Fraction(outcomes["success-and"], combos)
    assert odds.failure_but == Fraction(outcomes["failure-but"], combos)


@pytest.mark.parametrize("level", range(6))
def test_advantage_bonus_distribution_over_every_roll(level):
    # Level 5 too: 7,776 rolls of the d6s, the bonus from check.advantage_bonus (C3).
    expected = Counter(advantage_bonus(dice) for dice in product(range(1, 7), repeat=level))
    odds = check_odds(CheckRequest(advantage_level=level))
    # Natural 10 carries exactly the bonus distribution, shifted by 10.
    from d4cli.odds.roll_odds import _advantage_ways

    assert dict(_advantage_ways(level)) == dict(expected)
    assert odds.distribution.mean_exact == Fraction(21, 2) + Fraction(
        sum(b * n for b, n in expected.items()), 6**level
    ) + Fraction(1, 20) * Fraction(7, 2)


def test_pinned_check_attribute_3_advantage_2_dc_12():
    # roll check --attribute 3 --advantage 2 --dc 12; by brute force above: 33/40.
    odds = check_odds(CheckRequest(attribute=3, advantage_level=2, dc=12))
    assert odds.success == Fraction(33, 40)
    assert odds.p_success == 0.825
    assert p_check_success(12, 3, 2) == 0.825
    with_r3 = check_odds(CheckRequest(attribute=3, advantage_level=2, dc=12, rule_of_three=True))
    assert (with_r3.success_and, with_r3.failure_but) == (Fraction(5, 8), Fraction(1, 12))


def test_impossible_check_has_no_odds():
    with pytest.raises(RefusedError):
        check_odds(CheckRequest(disadvantage=2, advantage_level=5, dc=5))
    assert p_check_success(5, 0, 5, 2) == 0.0


def test_check_odds_level_out_of_range():
    with pytest.raises(InputError):
        check_odds(CheckRequest(advantage_level=6))


# ---------------------------------------------------------------------------
# Properties


sources = st.lists(st.sampled_from(["torch", "advice", "high ground", "dark", "rain"]), max_size=3)
extras = st.lists(
    st.builds(
        ExtraDice, st.integers(1, 3), st.sampled_from([1, 2, 4, 6, 8, 12]), st.integers(-3, 3)
    ),
    max_size=2,
)


@settings(max_examples=60, deadline=None)
@given(
    aspect=st.integers(-3, 25),
    load=st.integers(-3, 6),
    adv=sources,
    dis=sources,
    extra=extras,
    dc=st.integers(-5, 120),
)
def test_pool_properties(aspect, load, adv, dis, extra, dc):
    def p(adv_names, dis_names, dc_value):
        request = PoolRequest(
            aspect,
            load,
            advantage=tuple(adv_names),
            disadvantage=tuple(dis_names),
            extra=tuple(extra),
            dc=dc_value,
        )
        return pool_odds(plan_pool(request))

    odds = p(adv, dis, dc)
    dist = odds.distribution
    assert sum(dist.weights) == dist.denominator  # exactly 1
    assert sum(Fraction(w, dist.denominator) for w in dist.weights) == 1
    assert abs(math.fsum(dist.probabilities) - 1) < 1e-12
    assert odds.p_success is not None
    assert p(adv, dis, dc + 1).p_success <= odds.p_success  # a higher DC never helps
    assert p([*adv, "a new source"], dis, dc).p_success >= odds.p_success  # one more Advantage
    assert p(adv, [*dis, "a new trouble"], dc).p_success <= odds.p_success  # one more Disadvantage
    assert dist.expected_excess(dc + 1) <= dist.expected_excess(dc)


@settings(max_examples=80, deadline=None)
@given(
    modifiers=st.integers(-8, 8),
    level=st.integers(0, 5),
    dis=st.integers(0, 1),
    dc=st.integers(-5, 45),
    rule_of_three=st.booleans(),
)
def test_check_properties(modifiers, level, dis, dc, rule_of_three):
    request = CheckRequest(
        attribute=modifiers,
        advantage_level=level,
        disadvantage=dis,
        dc=dc,
        rule_of_three=rule_of_three,
    )
    odds = check_odds(request)
    assert sum(odds.distribution.weights) == odds.distribution.denominator
    p = odds.p_success
    assert p == p_check_success(dc, modifiers, level, dis)  # grade() and the curve agree
    assert 0.0 <= p <= 0.95  # a natural 1 always fails (C6)
    assert p_check_success(dc + 1, modifiers, level, dis) <= p
    if level < 5:
        assert p_check_success(dc, modifiers, level + 1, dis) >= p  # one more level
    assert p_check_success(dc, modifiers, level, dis + 1) <= p  # one more Disadvantage
    if rule_of_three:
        assert odds.success_and <= odds.success
        assert odds.failure_but <= 1 - odds.success
    # A natural 20 adds a d6 but never succeeds on its own (C5).
    if dc > 20 + modifiers + 16:
        assert p == 0.0


# ---------------------------------------------------------------------------
# JSON and grids


def test_odds_json_pool_keys_and_values():
    obj = odds_json(pool_odds(plan_pool(PoolRequest(5, dc=12))))
    assert {"distribution", "mean", "p_success"} <= obj.keys()
    assert "expected_damage" not in obj
    assert list(obj["distribution"]) == [str(t) for t in range(5, 21)]
    assert obj["distribution"]["5"] == 1 / 1024
    assert obj["p_success"] == 0.6513671875 and obj["mean"] == 12.5
    damage = odds_json(
        pool_odds(plan_pool(PoolRequest(6, load=2, extra=(ExtraDice(1, 4),), evasion=11)))
    )
    assert damage["expected_damage"] == 1963 / 1024 and damage["p_any_damage"] == 0.6513671875
    assert "p_success" not in damage


def test_odds_json_check_keys():
    plain = check_odds_json(check_odds(CheckRequest(attribute=3, advantage_level=2, dc=12)))
    assert plain["p_success"] == 0.825
    assert plain["p_critical_success"] == 0.05 == plain["p_critical_failure"]
    assert "p_success_and" not in plain
    r3 = check_odds_json(
        check_odds(CheckRequest(attribute=3, advantage_level=2, dc=12, rule_of_three=True))
    )
    assert r3["p_success_and"] == 0.625 and r3["p_failure_but"] == 1 / 12
    no_dc = check_odds_json(check_odds(CheckRequest(attribute=3)))
    assert "p_success" not in no_dc and no_dc["p_critical_success"] == 0.05
    assert math.fsum(no_dc["distribution"].values()) == pytest.approx(1, abs=1e-12)


def test_pool_grid_cells():
    grid = pool_grid((4, 12), aspects=(1, 5, 7), load=2, net_advantage=1)
    assert grid.quantity == P_SUCCESS
    assert [dict(row.keys)["pool_size"] for row in grid.rows] == [1, 4, 6]  # R5
    assert grid.rows[1].values == (p_pool_success(4, 4), p_pool_success(4, 12))
    by_pool = pool_grid((12,), pool_sizes=(5,))
    assert by_pool.rows[0].values == (0.6513671875,)


def test_damage_and_check_and_compare_grids():
    damage = damage_grid((0, 11), pool_sizes=(5,))
    assert damage.quantity == EXPECTED_DAMAGE
    assert damage.rows[0].values == (12.5, 1963 / 1024)
    check = check_grid((12,), advantage_levels=(2,), disadvantages=(0, 1, 2), modifiers=3)
    assert [row.values[0] for row in check.rows] == [0.825, p_check_success(12, 3, 1), 0.0]
    assert row_label(check, check.rows[2]).endswith("(impossible)")
    compare = compare_grid((12,), aspects=(5,), modifiers=(0, 3), advantage_level=2)
    assert [row.values[0] for row in compare.rows] == [
        0.6513671875,
        p_check_success(12, 0, 2),
        0.825,
    ]
    obj = grid_json(compare)
    assert obj["columns"] == [12] and obj["column"] == "dc"
    assert obj["rows"][0]["system"] == "pool" and obj["rows"][2]["modifiers"] == 3


def test_odds_records_are_frozen():
    odds = pool_odds(plan_pool(PoolRequest(3)))
    assert isinstance(odds, PoolOdds)
    with pytest.raises(AttributeError):
        odds.dc = 3  # type: ignore[misc]
    assert isinstance(check_odds(CheckRequest()), CheckOdds)
