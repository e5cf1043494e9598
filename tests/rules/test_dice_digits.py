"""Dice notation reads every number whole (L2, L3): seven digits or more are never split into a
number and dice (``0010001d4`` was read as ``1000 + 1d4``); a number too large is refused
naming the value, as every other number is."""

from __future__ import annotations

import pytest
from _cli import fails
from hypothesis import given
from hypothesis import strategies as st

from d4cli.rules.dice import parse_expression, parse_extras
from d4cli.rules.errors import InputError


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("0010001d4", "at most 10,000 dice"),
        ("1d0001001", "1 to 1000 sides"),
        ("1d4+0010001", "within -1000..1000"),
        ("1d4+1d6+1234567", "within -1000..1000"),
        ("1d4+" + "9" * 5000, "within -1000..1000"),
        ("9" * 5000 + "d4", "at most 10,000 dice"),
        ("1d41d4", "must be dice"),
    ],
)
def test_a_long_number_in_dice_is_refused_naming_it(text, says):
    with pytest.raises(InputError) as caught:
        parse_extras([text])
    assert says in str(caught.value)
    assert text[:20] in str(caught.value)
    with pytest.raises(InputError):
        parse_expression(text)


def test_leading_zeros_are_the_same_number():
    assert [e.notation for e in parse_extras(["0001d0004+0000001000"])] == ["1d4+1000"]
    assert [t.notation for t in parse_expression("00002d6+0003").terms] == ["2d6+3"]


@given(st.integers(0, 10**12), st.integers(1, 10**8), st.integers(0, 8))
def test_any_count_is_read_whole(count, sides, zeros):
    text = "0" * zeros + f"{count}d{sides}"
    try:
        (extra,) = parse_extras([text])
    except InputError:
        assert not (1 <= count <= 10_000 and 1 <= sides <= 1000)
    else:
        assert (extra.count, extra.sides, extra.modifier) == (count, sides, 0)


def test_act_with_a_seven_digit_extra_deals_nothing(encounter_file):
    line = fails(2, encounter_file, "act", "Aria", "Finesse", "--extra", "0010001d4", "--seed", "1")
    assert "'0010001d4'" in line and "at most 10,000 dice (L2)" in line
