"""``POST /seat/TOKEN/act`` and ``/preview`` as amended: ``action`` (a named action) beside
``aspect``, ``key`` for exactly once, ``id`` in every answer, 202 when queued and 200 when carried
out (the roll inside, with how it ended); every fault a 400 naming its field, nothing written."""

from __future__ import annotations

import pytest
from _cli import files
from _seat_web import FILE, SeatServed, seated

from d4cli.api.encounter import Tracker
from d4cli.api.front_ends import SeatDesk
from d4cli.api.rolls import ScriptedDice


@pytest.fixture
def served() -> SeatServed:
    return seated()


def test_a_named_action_is_taken_as_action(served):
    seat = f"/seat/{served.aria}"
    preview = served.post(f"{seat}/preview", {"action": "dagger", "target": "Goblin 2"})
    assert preview.status_code == 200, preview.text
    assert preview.json()["faces"] == [4, 4, 4, 4, 4, 4]  # 5d4 and the dagger's 1d4
    answer = served.post(f"{seat}/act", {"action": "dagger", "target": "Goblin 2"})
    assert answer.status_code == 202, answer.text
    request = answer.json()["request"]
    assert request["id"] == 1 and "number" not in request
    assert request["act"]["aspect"] == "dagger" and request["status"] == "pending"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"aspect": "Finesse", "action": "dagger"}, "action"),
        ({"action": "fly"}, "action"),
        ({"action": 3}, "action"),
        ({"aspect": "Finesse", "key": 12345678}, "key"),
        ({"aspect": "Finesse", "key": "short"}, "key"),
    ],
)
def test_a_bad_action_or_key_is_a_400_naming_it_and_writes_nothing(served, body, field):
    before = files(FILE.resolve())
    answer = served.post(f"/seat/{served.aria}/act", body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["field"] == field
    assert files(FILE.resolve()) == before


def test_the_same_key_again_answers_the_first_request_and_another_body_is_400(served):
    seat = f"/seat/{served.aria}"
    body = {"aspect": "Finesse", "target": "Goblin 2", "key": "tap-0000001"}
    first = served.post(f"{seat}/act", body)
    before = files(FILE.resolve())
    again = served.post(f"{seat}/act", body)
    assert (first.status_code, again.status_code) == (202, 202)
    assert again.json() == first.json()
    assert files(FILE.resolve()) == before
    other = served.post(f"{seat}/act", {**body, "aspect": "Might"})
    assert other.status_code == 400 and other.json()["field"] == "key"
    assert files(FILE.resolve()) == before
    assert [row.number for row in SeatDesk(Tracker(FILE)).pending()] == [1]


def test_carried_out_at_once_is_200_with_the_roll_and_how_it_ended():
    seated()
    Tracker(FILE).set_view({"seats": "auto"})
    served = SeatServed(rng=ScriptedDice([4, 4, 4, 4, 4, 4]))
    body = {"action": "dagger", "target": "Goblin 2", "key": "tap-0000002"}
    answer = served.post(f"/seat/{served.aria}/act", body)
    assert answer.status_code == 200, answer.text
    roll = answer.json()["request"]["roll"]
    assert roll["dice"] == [4, 4, 4, 4, 4] and roll["total"] == 24
    # Goblin 2's Evasion is hidden from the players: how it ended shows, the damage does not.
    assert roll["outcome"] == "damage" and roll["outcome_text"] == "hit"
    assert roll["damage"] is None
    again = served.post(f"/seat/{served.aria}/act", body)
    assert again.status_code == 200 and again.json()["request"]["roll"] == roll
    view = served.get(f"/seat/{served.aria}/view.json").json()
    assert view["requests"][0]["roll"] == roll  # a reload reads the same result
