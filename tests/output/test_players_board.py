"""The players' board frame (`d4cli.output.render.players_board`) on small screens, from a view alone."""

from __future__ import annotations

from d4cli.fight.effects import Effect
from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.players_view import PublicRoll, public_view
from d4cli.output.render.board_frame import frame_text
from d4cli.output.render.players_board import players_frame


def _roll(number: int) -> PublicRoll:
    return PublicRoll(number, "act", 1, f"Hero {number}", True, ("Might",), (1, 2, 3), None,
                      6, None, None, None, None, None, None)  # fmt: skip


def _view(current: str):  # type: ignore[no-untyped-def]
    creatures = tuple(
        Creature(
            f"Hero {index}",
            (("Might", 3),),
            side="party",
            hp=10,
            max_hp=10,
            had_turn=index < 7,
            effects=(Effect(f"a very long blessing number {index}", ends="rounds", last_round=4),),
        )
        for index in range(12)
    )
    encounter = Encounter("Crowd", round=2, current=current, last_turn=current, creatures=creatures)
    return public_view(encounter, tuple(_roll(number) for number in range(6)))


def test_a_small_screen_keeps_the_current_row_the_next_and_the_newest_rolls():
    text = frame_text(players_frame(_view("Hero 7"), 16, 80), 80)
    lines = text.splitlines()
    assert len(lines) <= 15 and max(len(line) for line in lines) <= 80
    assert lines[:2] == ["Crowd: round 2", "now: Hero 7; next: Hero 8"]
    assert any(line.startswith(" now   Hero 7") for line in lines)
    assert "7 more above" in text and "3 more below" in text
    assert "next   Hero 8" in text and "Hero 6" not in text  # the next one before the one that went
    assert lines[-1] == "Hero 5: Might; dice 1 2 3; total 6"  # the newest roll, last
    assert "rolls" in lines and "Hero 0: Might" not in text  # older rolls gave way


def test_effects_wrap_under_the_name_and_keep_their_duration():
    text = frame_text(players_frame(_view("Hero 0"), 60, 80), 80)
    # wrapped under its own start (two spaces in), the duration whole
    assert "         a very long blessing number 0 +1d4, 3" in text
    assert "         rounds left (until the end of round 4)" in text and "…" not in text
    assert "Can still act" in text and "(R" not in text  # plain words: no rule ids
