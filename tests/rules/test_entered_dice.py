"""`EnteredDice`: real dice entered by hand, handed to the pure rules as a random source."""

from __future__ import annotations

import pytest

from d4cli.rules.action_roll import CheckRequest, roll_check
from d4cli.rules.dice import EnteredDice, ExtraDice, ScriptedDice, parse_faces
from d4cli.rules.errors import InputError
from d4cli.rules.pool import PoolRequest, roll_pool


def test_a_pool_takes_its_d4s_then_each_extra_group_in_order():
    dice = EnteredDice([3, 1, 4, 2, 6, 5])
    request = PoolRequest(aspect=4, extra=(ExtraDice(1, 6), ExtraDice(1, 8, 2)))
    result = roll_pool(request, dice)
    dice.finish()
    assert result.dice == (3, 1, 4, 2)
    assert [roll.dice for roll in result.extra] == [(6,), (5,)]
    assert result.total == 10 + 6 + 5 + 2  # R6, R7


def test_a_check_takes_the_d20_then_the_advantage_d6s_then_the_critical_d6():
    dice = EnteredDice([20, 2, 6, 4])
    result = roll_check(CheckRequest(advantage_level=2), dice)
    dice.finish()
    assert (result.natural, result.advantage_dice, result.crit_die) == (20, (2, 6), 4)
    assert result.total == 20 + 6 + 4  # C3, C5


def test_too_few_too_many_and_out_of_range_name_the_field():
    with pytest.raises(InputError, match="faces: '1,2': 2 faces entered; the roll needs more"):
        roll_pool(PoolRequest(aspect=3), EnteredDice([1, 2]))
    dice = EnteredDice([1, 2, 3, 4])
    roll_pool(PoolRequest(aspect=3), dice)
    with pytest.raises(InputError, match="the roll takes exactly 3"):
        dice.finish()
    with pytest.raises(InputError, match="faces: 5: face 2 must be within 1..4"):
        roll_pool(PoolRequest(aspect=3), EnteredDice([1, 5, 1]))


@pytest.mark.parametrize("text", ["", "1,,2", "1, x", "-1", "1.5", "١"])
def test_faces_are_whole_numbers_joined_by_commas(text):
    with pytest.raises(InputError) as caught:
        parse_faces(text, "--faces")
    assert caught.value.field == "--faces"


def test_parse_faces_refuses_padded_parts():
    # L3: `" 3"` is no plain whole number, one face among others as much as one option.
    assert parse_faces("3,1,4,2") == (3, 1, 4, 2)
    for text in ("3, 1,4,2", "3,1,4 ,2", " 3,1", "3,1 "):
        with pytest.raises(InputError, match="is not a face"):
            parse_faces(text)


def test_scripted_dice_refuse_a_face_off_the_die_and_running_out():
    # An error, not an assert: under `python -O` a 9 must still never count as a d4's face.
    with pytest.raises(InputError, match="rng: 9: scripted die 2 is not a d4"):
        roll_pool(PoolRequest(aspect=3), ScriptedDice([4, 9, 1]))
    with pytest.raises(InputError, match="scripted dice ran out"):
        roll_pool(PoolRequest(aspect=3), ScriptedDice([4, 4]))
