"""The D4 pool core (R1-R10) with scripted dice: every worked example of the documents."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from d4cli.rules.dice import ExtraDice, ScriptedDice, parse_extra
from d4cli.rules.errors import InputError
from d4cli.rules.pool import PoolRequest, check_gate, plan_pool, pool_size, reset_load, roll_pool


def test_r1_reset_examples():
    # R1: Buffer 1, no Exhaustion -> -1; Exhaustion 2, Buffer 1 -> 1.
    assert reset_load(1) == -1
    assert reset_load(1, exhaustion=2) == 1
    assert reset_load(0, exhaustion=0) == 0


def test_trap_example_pool_of_five():
    # From the rule text: Finesse 4, Load 0 (started at -1, one action taken); darkness,
    # a torch and advice -> 5d4.
    request = PoolRequest(
        aspect=4, load=0, advantage=("torch", "advice"), disadvantage=("darkness",)
    )
    plan = plan_pool(request)
    assert plan.gate.allowed and plan.gate.headroom == 4
    assert plan.size.base == 4
    assert plan.net_advantage == 1
    assert plan.size.size == 5
    result = roll_pool(request, ScriptedDice([1, 2, 3, 4, 4]))
    assert result.dice == (1, 2, 3, 4, 4)
    assert result.total == 14


def test_dagger_example():
    # From the rule text: Finesse 6, Load 2, dagger 1d4 -> 4d4 + 1d4; total 14 vs Evasion 11.
    request = PoolRequest(aspect=6, load=2, extra=(parse_extra("1d4"),), evasion=11)
    dice = ScriptedDice([4, 3, 3, 2, 2])
    result = roll_pool(request, dice)
    assert result.plan.size.size == 4
    assert result.dice == (4, 3, 3, 2)
    assert result.extra[0].dice == (2,)
    assert result.total == 14
    assert result.damage == 3
    assert result.plan.load_after == 3
    assert dice.left == 0


def test_reaction_example_team_action_cost_one():
    # From the rule text: Load 1, a Team Action of Cost 1 raises the Load to 2 (R8, R10).
    plan = plan_pool(PoolRequest(aspect=3, load=1, cost=1))
    assert plan.gate.allowed
    assert plan.load_after == 2


def test_r2_gate_refuses_and_rolls_nothing():
    request = PoolRequest(aspect=2, load=1, cost=2)
    dice = ScriptedDice([])
    result = roll_pool(request, dice)
    assert not result.allowed
    assert result.plan.gate.shortfall == 1
    assert result.dice == () and result.total is None and result.damage is None
    assert result.plan.load_after == 1
    assert dice.used == 0


def test_r3_cost_zero_needs_headroom_zero():
    assert check_gate(2, 2, 0).allowed
    assert not check_gate(2, 3, 0).allowed


def test_r4_same_source_counts_once():
    # "Watch My Back" named twice (any case, any spacing) gives +1d4 only.
    plan = plan_pool(
        PoolRequest(aspect=3, advantage=("Watch My Back", "watch  my back ", "WATCH MY BACK"))
    )
    assert plan.advantage == ("Watch My Back",)
    assert plan.advantage_repeats == ("watch  my back ", "WATCH MY BACK")
    assert plan.size.size == 4


def test_r5_negative_load_never_enlarges():
    assert pool_size(3, -1, 0).size == 3
    assert pool_size(3, 2, 0).size == 1
    assert pool_size(3, 2, 0).minimum_applied is False


def test_r5_minimum_one_die_with_negative_aspect():
    size = pool_size(-1, 0, 0)
    assert size.size == 1 and size.minimum_applied
    assert pool_size(2, 0, -5).size == 1


def test_r5_advantage_not_capped_by_gate():
    # Headroom 1, Cost 1, but three Advantage sources still add three dice.
    plan = plan_pool(PoolRequest(aspect=2, load=1, advantage=("a", "b", "c")))
    assert plan.gate.headroom == 1
    assert plan.size.size == 4


def test_r9_gm_roll_skips_gate_and_may_ignore_load():
    plan = plan_pool(PoolRequest(aspect=-1, load=5, cost=3, gm=True))
    assert plan.gate.allowed and plan.gate.skipped
    assert plan.size.size == 1
    ignored = plan_pool(PoolRequest(aspect=4, load=3, gm=True, ignore_load=True, advantage=("x",)))
    assert ignored.size.size == 5


def test_r6_extra_dice_do_not_count_toward_minimum():
    request = PoolRequest(aspect=0, load=0, cost=0, extra=(ExtraDice(1, 8, 2),), dc=5)
    result = roll_pool(request, ScriptedDice([1, 7]))
    assert result.plan.size.size == 1
    assert result.total == 1 + 7 + 2
    assert result.success is True


def test_r7_dc_and_damage():
    result = roll_pool(PoolRequest(aspect=2, dc=5), ScriptedDice([2, 3]))
    assert result.success is True
    assert roll_pool(PoolRequest(aspect=2, dc=6), ScriptedDice([2, 3])).success is False
    low = roll_pool(PoolRequest(aspect=2, evasion=11), ScriptedDice([1, 1]))
    assert low.damage == 0


def test_l2_too_many_dice():
    with pytest.raises(InputError, match="10,000"):
        plan_pool(PoolRequest(aspect=1000, extra=(ExtraDice(9001, 8),)))
    plan_pool(PoolRequest(aspect=1000, extra=(ExtraDice(9000, 8),)))


def test_dc_and_evasion_together_is_input_error():
    with pytest.raises(InputError):
        plan_pool(PoolRequest(aspect=2, dc=3, evasion=4))


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1d8", (1, 8, 0)), ("2d6+1", (2, 6, 1)), ("1d4-1", (1, 4, -1)), ("3d1000", (3, 1000, 0))],
)
def test_extra_notation(text, expected):
    extra = parse_extra(text)
    assert (extra.count, extra.sides, extra.modifier) == expected
    assert extra.notation == text


@pytest.mark.parametrize(
    "text", ["0d8", "-2d8", "2d0", "1d8+", "1d8x", "d4", "4d", "1d1001", "10001d4", " 1d8", ""]
)
def test_bad_extra_notation(text):
    with pytest.raises(InputError) as info:
        parse_extra(text)
    assert info.value.field == "extra"


names = st.lists(st.sampled_from(["torch", "Torch", "advice", "help", "cover"]), max_size=5)


@given(
    aspect=st.integers(-1000, 1000),
    load=st.integers(-1000, 1000),
    cost=st.integers(0, 1000),
    adv=names,
    dis=names,
)
def test_properties_of_the_plan(aspect, load, cost, adv, dis):
    plan = plan_pool(PoolRequest(aspect, load, cost, tuple(adv), tuple(dis)))
    bare = plan_pool(PoolRequest(aspect, load, cost))
    # Advantage never changes the gate (R2); the pool is at least 1d4 (R5).
    assert plan.gate == bare.gate
    assert plan.size.size >= 1
    assert plan.size.size == max(1, aspect - max(0, load) + plan.net_advantage)


@given(
    aspect=st.integers(-5, 30),
    load=st.integers(-3, 10),
    cost=st.integers(0, 5),
    extras=st.lists(
        st.tuples(st.integers(1, 3), st.integers(1, 12), st.integers(-5, 5)), max_size=2
    ),
    seed=st.integers(0, 2**32),
)
def test_totals_within_bounds(aspect, load, cost, extras, seed):
    import random

    extra = tuple(ExtraDice(*item) for item in extras)
    result = roll_pool(PoolRequest(aspect, load, cost, extra=extra), random.Random(seed))
    if not result.allowed:
        assert result.dice == () and result.total is None
        return
    size = result.plan.size.size
    low = size + sum(e.count + e.modifier for e in extra)
    high = 4 * size + sum(e.count * e.sides + e.modifier for e in extra)
    assert low <= result.total <= high
    assert len(result.dice) == size


def test_extra_accepts_capital_d_and_a_sum_of_groups_as_one_source():
    from d4cli.rules.dice import parse_extras

    assert parse_extras(["1D8"]) == (parse_extra("1d8"),)
    assert [e.notation for e in parse_extras(["1d4+1d6+2"])] == ["1d4", "1d6+2"]
    assert [e.notation for e in parse_extras(["2d6+3-1+1d4"])] == ["2d6", "1d4+2"]
    for bad, problem in (
        ("1d4-1d6", "dice can only be added"),
        ("1d4++2", "a sum such as"),
        ("5000d4+5001d4", "at most 10,000 dice (L2)"),
        ("1d8+2+1d0", "1d0: dice must have"),
    ):
        with pytest.raises(InputError, match=re.escape(problem)) as caught:
            parse_extras([bad])
        assert repr(bad) in str(caught.value)  # the whole value is quoted
