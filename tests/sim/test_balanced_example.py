"""The bundled ``ambush`` is a close fight under the default policy; the ``skirmish`` stays the baseline."""

from __future__ import annotations

import pytest
from _cli import ok, ok_json

from d4cli.fileformat.encounter_toml import bundled_examples, parse_encounter
from d4cli.sim.engine import run_chunk
from d4cli.sim.report import wilson
from d4cli.sim.setup import prepare


def example(name: str):
    path = bundled_examples()[name]
    return parse_encounter(path.read_text(), path)


@pytest.mark.slow  # over a second of simulation or child processes
def test_the_party_wins_the_ambush_between_40_and_70_percent_in_turn_mode():
    ambush = example("ambush")
    assert {p.reaction for p in prepare(ambush, "turn").policies} == {"weigh"}
    runs = 2000
    tally = run_chunk(prepare(ambush, "turn"), 1, "turn", 0, runs)
    party = prepare(ambush, "turn").sides.index("party")
    low, high = wilson(tally.wins[party], runs)
    assert 0.40 <= low and high <= 0.70, (low, high)


def test_the_skirmish_is_the_one_sided_baseline():
    tally = run_chunk(prepare(example("skirmish"), "turn"), 1, "turn", 0, 200)
    assert tally.wins[0] == 200


def test_init_from_ambush_and_help_simulate_say_which_shows_what(isolated_env):
    ok("init", "--from", "ambush")
    assert [c["name"] for c in ok_json("status")["creatures"]] == [
        "Goblin Archer",
        "Goblin Sniper",
        "Aria",
        "Borin",
        "Goblin Chief",
    ]
    text = " ".join(ok("help", "simulate").stdout.split())
    assert "`ambush` (a fight the party wins about half the time in turn mode" in text
    assert "`skirmish` (a party that always wins: a baseline)" in text
    assert 'reaction = "always"' in text
