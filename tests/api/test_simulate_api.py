"""`d4cli.api.simulation.simulate` and `d4cli.api.simulation.forecast`: a script gets what the commands print, from
plain values, and bad values raise the library's errors naming its keywords."""

from __future__ import annotations

import subprocess
import sys

import pytest
from _cli import ok_json

from d4cli.api import InputError
from d4cli.api.encounter import Encounter, Reader, Tracker
from d4cli.api.simulation import FightOver, Played, Simulation, Sweep, decided, forecast, simulate
from d4cli.api.templates import template_path


@pytest.fixture
def ambush(tmp_path):
    return Tracker.init(tmp_path / "ambush.toml", template="ambush")


def test_a_seeded_simulation_is_the_commands_report(ambush):
    found = simulate(ambush.path, runs=300, seed=7, modes=["turn", "round"], jobs=1)
    printed = ok_json(
        "simulate",
        str(ambush.path),
        "--runs",
        "300",
        "--seed",
        "7",
        "--modes",
        "turn,round",
        "--jobs",
        "1",
    )
    assert isinstance(found, Simulation) and found.sides == ("goblins", "party")
    assert [(cell.value, cell.mode) for cell in found.cells] == [(None, "turn"), (None, "round")]
    assert simulate(ambush, runs=300, seed=7, modes="turn, round").report() == printed
    for mode in printed["modes"]:
        assert found.wins(mode["mode"]) == {side: got["wins"] for side, got in mode["wins"].items()}
        assert sum(found.wins(mode["mode"]).values()) + mode["draws"]["draws"] == 300
    assert found.report() == printed
    assert (found.engine, found.engine_reason) == (printed["engine"]["name"], None)


def test_the_same_fights_from_a_path_a_reader_a_tracker_or_an_encounter(ambush):
    sources = [str(ambush.path), Reader(ambush.path), ambush, ambush.status()]
    reports = [
        simulate(source, runs=40, seed=3, modes=["round-zero"]).report() for source in sources
    ]
    assert all(report == reports[0] for report in reports)
    assert reports[0]["modes"][0]["runs"] == 40


def test_a_sweep_gives_one_cell_per_setting_and_mode_as_the_command():
    path = template_path("duel")
    found = simulate(path, runs=60, seed=2, sweep="reserve=0..2", modes=["turn"], jobs=1)
    assert found.sweep == Sweep("reserve", (0, 1, 2), "reserve=0..2")
    assert [cell.value for cell in found.cells] == [0, 1, 2]
    assert all(isinstance(cell, Played) and cell.tally.runs == 60 for cell in found.cells)
    printed = ok_json(
        "simulate",
        "--from",
        "duel",
        "--runs",
        "60",
        "--seed",
        "2",
        "--sweep",
        "reserve=0..2",
        "--modes",
        "turn",
        "--jobs",
        "1",
    )
    assert found.report() == printed
    by_record = simulate(path, runs=60, seed=2, sweep=Sweep("reserve", (0, 1, 2)), modes=["turn"])
    assert by_record.report()["rows"] == printed["rows"]


def test_progress_counts_every_run_played():
    seen: list[tuple[int, int]] = []
    simulate(
        template_path("duel"),
        runs=50,
        seed=1,
        modes=["turn", "round"],
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen[-1] == (100, 100) and all(total == 100 for _, total in seen)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_a_seeded_forecast_is_the_commands(ambush):
    ambush.turn_start()
    found = forecast(ambush, runs=600, seed=4)
    printed = ok_json("forecast", "--file", str(ambush.path), "--runs", "600", "--seed", "4")
    assert found.runs == 600 and found.seed == 4 and found.engine == "batch"
    wins = {chance.side: chance.wins for chance in found.chances}
    assert wins == {side: got["wins"] for side, got in printed["wins"].items()}
    assert sum(wins.values()) + found.draws.wins == 600
    assert all(chance.low <= chance.rate <= chance.high for chance in found.chances)


def test_a_fight_already_over_raises_naming_the_winner(ambush):
    encounter: Encounter = ambush.status()
    for creature in encounter.creatures:
        if creature.side == "goblins":
            encounter = encounter.with_creature(
                encounter.position_of(creature.name), creature._replace(hp=0)
            )
    with pytest.raises(FightOver) as over:
        forecast(encounter, runs=10, seed=1)
    assert over.value.winner == "party" and isinstance(over.value, InputError)
    settled = decided(encounter, over.value.winner)
    assert [(c.side, c.rate) for c in settled.chances] == [("goblins", 0.0), ("party", 1.0)]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda p: simulate(p, runs=0), "runs: 0: must be within 1..10000000"),
        (lambda p: simulate(p, runs=True), "runs: true: must be a whole number"),
        (lambda p: simulate(p, modes=["turn", "sideways"]), "modes: 'sideways': unknown mode"),
        (lambda p: simulate(p, modes=["turn", "turn"]), "modes: 'turn,turn': names a mode twice"),
        (lambda p: simulate(p, modes="turn, turn"), "modes: 'turn, turn': names a mode twice"),
        (lambda p: simulate(p, modes=[]), "modes: name one mode or more"),
        (lambda p: simulate(p, max_rounds=0), "max_rounds: 0: must be within 1..100000"),
        (lambda p: simulate(p, target="closest"), "target: 'closest': must be lowest-hp or random"),
        (lambda p: simulate(p, engine="fast"), "engine: 'fast': unknown engine"),
        (lambda p: simulate(p, sweep="luck=0..2"), "sweep: 'luck=0..2': unknown key"),
        (lambda p: simulate(p, sweep=Sweep("buffer", ())), "sweep: 'buffer=': give 1..51 settings"),
        (
            lambda p: simulate(p, reserve=1, sweep="reserve=0..1"),
            "reserve: give reserve or sweep reserve=0..1, not both",
        ),
        (lambda p: simulate(p, sweep="buffer:Nobody=0..1"), "sweep: 'buffer:Nobody'"),
        (lambda p: simulate(p, scheduler="not an address"), "scheduler: 'not an address'"),
        (lambda p: simulate(p, seed=-1), "seed: -1: must be within 0.."),
        (lambda p: simulate(p, jobs=0), "jobs: 0: must be within 1.."),
        (lambda p: forecast(p, runs=2_000_000), "runs: 2000000: must be within 1..1000000"),
        (lambda p: forecast(p, engine="fast"), "engine: 'fast': unknown engine"),
        (
            lambda p: simulate(42),
            "encounter: 42: must be an Encounter or an object with status() or text or a path",
        ),
    ],
)
def test_bad_values_raise_input_errors_naming_the_keyword(call, message):
    with pytest.raises(InputError) as error:
        call(template_path("duel"))
    assert str(error.value).startswith(message)


def test_importing_the_library_does_not_load_the_simulator():
    code = (
        "import sys, d4cli.api; "
        "print(sorted(m for m in sys.modules if m.startswith(('d4cli.sim', 'multiprocessing', 'numpy'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert loaded.stdout.strip() == "[]"
