"""The one batched dice source (`BatchedDice`): the same dice whichever way they are asked for."""

from __future__ import annotations

import random

import pytest

from d4cli.rules.pool import PoolRequest, plan_pool, roll_pool, roll_pools
from d4cli.sim.batched_dice import BatchedDice, times_dice


def test_times_dice_hand_out_d4s_in_drawn_order_and_other_dice_from_randint():
    dice, same = times_dice(random.Random(5)), random.Random(5)
    got = [dice.randint(1, 4) for _ in range(3)] + [dice.randint(1, 8), dice.randint(1, 4)]
    batch = same.choices((1, 2, 3, 4), k=4096)  # drawn whole before the d8
    assert got == batch[:3] + [same.randint(1, 8)] + batch[3:4]


def test_the_simulator_default_hands_each_batch_out_last_drawn_first():
    dice, same = BatchedDice(random.Random(5)), random.Random(5)
    got = [dice.randint(1, 6) for _ in range(65)]
    first, second = same.choices(range(1, 7), k=64), same.choices(range(1, 7), k=64)
    assert got == first[::-1] + second[-1:]


@pytest.mark.parametrize("make", [BatchedDice, times_dice], ids=["simulator", "times"])
@pytest.mark.parametrize("count", [1, 6, 100])
def test_rows_many_and_one_by_one_are_the_same_dice(make, count):
    one, many, rows = make(random.Random(9)), make(random.Random(9)), make(random.Random(9))
    for source in (one, many, rows):
        source.randint(1, 4)  # a batch already begun
    by_one = [tuple(one.randint(1, 4) for _ in range(count)) for _ in range(300)]
    assert [many.roll_many(count, 4) for _ in range(300)] == by_one
    assert rows.roll_rows(100, count, 4) + rows.roll_rows(200, count, 4) == by_one
    assert one.randint(1, 4) == many.randint(1, 4) == rows.randint(1, 4)  # and they go on alike


def test_rows_of_a_die_not_batched_come_from_randint():
    rows, same = times_dice(random.Random(3)), random.Random(3)
    assert rows.roll_rows(2, 3, 8) == [
        tuple(same.randint(1, 8) for _ in range(3)) for _ in range(2)
    ]


@pytest.mark.parametrize(
    "request_", [PoolRequest(5), PoolRequest(3, dc=9), PoolRequest(4, evasion=6)]
)
def test_roll_pools_gives_the_results_of_roll_pool_one_by_one(request_):
    plan = plan_pool(request_)
    one, block = times_dice(random.Random(2)), times_dice(random.Random(2))
    assert roll_pools(plan, block, 5000) == [roll_pool(plan, one) for _ in range(5000)]
    refused = plan_pool(PoolRequest(1, load=3))
    assert roll_pools(refused, block, 2) == [roll_pool(refused, one)] * 2
