"""The search of ``balance`` on plain data: monotone stand-ins for the simulator prove the
bisection, the neighbours, the walk past a wobble and the target no value reaches."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from d4cli.sim.balance_search import Point, most_values, search

RUNS = 1000


def falling(value: int) -> Point:
    """A foe's hp against the party: 100% at 0, 2.5 points less per hp, never below 0."""
    return Point(value, max(0, RUNS - 25 * value), RUNS)


class Counted:
    """A chance function that records the values it was asked for."""

    def __init__(self, chance):
        self.chance = chance
        self.asked: list[int] = []

    def __call__(self, value: int) -> Point:
        self.asked.append(value)
        return self.chance(value)


def test_bisection_finds_the_value_of_a_falling_chance_and_its_neighbours():
    counted = Counted(falling)
    found = search(counted, 5, 40, 0.6)
    # 1000 - 25 * 16 = 600: exactly 60% at hp 16.
    assert found.found == Point(16, 600, RUNS)
    assert found.below == Point(15, 625, RUNS) and found.above == Point(17, 575, RUNS)
    assert found.reached and found.direction == -1
    assert counted.asked[:2] == [5, 40]
    assert len(counted.asked) == len(set(counted.asked)) <= most_values(5, 40)
    assert [point.value for point in found.points] == sorted(set(counted.asked))


def test_a_rising_chance_is_searched_the_other_way():
    found = search(lambda v: Point(v, min(RUNS, 100 * v), RUNS), 0, 10, 0.3)
    assert found.found.value == 3 and found.direction == 1 and found.reached
    assert found.found.rate == 0.3


def test_between_two_values_the_nearer_is_found():
    # 61.25% at 15.5: 15 gives 62.5%, 16 gives 60%; the target 61% is nearer 60% (1 point).
    found = search(falling, 0, 40, 0.61)
    assert found.found.value == 16
    found = search(falling, 0, 40, 0.62)
    assert found.found.value == 15


def test_a_target_no_value_reaches_gives_the_nearest_end_unreached():
    counted = Counted(falling)
    found = search(counted, 5, 10, 0.95)  # 87.5% .. 75%: 95% is above the best
    assert not found.reached
    assert found.found == Point(5, 875, RUNS) and found.below is None
    assert found.above == Point(6, 850, RUNS)
    assert sorted(counted.asked) == [5, 6, 10]


def test_a_flat_chance_is_unreached_unless_it_is_the_target():
    flat = search(lambda v: Point(v, 500, RUNS), 1, 9, 0.6)
    assert not flat.reached and flat.direction == 0 and flat.found.value == 1
    assert search(lambda v: Point(v, 600, RUNS), 1, 9, 0.6).reached


def test_one_value_is_played_once():
    counted = Counted(falling)
    found = search(counted, 7, 7, 0.5)
    assert counted.asked == [7] and found.below is None and found.above is None


def test_the_walk_steps_past_a_wobble_to_a_nearer_neighbour():
    # Falling, with a wobble at 17 (the dice of one value): bisection brackets 15 (65%) and
    # 16 (58%), takes 16, and the walk steps on to 17 (60% exactly), then stops.
    rates = {v: max(0, RUNS - 25 * v) for v in range(41)}
    rates[16], rates[17] = 580, 600
    counted = Counted(lambda v: Point(v, rates[v], RUNS))
    found = search(counted, 0, 40, 0.6)
    assert found.found == Point(17, 600, RUNS)
    assert found.below == Point(16, 580, RUNS) and found.above == Point(18, 550, RUNS)
    assert counted.asked == [0, 40, 20, 10, 15, 17, 16, 18]


def test_a_bad_range_or_target_is_refused():
    with pytest.raises(ValueError):
        search(falling, 5, 4, 0.5)
    with pytest.raises(ValueError):
        search(falling, 0, 4, 1.5)


@given(
    low=st.integers(-50, 50),
    span=st.integers(0, 200),
    slope=st.integers(1, 40),
    offset=st.integers(-500, 1500),
    target=st.integers(0, 100),
    rising=st.booleans(),
)
def test_the_search_is_as_good_as_trying_every_value(low, span, slope, offset, target, rising):
    high = low + span
    sign = 1 if rising else -1

    def chance(value: int) -> Point:
        return Point(value, min(RUNS, max(0, offset + sign * slope * (value - low))), RUNS)

    counted = Counted(chance)
    found = search(counted, low, high, target / 100)
    best = min(abs(chance(v).rate - target / 100) for v in range(low, high + 1))
    assert math.isclose(abs(found.found.rate - target / 100), best, abs_tol=1e-12)
    assert len(counted.asked) == len(set(counted.asked)) <= most_values(low, high)
    ends = (chance(low).rate, chance(high).rate)
    assert found.reached == (min(ends) <= target / 100 <= max(ends))
