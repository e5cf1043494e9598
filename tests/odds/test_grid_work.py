"""Bounded work: grids of pools run along one chain and refuse past a stated bound at once;
--times refuses more dice than one command rolls."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from _cli import run

from d4cli.odds.distribution import edge_safe
from d4cli.odds.pool_chain import MAX_GRID_WORK, _PoolChain, check_grid_work, grid_work, pool_values
from d4cli.odds.roll_odds import pool_distribution
from d4cli.rules.dice import parse_extra
from d4cli.rules.errors import InputError
from d4cli.rules.limits import MAX_ROLLED_DICE, check_rolled_dice


@pytest.mark.parametrize("extra", [(), ("1d8+1",), ("2d6", "1d3-1")])
@pytest.mark.parametrize("damage", [False, True])
def test_the_chain_agrees_with_each_pools_own_distribution(extra, damage):
    extra = tuple(parse_extra(text) for text in extra)
    sizes = list(range(2, 120, 9))
    columns = list(range(-2, 500, 11))
    chain = _PoolChain(pool_distribution(sizes[0], extra), damage)
    current = sizes[0]
    for size in sizes:
        while current < size:
            chain.add_d4()
            current += 1
        distribution = pool_distribution(size, extra)
        want = [
            distribution.expected_excess(c) if damage else distribution.p_at_least(c)
            for c in columns
        ]
        got = chain.values(columns)
        for column, g, w in zip(columns, got, want):
            assert g == pytest.approx(w, abs=1e-20, rel=1e-12), (size, column)
            assert (g == 0.0) == (w == 0.0) and (g == 1.0) == (w == 1.0), (size, column, g, w)


def test_pool_values_uses_the_chain_for_large_grids_and_agrees():
    sizes = list(range(2_000, 2_040))
    dcs = [5_000, 5_050, 5_100, 8_000, 8_001]
    chained = pool_values(sizes, (), dcs, damage=False)
    for size in (2_000, 2_019, 2_039):
        distribution = pool_distribution(size)
        for dc, value in zip(dcs, chained[size]):
            assert value == pytest.approx(distribution.p_at_least(dc), abs=1e-15)
    assert chained[2_000][-1] == 0.0 and 0.0 < chained[2_000][-2] < 1e-300


def test_grid_work_counts_the_chain():
    assert grid_work([1], ()) == 4
    assert grid_work(range(1, 10_001), ()) == 150_025_000 <= MAX_GRID_WORK
    assert grid_work(range(1, 9_991), (parse_extra("10d1000"),)) > MAX_GRID_WORK
    with pytest.raises(InputError, match=f"a grid does at most {MAX_GRID_WORK:,}"):
        check_grid_work(range(1, 9_991), (parse_extra("10d1000"),))


def _no_work(*args, **kwargs):
    raise AssertionError("the work was started before the refusal")


def test_a_grid_past_the_bound_is_refused_at_once_naming_the_bound(monkeypatch):
    # "At once": refused before any distribution is built (what it does, not how fast).
    monkeypatch.setattr("d4cli.odds.pool_chain.pool_distribution", _no_work)
    monkeypatch.setattr("d4cli.odds.pool_chain._PoolChain", _no_work)
    result = run("odds", "pool", "--pool", "1..9990", "--extra", "10d1000", "--dc", "5", "--json")
    assert result.exit_code == 2 and result.stdout == ""
    assert (
        f"a grid does at most {MAX_GRID_WORK:,}" in result.stderr
        and len(result.stderr.splitlines()) == 1
    )


@pytest.mark.slow
def test_the_grid_that_took_minutes_answers_within_seconds():
    """9,009 cells of 9,000..10,000 d4 (189 s when each row started from scratch)."""
    start = time.perf_counter()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "d4cli",
            "odds",
            "pool",
            "--pool",
            "9000..10000",
            "--dc",
            "20000..20008",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert time.perf_counter() - start < 30
    grid = json.loads(result.stdout)
    assert len(grid["rows"]) == 1001 and all(
        0.0 < v < 1.0 for row in grid["rows"] for v in row["values"]
    )
    last = grid["rows"][-1]["values"]
    distribution = pool_distribution(10_000)
    assert last == pytest.approx(
        [distribution.p_at_least(dc) for dc in range(20_000, 20_009)], abs=1e-15
    )


def test_times_refuses_more_dice_than_one_command_rolls_at_once(monkeypatch):
    assert check_rolled_dice(5, 1_000_000) == 5_000_000
    with pytest.raises(InputError, match="one command rolls at most"):
        check_rolled_dice(10_000, 1_000_000)
    # "At once": refused before a single die is rolled.
    monkeypatch.setattr("d4cli.cli.commands.roll.roll_pool_plan", _no_work)
    result = run("roll", "pool", "1000", "--extra", "9000d4", "--times", "1000000", "--json")
    assert result.exit_code == 2 and result.stdout == ""
    assert "--times" in result.stderr and f"{MAX_ROLLED_DICE:,}" in result.stderr


@pytest.mark.parametrize("damage", [False, True])
@pytest.mark.parametrize("extra", [(), ("1d8+1",)])
def test_a_chain_cut_to_its_columns_gives_the_very_same_values(damage, extra):
    """The slots above the highest column are cut off at each step: every value is bit for bit
    what the whole chain gives, and once the pools pass the columns nothing is carried at all."""
    extra = tuple(parse_extra(text) for text in extra)
    columns = [-3, 0, 7, 40, 41, 95, 140, 141]
    whole = _PoolChain(pool_distribution(3, extra), damage)
    cut = _PoolChain(pool_distribution(3, extra), damage, max(columns))
    for size in range(3, 200):
        assert cut.values(columns) == whole.values(columns), size
        assert cut.kept <= max(0, max(columns) + 2 - cut.low) and cut.mean == whole.mean
        whole.add_d4()
        cut.add_d4()
    assert (
        cut.kept == 0
        and cut.packed == 0
        and whole.kept == whole.slots == 3 * 200 + 1 + 7 * bool(extra)
    )


def test_a_grid_of_pools_past_its_columns_carries_nothing():
    values = pool_values(range(1, 10_001), (), [5], damage=False)
    assert (
        values[4] == (edge_safe(1 - 1 / 256, False, False),)
        and values[5] == (1.0,)
        and values[10_000] == (1.0,)
    )
    assert values[1] == (0.0,) and values[2] == (10 / 16,)
