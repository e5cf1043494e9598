"""A side's win in words, the one wording every screen uses (`d4cli.output.sidetext`)."""

from __future__ import annotations

import pytest

from d4cli.output.sidetext import side_wins


@pytest.mark.parametrize(
    ("side", "said"),
    [
        ("goblins", "goblins win"),
        ("foes", "foes win"),
        ("Goblins", "Goblins win"),
        ("the kobolds", "the kobolds win"),
        ("party", "party wins"),
        ("Sera", "Sera wins"),
        ("boss", "boss wins"),
        ("chorus", "chorus wins"),
        ("", " wins"),
    ],
)
def test_the_verb_agrees_with_the_sides_name(side: str, said: str) -> None:
    assert side_wins(side) == said
