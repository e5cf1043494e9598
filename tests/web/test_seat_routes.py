"""The seats' routes over ASGI: the page, its view, its preview and its act, in approve and auto
mode; every fault a JSON error naming the field with nothing queued or written; the stream."""

from __future__ import annotations

import asyncio
import json

import pytest
from _cli import files, ok
from _seat_web import FILE, JSON, SeatServed, seated
from _serve import SECRETS
from _web import SECURITY, open_stream

from d4cli.api.encounter import Tracker
from d4cli.api.rolls import ScriptedDice
from d4cli.api.seat_requests import SeatDesk
from d4cli.api.seats import Seats


@pytest.fixture
def served() -> SeatServed:
    return seated()


def _auto() -> None:
    Tracker(FILE).set_view({"seats": "auto"})


def test_the_page_is_a_shell_with_its_assets_and_no_inline_code(served):
    answer = served.get(f"/seat/{served.aria}")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    assert all(answer.headers[k] == v for k, v in SECURITY.items())
    assert answer.headers["cache-control"] == "no-store"
    page = answer.text
    assert '<script src="/seat-assets/seat.js"></script>' in page
    assert "<script>" not in page and "style=" not in page and "<style" not in page
    assert served.aria not in page  # the token lives in the address bar alone
    js = served.get("/seat-assets/seat.js")
    css = served.get("/seat-assets/seat.css")
    assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript")
    assert css.status_code == 200 and "clamp(" in css.text
    assert "innerHTML" not in js.text and "textContent" in js.text
    assert served.get("/seat-assets/../encounter.toml").status_code == 404


def test_the_view_is_the_tables_plus_the_seats_creature_and_requests(served):
    view = served.get(f"/seat/{served.aria}/view.json").json()
    table = json.loads(served.get("/view.json").text)
    assert view["creatures"] == table["creatures"] and view["round"] == table["round"]
    seat = view["seat"]
    assert seat["name"] == "Aria" and seat["hp"] == 12 and seat["load"] == -1
    assert {a["name"]: a["headroom"] for a in seat["aspects"]} == {
        "Finesse": 5,
        "Might": 3,
        "Wits": 4,
    }
    assert [e["source"] for e in seat["effects"]] == ["blessed"]
    assert [a["name"] for a in seat["actions"]] == ["dagger", "sneak"]
    assert view["requests"] == [] and view["mode"] == "approve"
    text = json.dumps(view)
    assert [s for s in SECRETS if s in text] == [] and served.borin not in text


def test_a_preview_gives_pool_gate_faces_and_exact_odds(served):
    answer = served.post(
        f"/seat/{served.aria}/preview", {"aspect": "dagger", "target": "Goblin 2", "cost": 2}
    )
    assert answer.status_code == 200, answer.text
    got = answer.json()
    assert got["allowed"] and got["headroom"] == 5 and got["cost"] == 2
    # 4d4 and blessed's die (R4, R5), then the dagger's 1d4 (R6).
    assert got["pool_size"] == 5 and got["faces"] == [4, 4, 4, 4, 4, 4]
    assert got["advantage"] == ["blessed"] and got["net_advantage"] == 1
    assert [s["rule"] for s in got["steps"]][:2] == ["R2", "R5"]
    # Goblin 2's Evasion is not shown to the players: the total's odds alone.
    assert got["odds"]["mean"] == pytest.approx(15) and "expected_damage" not in got["odds"]
    refused = served.post(f"/seat/{served.aria}/preview", {"aspect": "Might", "cost": 4}).json()
    assert not refused["allowed"] and refused["shortfall"] == 1 and refused["odds"] is None


def test_approve_mode_queues_and_the_gm_answers_from_the_cli(served):
    before = (FILE.parent / "encounter.toml.journal").read_bytes()
    answer = served.post(f"/seat/{served.aria}/act", {"aspect": "Finesse", "target": "Goblin 2"})
    assert answer.status_code == 202, answer.text  # queued for the GM
    got = answer.json()
    assert got["mode"] == "approve" and got["request"]["status"] == "pending"
    assert (FILE.parent / "encounter.toml.journal").read_bytes() == before  # queued only
    ok("approve", "1", "--seed", "3")
    (first,) = served.get(f"/seat/{served.aria}/view.json").json()["requests"]
    assert first["status"] == "approved"
    names = [step["name"] for step in first["roll"]["steps"]]
    assert names[0] == "Gate" and "Total" in names and "Load after" in names
    served.post(f"/seat/{served.aria}/act", {"aspect": "Wits"})
    ok("deny", "2", "--reason", "not now")
    second = served.get(f"/seat/{served.aria}/view.json").json()["requests"][1]
    assert second["status"] == "denied" and second["reason"] == "not now"
    assert second["roll"] is None
    ok("undo")
    first = served.get(f"/seat/{served.aria}/view.json").json()["requests"][0]
    assert first["status"] == "undone"


def test_auto_mode_carries_out_at_once_with_the_steps_of_act(served):
    _auto()
    dice = ScriptedDice((4, 4, 3, 1, 2))
    served = SeatServed(rng=dice)
    faces = {"aspect": "Finesse", "target": "Goblin 2"}
    got = served.post(f"/seat/{served.aria}/act", faces).json()
    request = got["request"]
    assert got["mode"] == "auto" and request["status"] == "approved"
    roll = request["roll"]
    assert roll["dice"] == [4, 4, 3, 1, 2] and roll["total"] == 14 and roll["pool_size"] == 5
    steps = {step["name"]: step for step in roll["steps"]}
    assert steps["5d4"]["detail"] == "4 + 4 + 3 + 1 + 2 = 14" and steps["5d4"]["rule"] == "R7"
    assert steps["Sources"]["detail"] == "+blessed (effect)"
    assert steps["Total"]["detail"] == "14" and steps["Load after"]["rule"] == "R8"
    journal = (FILE.parent / "encounter.toml.journal").read_text().splitlines()
    entries = [json.loads(line) for line in journal]
    assert [e.get("request") for e in entries if e.get("seat")] == [1]


def test_entered_faces_are_carried_out_as_entered(served):
    _auto()
    body = {"aspect": "dagger", "target": "Goblin 2", "faces": [1, 2, 3, 4, 2, 3]}
    roll = served.post(f"/seat/{served.aria}/act", body).json()["request"]["roll"]
    assert roll["entered"] and roll["dice"] == [1, 2, 3, 4, 2] and roll["total"] == 15
    steps = {step["name"]: step["detail"] for step in roll["steps"]}
    assert steps["5d4"] == "entered 1 + 2 + 3 + 4 + 2 = 12" and steps["Extra 1d4"] == "entered 3"


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"aspect": "Finesse", "creature": "Borin"}, "creature", "its own creature only"),
        ({"aspect": "Finesse", "creature": "Goblin 2"}, "creature", "its own creature only"),
        ({"aspect": "Might", "cost": 4}, "cost", "refused by the gate (R2)"),
        ({"aspect": "Finesse", "faces": [1, 2, 3]}, "faces", "the roll takes exactly 5"),
        ({"aspect": "Finesse", "faces": [1, 2, 3, 5, 1]}, "faces", "within 1..4"),
        ({"aspect": "Charm"}, "aspect", "Charm"),
        ({"aspect": "Finesse", "target": "Goblin Brute"}, "target", "among those the players see"),
        ({"aspect": "Finesse", "target": "Goblin Archer"}, "target", "among those the players see"),
        ({"aspect": "Finesse", "extra": ["2d0"]}, "extra", "2d0"),
        ({"aspect": "Finesse", "extra": ["1000d100"]}, "extra", "at most 12 extra dice"),
        ({"aspect": "Finesse", "cost": "1"}, "cost", "whole number"),
        ({"aspect": "Finesse", "cost": True}, "cost", "whole number"),
        ({"aspect": "Finesse", "faces": [1.5, 2, 3, 4]}, "faces", "whole numbers"),
        ({"aspect": "Finesse", "advantage": "torch"}, "advantage", "list of text"),
        ({"aspect": "Finesse", "sneaky": 1}, "sneaky", "not a key"),
        ({"cost": 1}, "aspect", "give an Aspect"),
        ([1, 2], "body", "JSON object"),
    ],
)
@pytest.mark.parametrize("mode", ["approve", "auto"])
def test_bad_input_is_a_json_error_naming_the_field_and_nothing_is_written(
    served, body, field, words, mode
):
    if mode == "auto":
        _auto()
    before = files(FILE.resolve())
    for route in ("act", "preview"):
        if route == "preview" and ((field == "faces" and "whole" not in words) or "gate" in words):
            continue  # a preview ignores the faces' count, and shows a refusal as a refusal
        answer = served.post(f"/seat/{served.aria}/{route}", body)
        assert answer.status_code == 400, (route, answer.text)
        got = answer.json()
        assert got["field"] == field and words in got["error"], (route, got)
    assert files(FILE.resolve()) == before


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/seat/{t}"),
        ("GET", "/seat/{t}/view.json"),
        ("GET", "/seat/{t}/events"),
        ("POST", "/seat/{t}/preview"),
        ("POST", "/seat/{t}/act"),
    ],
)
def test_a_forged_or_revoked_token_is_exactly_an_unknown_path(served, method, path):
    forged = served.aria[:-1] + ("A" if served.aria[-1] != "A" else "B")
    Seats(FILE).remove("Borin")
    before = files(FILE.resolve())
    unknown = served.run(lambda c: c.request(method, "/no/such/path", headers=JSON, json={}))
    for token in (forged, served.borin, "", "x", "../" + served.aria, served.aria.lower()):
        if token == "":
            continue
        answer = served.run(
            lambda c, t=token: c.request(
                method, path.format(t=t), headers=JSON, json={"aspect": "Might"}
            )
        )
        assert answer.status_code == 404, (token, answer.text)
        assert answer.content == unknown.content
        assert dict(answer.headers) == dict(unknown.headers)
    assert files(FILE.resolve()) == before


def test_a_seat_past_its_rate_is_429_and_others_go_on(tmp_path):
    seated()
    served = SeatServed(per_second=3)
    answers = [
        served.post(f"/seat/{served.aria}/act", {"aspect": "Finesse", "cost": 0}) for _ in range(4)
    ]
    assert [a.status_code for a in answers] == [202, 202, 202, 429]
    assert int(answers[-1].headers["retry-after"]) >= 1
    assert served.post(f"/seat/{served.borin}/act", {"aspect": "Might"}).status_code == 202
    assert len(SeatDesk(Tracker(FILE)).pending()) == 4


def test_the_stream_follows_the_table_and_the_seats_answers_and_ends_when_revoked(served):
    served.post(f"/seat/{served.aria}/act", {"aspect": "Finesse"})

    async def work() -> tuple[bytes, bool]:
        task, seen = await open_stream(served.app, f"/seat/{served.aria}/events")
        for _ in range(100):  # the token is looked up in a worker thread
            if b"data: " in seen["body"]:
                break
            await asyncio.sleep(0.02)
        assert seen["status"] == 200 and b"data: " in seen["body"]
        await asyncio.to_thread(SeatDesk(Tracker(FILE)).deny, 1, "no")
        for _ in range(40):
            await asyncio.sleep(0.05)
            if b"event: seat" in seen["body"]:
                break
        await asyncio.to_thread(Seats(FILE).remove, "Aria")
        await asyncio.wait_for(task, 5)  # the revoked seat's stream ends
        return seen["body"], served.seat_routes.watch.task is None

    body, stopped = asyncio.run(work())
    assert b"event: seat" in body and stopped
    assert served.broadcaster.queues == set()


@pytest.mark.parametrize("route", ["view.json", "preview", "act"])
def test_the_seat_of_a_removed_creature_finds_nothing_and_names_no_hidden_creature(served, route):
    ok("remove", "Borin")
    before = files(FILE.resolve())
    unknown = served.run(lambda c: c.request("POST", "/no/such/path", headers=JSON, json={}))
    method = "GET" if route == "view.json" else "POST"
    answer = served.run(
        lambda c: c.request(
            method, f"/seat/{served.borin}/{route}", headers=JSON, json={"aspect": "Might"}
        )
    )
    if route == "view.json":  # the page says its seat ended (the token is the seat's own)
        assert answer.status_code == 410, answer.text
        assert answer.json() == {
            "error": "this seat has ended: its creature is not in this fight",
            "field": "token",
        }
    else:
        assert answer.status_code == 404, answer.text
        assert answer.content == unknown.content
    assert [s for s in SECRETS if s in answer.text] == []
    assert files(FILE.resolve()) == before


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (
            b'{"aspect": "Finesse", "creature": "Borin", "creature": "Aria"}',
            "key 'creature' is given twice",
        ),
        (b'{"aspect": "Finesse", "cost": NaN}', "NaN is not a JSON number"),
        (b'{"aspect": "Finesse", "cost": -Infinity}', "-Infinity is not a JSON number"),
        (b"[" * 2000 + b"]" * 2000, "nested too deep"),
    ],
)
@pytest.mark.parametrize("route", ["preview", "act"])
def test_a_body_python_reads_but_json_does_not_is_400_and_nothing_is_written(
    served, content, words, route
):
    _auto()
    before = files(FILE.resolve())
    answer = served.post(f"/seat/{served.aria}/{route}", content=content)
    assert answer.status_code == 400, answer.text
    assert answer.json() == {"error": "the body is not JSON: " + words}
    assert files(FILE.resolve()) == before


@pytest.mark.parametrize(
    ("headers", "content", "status"),
    [
        (JSON, '{"aspect":', 400),  # not JSON: refused by the app
        ({"Content-Type": "application/json"}, '{"aspect": "Finesse"}', 403),  # no Origin
        ({**JSON, "Content-Type": "text/plain"}, '{"aspect": "Finesse"}', 415),
    ],
)
def test_every_seat_answer_is_no_store_errors_included(served, headers, content, status):
    # A seat's answers are its player's alone: no cache keeps one, whoever refused it.
    answer = served.post(f"/seat/{served.aria}/act", headers=headers, content=content)
    assert answer.status_code == status
    assert answer.headers["cache-control"] == "no-store"
    table = served.get("/view.json")
    assert table.headers["cache-control"] == "no-cache"
