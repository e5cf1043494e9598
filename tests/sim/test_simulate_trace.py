"""The simulator's transitions give the very records and states of the recorded trace (R2-R20).

`tests/_sim_trace.py` plays seeded fights through `start_turn`, `team`, `act`
and `end_turn`; the fixture holds what the reference implementation gave for
every transition (JSON record and encounter state) and what `play` returned.
Any fast path in those transitions or in `play` must reproduce them exactly.
"""

from __future__ import annotations

import functools

import pytest
from _sim_trace import FIGHTS_PER_SETUP, load_fixture, setups, trace_fight

# 240 seeded fights replayed record by record against the recorded trace (22 MB of JSON): seconds of CPU.
pytestmark = pytest.mark.slow

SETUPS = setups()


@functools.cache
def recorded() -> dict[str, list[dict]]:
    """The recorded trace, read once when a test first needs it (not while collecting)."""
    return load_fixture()


def test_the_fixture_covers_every_setup_and_enough_fights():
    FIXTURE = recorded()
    assert sorted(FIXTURE) == sorted(label for label, _, _ in SETUPS)
    assert sum(len(fights) for fights in FIXTURE.values()) == len(SETUPS) * FIGHTS_PER_SETUP >= 200
    kinds = {
        record["kind"]
        for fights in FIXTURE.values()
        for fight in fights
        for record in fight["records"]
    }
    assert kinds == {"turn-start", "turn-end", "team", "pool"}
    reasons = {
        ended["reason"]
        for label in ("effects/turn", "effects/round-zero")
        for fight in FIXTURE[label]
        for record in fight["records"]
        for ended in record.get("effects_ended") or ()
    }
    assert reasons == {
        "used up",
        "start of Borin's turn",
        "end of Aria's turn",
        "end of Goblin Brute's turn",
        "end of round 1",
        "end of round 2",
        "end of round 3",
    }
    outcomes = {fight["play"][0] for fights in FIXTURE.values() for fight in fights}
    assert outcomes == {0, 1, None}


@pytest.mark.parametrize("label, mode, setup", SETUPS, ids=[label for label, _, _ in SETUPS])
def test_records_states_and_play_match_the_recorded_trace(label, mode, setup):
    for index, expected in enumerate(recorded()[label]):
        got = trace_fight(setup, 7, mode, index)
        for step, (want, have) in enumerate(zip(expected["records"], got["records"])):
            assert have == want, f"{label} fight {index} record {step}"
        assert len(got["records"]) == len(expected["records"]), f"{label} fight {index}"
        for step, (want, have) in enumerate(zip(expected["states"], got["states"])):
            assert have == want, f"{label} fight {index} state after record {step}"
        assert got["play"] == expected["play"], f"{label} fight {index}: play()"
        kinds = [record["kind"] for record in got["records"]]
        actions, reactions = got["play"][1][2], got["play"][1][3]
        assert (kinds.count("pool"), kinds.count("team")) == (actions, reactions), (
            f"{label} fight {index}"
        )
