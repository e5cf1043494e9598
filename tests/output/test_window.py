"""The window of a turn order that follows the current creature (`d4cli.output.window`)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from d4cli.output.window import Window, focus_of, window


def test_all_rows_when_they_fit():
    assert window([1, 2, 1], 2, 4) == Window(0, 3)
    assert window([], 0, 10) == Window(0, 0)


def test_twenty_five_rows_in_ten_lines_follow_the_current_one():
    # row 12 is current: one before it, then as many after as fit, a line each for "more"
    shown = window([1] * 25, 12, 10)
    assert shown == Window(11, 19)
    assert (shown.above(), shown.below(25)) == (11, 6)


def test_short_of_room_the_next_one_comes_before_the_one_that_went():
    assert window([1] * 25, 12, 4) == Window(12, 14)
    assert window([1] * 25, 12, 5) == Window(11, 14)
    assert window([2] * 25, 12, 5) == Window(12, 13)  # current 2, a line above, one below
    assert window([2] * 25, 12, 6) == Window(12, 14)  # and the next 2


def test_at_the_top_no_more_above_line_is_spent():
    assert window([1] * 25, 0, 10) == Window(0, 9)
    assert window([1] * 25, 1, 10) == Window(0, 9)


def test_near_the_end_the_room_left_goes_to_rows_above():
    assert window([1] * 25, 24, 10) == Window(16, 25)


def test_taller_rows_count_their_lines():
    # rows of 3 lines (a creature and two effects): 10 lines hold the current one and the next two
    assert window([3] * 6, 2, 11) == Window(1, 4)


def test_the_current_row_shows_even_when_it_alone_is_too_tall():
    assert window([1, 20, 1], 1, 5) == Window(1, 2)


def test_the_focus_is_the_current_creature_else_the_next():
    assert (focus_of(3, 5), focus_of(None, 5), focus_of(None, None)) == (3, 5, 0)


@given(
    st.lists(st.integers(1, 4), min_size=1, max_size=40),
    st.integers(0, 39),
    st.integers(3, 40),
)
def test_the_window_keeps_the_focus_and_fits_when_it_can(heights, focus, room):
    focus = min(focus, len(heights) - 1)
    shown = window(heights, focus, room)
    assert shown.start <= focus < shown.end
    used = sum(heights[shown.start : shown.end]) + (shown.start > 0) + (shown.end < len(heights))
    if heights[focus] + 2 <= room:
        assert used <= room
