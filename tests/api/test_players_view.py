"""What the players' screens show through `d4cli.api.encounter.Reader.view`: the roll feed from the journal,
and a hidden creature's turn kept out of sight (the view stays as it stood before that turn).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from d4cli.api.add_sheets import AddSpec
from d4cli.api.encounter import Tracker
from d4cli.fight.players_view import public_view
from d4cli.output.render.board_frame import frame_text
from d4cli.output.render.players_board import players_frame
from d4cli.output.serialize.public_view_json import public_view_json

SHADE = "Shade"


def _hidden(name: str) -> AddSpec:
    return AddSpec(name, (("Finesse", 3),), hp=8, max_hp=8, evasion=13, side="foes", hidden=True)


def _skirmish(path: Path, seed: int = 3) -> Tracker:
    """The skirmish with a hidden foe, Shade, placed after Aria (so it goes second)."""
    tracker = Tracker.init(path, template="skirmish", rng=random.Random(seed))
    tracker.add(_hidden(SHADE), after="Aria")
    return tracker


def test_after_arias_turn_the_next_cue_skips_the_hidden_foe(tmp_path: Path):
    tracker = _skirmish(tmp_path / "e.toml")
    tracker.turn_start()
    tracker.act("Aria", "dagger", target="Goblin Archer")
    tracker.turn_end()
    view = tracker.view()
    assert (view.turn, view.next_turn, view.round) == (None, "Borin", 1)
    assert tracker.status().next_turn == SHADE  # the GM's own next is the hidden one
    (roll,) = view.rolls
    assert (roll.actor, roll.kind, roll.target, roll.using) == (
        "Aria",
        "act",
        "Goblin Archer",
        ("dagger",),
    )


def test_while_the_hidden_foe_acts_the_players_keep_the_last_visible_state(tmp_path: Path):
    tracker = _skirmish(tmp_path / "e.toml")
    tracker.turn_start()
    tracker.act("Aria", "dagger", target="Goblin Archer")
    tracker.turn_end()
    before = tracker.view()
    tracker.turn_start()  # Shade's
    tracker.act(SHADE, "Finesse", target="Aria", extra=["3d6"])
    tracker.damage("Borin", 2)
    tracker.effect_add("Aria", "poisoned", "disadvantage", rounds=2)
    assert tracker.status().current == SHADE
    assert tracker.view() == before
    for width in (80, 120):
        assert frame_text(players_frame(tracker.view(), 24, width), width) == frame_text(
            players_frame(before, 24, width), width
        )
    tracker.turn_end()
    assert tracker.view() == before  # between turns, until a visible turn starts
    tracker.turn_start()
    after = tracker.view()  # Borin's turn: what the hidden turn did shows, it does not
    assert (after.turn, after.creatures[1].hp) == ("Borin", 14)
    assert SHADE not in repr(public_view_json(after))
    assert [roll.actor for roll in after.rolls] == ["Aria"]


def test_a_turn_start_straight_from_arias_turn_keeps_aria_as_now(tmp_path: Path):
    tracker = _skirmish(tmp_path / "e.toml")
    tracker.turn_start()
    before = tracker.view()
    tracker.turn_start()  # Shade's, without a turn end: Aria's turn ends with it
    assert tracker.view() == before and before.turn == "Aria"


def test_a_hidden_foe_opening_the_round_does_not_start_it_on_the_screens(tmp_path: Path):
    tracker = Tracker.init(tmp_path / "e.toml", template="skirmish", rng=random.Random(1))
    tracker.add(_hidden(SHADE))
    tracker.move(SHADE, "first")
    for _ in range(5):
        tracker.turn_start()  # Shade, Aria, Borin, the goblins: round 1
    tracker.turn_end()
    before = tracker.view()
    assert (before.round, before.turn, before.next_turn) == (1, None, "Aria")
    tracker.turn_start()  # round 2 begins with Shade's turn
    assert tracker.status().round == 2
    assert tracker.view() == before
    tracker.turn_end()
    assert tracker.view() == before  # the round it opened shows with the next visible turn
    tracker.turn_start()
    assert (tracker.view().round, tracker.view().turn) == (2, "Aria")


def test_two_hidden_turns_in_a_row_go_back_past_both(tmp_path: Path):
    tracker = _skirmish(tmp_path / "e.toml")
    tracker.add(_hidden("Wraith"), after=SHADE)
    tracker.turn_start()
    tracker.turn_end()
    before = tracker.view()
    tracker.turn_start()
    tracker.turn_start()
    assert tracker.status().current == "Wraith"
    assert tracker.view() == before


def test_a_creature_concealed_during_the_hidden_turn_leaves_the_kept_view(tmp_path: Path):
    tracker = _skirmish(tmp_path / "e.toml")
    tracker.turn_start()
    tracker.turn_end()
    tracker.turn_start()
    tracker.conceal("Goblin Brute")
    tracker.alias("Goblin Archer", "Goblin 2")
    names = [creature.name for creature in tracker.view().creatures]
    assert names == ["Aria", "Borin", "Goblin 2"]


def test_without_a_journal_back_to_the_turn_start_nobody_is_named(tmp_path: Path):
    path = tmp_path / "e.toml"
    tracker = _skirmish(path)
    tracker.turn_start()
    tracker.turn_start()
    assert tracker.view().turn == "Aria"  # a hand edit after the entries still bridges
    path.with_name("e.toml.journal").unlink()
    view = tracker.view()
    assert (view.turn, view.next_turn) == (None, "Borin")
    assert SHADE not in repr(public_view_json(view))


# --- the property: a hidden turn never changes the players' view ------------------------------

VISIBLE_MOVES = st.sampled_from(["start", "end", "act", "damage", "effect"])
HIDDEN_MOVES = st.sampled_from(["act", "damage", "effect", "heal", "exhaust"])


def _visible_move(tracker: Tracker, move: str) -> None:
    encounter = tracker.status()
    if move == "start" and encounter.next_turn != SHADE:
        tracker.turn_start()
    elif move == "end" and encounter.current not in (None, SHADE):
        tracker.turn_end()
    elif move == "act" and encounter.current not in (None, SHADE):
        tracker.act(
            encounter.current, "Finesse" if encounter.current != "Goblin Brute" else "Might"
        )
    elif move == "damage":
        tracker.damage("Goblin Brute", 1)
    elif move == "effect":
        tracker.effect_add("Borin", "inspired", "advantage", uses=1)


def _hidden_move(tracker: Tracker, move: str) -> None:
    if move == "act":
        tracker.act(SHADE, "Finesse", target="Aria", extra=["2d6"], gm=True)
    elif move == "damage":
        tracker.damage("Borin", 3)
    elif move == "effect":
        tracker.effect_add("Aria", "webbed", "disadvantage", start_of=SHADE)
    elif move == "heal":
        tracker.heal("Goblin Archer", 2)
    else:
        tracker.exhaust("Borin", 1)


@pytest.mark.slow
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.integers(0, 2**16),
    st.lists(VISIBLE_MOVES, max_size=8),
    st.booleans(),
    st.lists(HIDDEN_MOVES, max_size=4),
)
def test_the_players_view_during_a_hidden_turn_equals_the_view_before_it(
    tmp_path_factory, seed, visible, end_first, hidden
):
    tracker = _skirmish(tmp_path_factory.mktemp("hidden") / "e.toml", seed)
    for move in visible:
        _visible_move(tracker, move)
    if end_first and tracker.status().current is not None:
        tracker.turn_end()
    before = tracker.view()
    tracker.turn_start(SHADE)
    for move in hidden:
        _hidden_move(tracker, move)
        assert tracker.view() == before
    tracker.turn_end()
    assert tracker.view() == before


def test_a_long_hidden_turn_is_found_past_the_newest_entries(tmp_path: Path, monkeypatch):
    from d4cli.api import players

    monkeypatch.setattr(players, "RECENT", 8)  # the newest 8 entries do not reach its start
    tracker = _skirmish(tmp_path / "e.toml")
    for _ in range(3):
        tracker.turn_start()
        tracker.act(tracker.status().current or "", "Finesse", gm=True)
        tracker.turn_end()
        while tracker.status().next_turn != SHADE:
            tracker.turn_start()
            tracker.turn_end()
    before = tracker.view()
    tracker.turn_start()  # Shade's
    for _ in range(10):
        tracker.damage("Borin", 1)
    assert tracker.view() == before and before.rolls


def test_a_players_replay_inside_a_hidden_turn_shows_what_the_screens_kept(tmp_path: Path):
    tracker = _skirmish(tmp_path / "e.toml")
    tracker.turn_start()
    tracker.turn_end()
    kept = tracker.view()
    tracker.turn_start()  # Shade's
    tracker.damage("Borin", 4)
    seq = tracker.history(1).entries[-1]["seq"]
    tracker.turn_start()  # Borin's: the live screens move on
    _, then = tracker.players_state_at(seq)
    replayed = public_view(then)
    assert (replayed.turn, replayed.next_turn) == (kept.turn, kept.next_turn) == (None, "Borin")
    assert replayed.creatures == kept.creatures  # Borin's 16 hp, not the 12 of the hidden turn
    _, visible = tracker.players_state_at(seq + 1)
    assert public_view(visible).turn == "Borin"
