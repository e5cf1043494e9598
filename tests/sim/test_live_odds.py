"""The live odds of the board and the players' page: side-level percentages from the state as it
is, with the same seed for every state; the players' odds never tell of a hidden creature."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from d4cli.api.live_odds import live_odds, seen_by_players
from d4cli.fight.sheets import copy_sheet
from d4cli.fileformat.encounter_toml import bundled_examples, parse_encounter
from d4cli.output.odds_line import odds_text
from d4cli.output.serialize.public_view_json import odds_json
from d4cli.sim.side_odds import SideOdds, moved


def example(name: str):
    path = bundled_examples()[name]
    return parse_encounter(path.read_text(encoding="utf-8"), path)


def with_hp(encounter, name: str, hp: int):
    position = encounter.position_of(name)
    return encounter.with_creature(position, encounter.creatures[position]._replace(hp=hp))


RUNS = 60  # the board plays LIVE_RUNS; fewer keep these tests quick


def test_the_ambush_is_close_and_a_wounded_chief_moves_it_to_the_party():
    ambush = example("ambush")
    # The batch engine's fights for the board's seed (d4cli.sim.batch).
    assert live_odds(ambush, runs=RUNS) == (("goblins", 53), ("party", 47))
    hurt = with_hp(ambush, "Goblin Chief", 4)
    assert live_odds(hurt, runs=RUNS) == (("goblins", 0), ("party", 100))
    assert moved(live_odds(ambush, runs=RUNS), live_odds(hurt, runs=RUNS)) == (
        SideOdds("goblins", 0, -53),
        SideOdds("party", 100, 53),
    )


@pytest.mark.slow  # 600 fights of the ambush
def test_the_same_state_gives_the_same_odds_at_the_boards_runs():
    assert live_odds(example("ambush")) == (("goblins", 56), ("party", 44))
    assert live_odds(example("ambush")) == live_odds(example("ambush"))


def test_a_fight_over_is_certain_and_one_that_cannot_be_played_has_no_odds():
    duel = example("duel")
    assert live_odds(with_hp(duel, "The Masked Blade", 0)) == (("Sera", 100), ("the Blade", 0))
    alone = duel._replace(creatures=duel.creatures[:1])
    assert live_odds(alone) is None


def test_moves_are_against_the_odds_before_the_change_and_none_for_a_new_side():
    assert moved(None, (("party", 60),)) == (SideOdds("party", 60, None),)
    assert moved((("party", 60), ("foes", 40)), (("party", 48), ("orcs", 52))) == (
        SideOdds("party", 48, -12),
        SideOdds("orcs", 52, None),
    )
    assert moved((("party", 60),), None) is None


def test_the_players_odds_leave_the_hidden_creatures_out_as_remove_would():
    ambush = example("ambush")
    position = ambush.position_of("Goblin Chief")
    hidden = ambush.with_creature(position, ambush.creatures[position]._replace(hidden=True))
    assert [c.name for c in seen_by_players(hidden).creatures] == [
        "Goblin Archer",
        "Goblin Sniper",
        "Aria",
        "Borin",
    ]
    assert live_odds(hidden, runs=RUNS) == live_odds(ambush, runs=RUNS)  # the GM's count it
    assert live_odds(hidden, players=True, runs=RUNS) == (("goblins", 0), ("party", 100))


SECRET = "QsecretZ"


@pytest.mark.slow  # a few hundred fights per example
@settings(max_examples=40, deadline=None)
@given(
    side=st.sampled_from(["goblins", "party", SECRET + " side"]),
    hp=st.integers(1, 40),
    might=st.integers(1, 8),
    at=st.integers(0, 5),
    current=st.booleans(),
)
def test_a_hidden_creature_never_shows_in_the_players_odds(side, hp, might, at, current):
    """Its existence is not told: the players' odds are those of the fight without it, and no
    name of it (nor its side when only it is on that side) is in the line or its JSON."""
    ambush = example("ambush")
    chief = ambush.find("Goblin Chief")
    secret = copy_sheet(chief, SECRET, aspects=(("Might", might),), hp=hp)
    secret = secret._replace(side=side, hidden=True)
    creatures = list(ambush.creatures)
    creatures.insert(at, secret)
    with_secret = ambush._replace(
        creatures=tuple(creatures),
        round=1 if current else 0,
        current=SECRET if current else None,
    )
    seen = live_odds(with_secret, players=True, runs=40)
    never = ambush._replace(round=with_secret.round)  # the same fight, that creature never in it
    assert seen == live_odds(never, players=True, runs=40)
    line = moved(None, seen)
    for text in (odds_text(line, False), odds_text(line, True), json.dumps(odds_json(line, False))):
        assert text is not None and SECRET not in text


def test_a_hidden_creature_on_a_side_of_its_own_whose_turn_runs_is_not_told():
    ambush = example("ambush")
    secret = copy_sheet(ambush.find("Goblin Chief"), SECRET)._replace(
        side=SECRET + " side", hidden=True
    )
    with_secret = ambush._replace(creatures=(secret, *ambush.creatures), round=1, current=SECRET)
    seen = live_odds(with_secret, players=True, runs=20)
    assert seen == live_odds(ambush._replace(round=1), runs=20)
    assert [side for side, _ in live_odds(with_secret, runs=20)] == [
        SECRET + " side",
        "goblins",
        "party",
    ]  # the GM's odds have its side; the players' never
    assert [side for side, _ in seen] == ["goblins", "party"]
    assert SECRET not in (odds_text(moved(None, seen), False) or "")


def test_the_players_odds_of_a_file_with_nothing_hidden_are_the_gms():
    duel = example("duel")
    assert live_odds(duel, players=True, runs=RUNS) == live_odds(duel, runs=RUNS)
