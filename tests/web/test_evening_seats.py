"""Seats across ``next``: the same join link opens the next fight while the app keeps serving,
the page names the fight, a seat whose creature did not carry says it ended, and nothing the
GM hid in the finished fight reaches a seat."""

from __future__ import annotations

import pytest
from _cli import ok
from _seat_web import SeatServed, seated
from _serve import SECRETS


@pytest.fixture
def served() -> SeatServed:
    return seated()


def test_the_same_links_open_the_next_fight_and_the_hidden_stays_hidden(served):
    first = served.get(f"/seat/{served.aria}/view.json")
    assert first.status_code == 200 and first.json()["fight"] == 1
    ok("add", "Goblin", "--aspect", "Might=2", "--side", "foes")
    ok("bestiary", "save", "Goblin")
    ok("next", "--force", "--name", "The bridge", "--add", "goblin x2")
    for token, name in ((served.aria, "Aria"), (served.borin, "Borin")):
        assert served.get(f"/seat/{token}").status_code == 200
        answer = served.get(f"/seat/{token}/view.json")
        assert answer.status_code == 200, answer.text
        shown = answer.json()
        assert (shown["fight"], shown["name"], shown["round"]) == (2, "The bridge", 0)
        assert shown["seat"]["name"] == name and shown["seat"]["effects"] == []
        assert [c["name"] for c in shown["creatures"]] == ["Aria", "Borin", "Goblin 1", "Goblin 2"]
        assert [s for s in SECRETS if s in answer.text] == []
        assert shown["rolls"] == [] and shown["requests"] == []


def test_a_seat_whose_creature_did_not_carry_says_it_ended(served):
    ok("next", "--force", "--keep", "foes")
    answer = served.get(f"/seat/{served.aria}/view.json")
    assert answer.status_code == 410
    assert answer.json() == {
        "error": "this seat has ended: its creature is not in this fight",
        "field": "token",
    }
    assert [s for s in SECRETS if s in answer.text] == []
    ok("undo")
    assert served.get(f"/seat/{served.aria}/view.json").json()["fight"] == 1
