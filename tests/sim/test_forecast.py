"""Forecast: the simulator played on from the encounter as it stands, in the file's mode (R12, R18)."""

from __future__ import annotations

import pytest

from d4cli.fight.sides import FightEnd, encounter_end
from d4cli.fileformat.encounter_toml import bundled_examples, parse_encounter
from d4cli.rules.errors import InputError
from d4cli.sim.engine import Tally
from d4cli.sim.forecast import FightOver, check_running, forecast, forecast_of, sim_mode
from d4cli.sim.pieces import run_all
from d4cli.sim.setup import prepare


def example(name: str):
    path = bundled_examples()[name]
    return parse_encounter(path.read_text(), path)


def with_hp(encounter, **hp):
    return encounter._replace(
        creatures=tuple(
            c._replace(hp=hp[c.name.split()[-1]]) if c.name.split()[-1] in hp else c
            for c in encounter.creatures
        )
    )


def test_the_file_mode_picks_the_simulator_mode():
    duel = example("duel")
    assert sim_mode(example("skirmish")) == "turn"
    assert sim_mode(duel) == "round"
    assert sim_mode(duel._replace(round_reset="zero")) == "round-zero"


def test_forecast_is_the_simulators_runs_in_the_files_mode():
    skirmish = example("skirmish")
    found = forecast(skirmish, runs=300, seed=7)
    tally = run_all([("x", "turn", prepare(skirmish, "turn"))], 300, 7, 1)["x"]
    assert [c.wins for c in found.chances] == tally.wins
    assert found.draws.wins == tally.draws
    assert sum(c.wins for c in found.chances) + found.draws.wins == 300
    assert found.mode == "turn" and found.runs == 300 and found.seed == 7


def test_forecast_does_not_depend_on_the_processes():
    duel = example("duel")
    assert forecast(duel, runs=400, seed=3, jobs=1) == forecast(duel, runs=400, seed=3, jobs=2)


def test_a_side_one_blow_from_the_end_is_forecast_to_lose():
    # The Brute and the Archer at 1 hp against a fresh party: the foes almost never win.
    skirmish = with_hp(example("skirmish"), Archer=1, Brute=1)
    found = forecast(skirmish, runs=200, seed=1)
    party, foes = found.chances
    assert party.rate > 0.9 > foes.rate
    assert party.low <= party.rate <= party.high
    assert found.rounds_median == 1


def test_forecast_of_a_tally_gives_wilson_intervals_and_rounds_left():
    tally = Tally(2)
    for rounds, won in [(1, 0), (2, 0), (2, 1), (3, 0), (100, None)]:
        tally.add_run(won, [rounds, 0, 0, 0, 0, 0, 0], {})
    found = forecast_of(example("duel"), "round", ("Sera", "the Blade"), tally, seed=5)
    assert [c.wins for c in found.chances] == [3, 1]
    assert found.chances[0].rate == 0.6
    assert found.draws.wins == 1
    assert (found.finished, found.rounds_median, found.rounds_p90) == (4, 2, 3)
    assert (
        0.23 < found.chances[0].low < 0.24 and 0.88 < found.chances[0].high < 0.89
    )  # Wilson, 3 of 5


@pytest.mark.parametrize(
    ("hp", "won"), [({"Archer": 0, "Brute": 0}, "party"), ({"Aria": 0, "Borin": 0}, "foes")]
)
def test_a_fight_already_over_says_who_won(hp, won):
    over = with_hp(example("skirmish"), **hp)
    assert encounter_end(over) == FightEnd(won)
    with pytest.raises(FightOver) as caught:
        check_running(over)
    assert caught.value.winner == won
    assert f"the fight is over: {won} won (R21)" in str(caught.value)
    with pytest.raises(FightOver):
        forecast(over, runs=10)


def test_nobody_up_is_over_without_a_winner():
    over = with_hp(example("skirmish"), Aria=0, Borin=0, Archer=0, Brute=0)
    assert encounter_end(over) == FightEnd(None)
    with pytest.raises(FightOver, match="everyone is down, no side won"):
        forecast(over, runs=10)


@pytest.mark.parametrize("runs", [0, 1_000_001])
def test_runs_out_of_range_are_refused(runs):
    with pytest.raises(InputError, match="^runs: "):
        forecast(example("duel"), runs=runs)
