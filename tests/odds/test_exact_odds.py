"""'Exact' means exact: no probability shown as 0 or 1 (nor 0% or 100%) unless exactly so,
exact fraction strings beside the JSON floats, percentages rounded half up, and odds JSON
that lists only non-zero totals and says exactly what it left out."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
from _cli import ok_json, run

from d4cli.odds.dice_sums import dice_sum, exact_tail, sum_distribution
from d4cli.odds.distribution import edge_safe
from d4cli.odds.roll_odds import pool_distribution
from d4cli.output.render.odds_charts import percent
from d4cli.output.serialize.odds_json import odds_json
from d4cli.rules.dice import parse_extra


def exact_p_at_least(pool: int, dc: int) -> Fraction:
    """P(pool d4 >= dc) by counting the ways, from first principles (no d4cli code)."""
    ways = [1]
    for _ in range(pool):
        new = [0] * (len(ways) + 3)
        for index, count in enumerate(ways):
            for face in range(4):
                new[index + face] += count
        ways = new
    # ways[i] counts the sum pool + i
    return Fraction(sum(count for index, count in enumerate(ways) if pool + index >= dc), 4**pool)


POOLS = [1, 2, 3, 5, 8, 13, 21, 30, 45, 60]


@pytest.mark.parametrize("pool", POOLS)
def test_pool_floats_are_0_or_1_only_when_exact_over_a_grid_of_dcs(pool):
    distribution = pool_distribution(pool)
    for dc in range(pool - 2, 4 * pool + 3):
        exact = exact_p_at_least(pool, dc)
        p = distribution.p_at_least(dc)
        assert (p == 1.0) == (exact == 1) and (p == 0.0) == (exact == 0), (pool, dc, p)
        assert p == pytest.approx(float(exact), abs=1e-15)
        assert distribution.exact_at_least(dc) == exact
        shown = percent(p, 1)
        assert (shown == "100%") == (exact == 1) and (shown == "0%") == (exact == 0), (
            pool,
            dc,
            shown,
        )


@pytest.mark.parametrize("pool", [600, 2_400, 5_000, 10_000])
def test_large_pools_on_the_fixed_point_path_never_show_the_edges_unless_exact(pool):
    distribution = pool_distribution(pool)
    assert distribution.exact == (pool < 2_400)
    for dc in (pool - 1, pool, pool + 1, pool + 2, 4 * pool - 1, 4 * pool, 4 * pool + 1):
        p = distribution.p_at_least(dc)
        assert (p == 1.0) == (dc <= pool) and (p == 0.0) == (dc > 4 * pool), (pool, dc, p)
        exact = distribution.exact_at_least(dc)
        assert (exact == 1) == (dc <= pool) and (exact == 0) == (dc > 4 * pool)
        if dc == pool + 1:
            assert exact == 1 - Fraction(1, 4**pool)
        if dc == 4 * pool:
            assert exact == Fraction(1, 4**pool)


def test_exact_tail_agrees_with_counting_with_extra_dice():
    extra = (parse_extra("1d8+2"), parse_extra("2d6"), parse_extra("1d3-1"))
    for pool in (1, 4, 7):
        spec = dice_sum(pool, extra)
        exact = sum_distribution(spec, exact=True)
        fixed = sum_distribution(spec, exact=False)
        for dc in range(exact.low - 1, exact.high + 2):
            assert exact_tail(spec, dc) == exact.fraction_at_least(dc) == fixed.exact_at_least(dc)
    # brute force, every outcome of 3d4 + 1d8 + 2
    spec = dice_sum(3, (parse_extra("1d8+2"),))
    for dc in range(4, 26):
        ways = sum(
            1
            for roll in itertools.product(range(1, 5), range(1, 5), range(1, 5), range(1, 9))
            if sum(roll) + 2 >= dc
        )
        assert exact_tail(spec, dc) == Fraction(ways, 4**3 * 8)


def test_edge_safe():
    assert edge_safe(1.0, False, False) < 1.0 and edge_safe(0.0, False, False) > 0.0
    assert edge_safe(0.7, False, True) == 1.0 and edge_safe(0.7, True, False) == 0.0
    assert edge_safe(0.25, False, False) == 0.25


@pytest.mark.parametrize(
    ("p", "digits", "shown"),
    [
        (Fraction(1, 16), 2, "6.25%"),
        (Fraction(1, 16), 1, "6.3%"),
        (0.0625, 1, "6.3%"),
        (Fraction(1, 8), 0, "13%"),
        (Fraction(667, 1024), 2, "65.14%"),
        (Fraction(1, 3), 2, "33.33%"),
        (Fraction(1, 20000), 2, "0.01%"),  # 0.005% rounds half up
        (Fraction(1, 20001), 2, "<0.01%"),
        (Fraction(19999, 20000), 2, ">99.99%"),
        (Fraction(1, 2000), 1, "0.1%"),
        (1 - Fraction(1, 4**27), 2, ">99.99%"),
        (Fraction(1, 4**600), 2, "<0.01%"),
        (Fraction(1), 2, "100%"),
        (Fraction(0), 2, "0%"),
    ],
)
def test_percent_rounds_the_exact_value_half_up(p, digits, shown):
    assert percent(p, digits) == shown


def test_roll_pool_30_against_dc_31_is_not_certain():
    odds = ok_json("roll", "pool", "30", "--dc", "31", "--odds", "--seed", "1")["odds"]
    assert odds["p_success"] < 1.0
    assert Fraction(odds["p_success_exact"]) == 1 - Fraction(1, 4**30)


def test_roll_pool_600_against_dc_2400_is_not_impossible(long_integers):
    odds = ok_json("roll", "pool", "600", "--dc", "2400", "--odds", "--seed", "1")["odds"]
    assert odds["p_success"] > 0.0
    assert Fraction(odds["p_success_exact"]) == Fraction(1, 4**600)
    result = run("roll", "pool", "600", "--dc", "2400", "--odds", "--seed", "1")
    assert "Chance of success (total >= DC 2400): <0.01%" in result.stdout
    result = run("roll", "pool", "600", "--dc", "2401", "--odds", "--seed", "1")
    assert "Chance of success (total >= DC 2401): 0%" in result.stdout


def test_pool_json_gives_exact_fractions_beside_the_floats():
    odds = ok_json("roll", "pool", "5", "--dc", "12", "--odds", "--seed", "1")["odds"]
    assert odds["p_success_exact"] == "667/1024" and odds["p_success"] == 667 / 1024
    odds = ok_json("roll", "pool", "5", "--evasion", "14", "--odds", "--seed", "1")["odds"]
    assert Fraction(odds["p_any_damage_exact"]) == Fraction(
        sum(1 for r in itertools.product(range(1, 5), repeat=5) if sum(r) > 14), 1024
    )
    assert odds["p_any_damage"] == float(Fraction(odds["p_any_damage_exact"]))


def test_check_json_gives_exact_fractions_beside_the_floats():
    odds = ok_json(
        "roll",
        "check",
        "--attribute",
        "2",
        "--dc",
        "14",
        "--rule-of-three",
        "--odds",
        "--seed",
        "1",
    )["odds"]
    for key in (
        "p_success",
        "p_critical_success",
        "p_critical_failure",
        "p_success_and",
        "p_failure_but",
    ):
        assert odds[key] == float(Fraction(odds[key + "_exact"])), key
    assert odds["p_critical_success_exact"] == "1/20" and odds["p_critical_failure_exact"] == "1/20"


def test_the_grid_shows_100_percent_only_where_exact():
    result = run("odds", "pool", "--aspect", "25..30", "--dc", "26..31", "--format", "csv")
    assert result.exit_code == 0, result.stderr
    rows = [line.split(",") for line in result.stdout.splitlines()[1:]]
    for row in rows:
        pool = int(row[2])
        for dc, value in zip(range(26, 32), row[3:]):
            exact = exact_p_at_least(pool, dc)
            assert (float(value) == 1.0) == (exact == 1), (pool, dc, value)
    table = run(
        "odds", "pool", "--aspect", "25..30", "--dc", "26..31", "--format", "markdown"
    ).stdout
    rows = [line for line in table.splitlines() if line.startswith("|")]  # the title first
    for line in rows[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        pool = int(cells[0].split("(")[1].split("d4")[0])
        for dc, cell in zip(range(26, 32), cells[1:]):
            assert (cell == "100.0%") == (exact_p_at_least(pool, dc) == 1), (pool, dc, cell)


# --- odds JSON without padding ----------------------------------------------------------


def test_distribution_lists_only_non_zero_totals_and_says_what_it_left_out(long_integers):
    for pool in (5, 600, 3_000, 10_000):
        distribution = pool_distribution(pool)
        obj = odds_json_of(pool)
        listed = obj["distribution"]
        assert all(p > 0.0 for p in listed.values())
        omitted = Fraction(obj["distribution_omitted"])
        totals = sorted(map(int, listed))
        assert totals == list(range(totals[0], totals[-1] + 1))
        expected = (
            1 - distribution.exact_at_least(totals[0]) + distribution.exact_at_least(totals[-1] + 1)
        )
        assert omitted == expected
        assert (omitted == 0) == (len(listed) == 3 * pool + 1)
    assert len(json.dumps(odds_json_of(10_000))) < 200_000


def test_a_check_lists_only_possible_results():
    obj = ok_json("roll", "check", "--dc", "10", "--odds", "--seed", "1")["odds"]
    assert obj["distribution_omitted"] == "0/1" and all(p > 0 for p in obj["distribution"].values())


def odds_json_of(pool: int) -> dict:
    from d4cli.odds.roll_odds import PoolOdds

    return odds_json(PoolOdds(pool_distribution(pool), pool, (), None, None))
