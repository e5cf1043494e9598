"""The seats' routes as an attacker sees them: every write route checks Host, Origin, JSON and
size before anything (a property over the routes the app has, so a new one is covered too),
and no seat's answer ever holds a hidden name or number or another seat's token (a property
over random requests, with marker strings hidden by the GM)."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest
from _cli import files, ok
from _seat_web import FILE, JSON, ORIGIN, SeatServed
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.routing import Route

from d4cli.api.encounter import Tracker
from d4cli.api.seat_requests import SeatDesk

# What the GM hides, each a marker no seat's answer may hold.
HIDDEN_FOE = "Zorblax Hiddenmarker"
ALIASED = "Quillon Realname"  # shown as "Goblin 2"
GM_EFFECT = "hexmarker"  # GM-only, on the seat's own creature
GM_AGAINST = "wardmarker"  # GM-only, against attacks on Goblin 2
NOTE = "notemarker"
HIDDEN_NUMBERS = (8642, 9753, 417)  # the hidden foe's hp and max hp, Goblin 2's Evasion
NAMES = (HIDDEN_FOE, ALIASED, GM_EFFECT, GM_AGAINST, NOTE)


def _marked() -> SeatServed:
    """Aria and Borin (seated) against Goblin 2 (an alias; its Evasion hidden) and a hidden foe,
    with GM-only effects on Aria and against Goblin 2, and a GM's note."""
    ok("init")
    ok(
        "add",
        "Aria",
        "--aspect",
        "Finesse=4",
        "--aspect",
        "Might=2",
        "--hp",
        "12",
        "--side",
        "party",
    )
    ok("add", "Borin", "--aspect", "Might=3", "--hp", "16", "--side", "party")
    ok("add", ALIASED, "--aspect", "Might=2", "--hp", "7", "--evasion", "417", "--side", "foes")
    ok("add", HIDDEN_FOE, "--aspect", "Might=5", "--hp", "8642", "--side", "foes")
    ok("set", HIDDEN_FOE, "max_hp=9753")
    ok("alias", ALIASED, "Goblin 2")
    ok("conceal", HIDDEN_FOE)
    ok("effect", "add", "Aria", GM_EFFECT, "--dis", "--gm-only")
    ok("effect", "add", ALIASED, GM_AGAINST, "--adv", "--against", "--gm-only")
    ok("effect", "add", "Aria", "blessed", "--adv")
    ok("note", HIDDEN_FOE, NOTE)
    ok("turn", "start")
    return SeatServed()


def _sent(body: dict) -> set[str]:
    """The texts a body holds (the seat's own words, which an answer may echo)."""
    texts = {value for value in body.values() if isinstance(value, str)}
    for value in body.values():
        if isinstance(value, list):
            texts |= {item for item in value if isinstance(item, str)}
    return {text for text in texts if text.strip()}


def _leaks(text: str, served: SeatServed, sent: set[str] = frozenset()) -> list[str]:
    """The markers in *text* once the seat's own words (*sent*) are taken out of it."""
    for words in sorted(sent, key=len, reverse=True):
        text = text.replace(json.dumps(words)[1:-1], "").replace(words, "")
    found = [name for name in NAMES if name.lower() in text.lower()]
    found += [str(n) for n in HIDDEN_NUMBERS if re.search(rf"(?<![\d.]){n}(?!\d)", text)]
    if served.borin in text:
        found.append("Borin's token")
    return found


@pytest.fixture
def served() -> SeatServed:
    return _marked()


def _writes(served: SeatServed) -> list[str]:
    """Every write route of the app (POST), its token filled in with Aria's."""
    paths = [
        route.path
        for route in served.app.app.routes  # the Starlette app inside the guard
        if isinstance(route, Route) and "POST" in (route.methods or ())
    ]
    return [path.replace("{token}", served.aria) for path in paths]


def test_every_write_route_is_found_and_checks_host_origin_json_and_size(served):
    writes = _writes(served)
    assert sorted(p.rsplit("/", 1)[1] for p in writes) == ["act", "preview"]
    before = files(FILE.resolve())
    body = json.dumps({"aspect": "Finesse"})
    for path in writes:
        cases = [
            ({**JSON, "Host": "evil.example"}, body, 421),
            ({"Content-Type": "application/json"}, body, 403),
            ({**JSON, "Origin": "http://evil.example"}, body, 403),
            ({**JSON, "Origin": "null"}, body, 403),
            ({"Origin": ORIGIN, "Content-Type": "text/plain"}, body, 415),
            ({"Origin": ORIGIN}, body, 415),
            ({"Origin": ORIGIN, "Content-Type": "application/x-www-form-urlencoded"}, body, 415),
            (JSON, "x" * 5000, 413),
            (JSON, "{not json", 400),
        ]
        for headers, content, status in cases:
            answer = served.post(path, headers=headers, content=content)
            assert answer.status_code == status, (path, headers, answer.text)
            assert "error" in answer.json()
    assert files(FILE.resolve()) == before


ROUTES = ("page", "view", "preview", "act", "events_head")
TEXTS = st.sampled_from(
    [
        "Finesse",
        "Might",
        "Goblin 2",
        "Borin",
        "Aria",
        HIDDEN_FOE,
        ALIASED,
        GM_EFFECT,
        GM_AGAINST,
        "blessed",
        "<script>x</script>",
        "",
    ]
)
# Actions the rules allow, so that rolls are carried out and shown too.
GOOD = st.fixed_dictionaries(
    {
        "aspect": st.sampled_from(["Finesse", "Might"]),
        "cost": st.sampled_from([0, 1]),
        "target": st.sampled_from(["Goblin 2", None]),
        "faces": st.sampled_from([None, [1, 2, 3, 4, 2, 3]]),
    }
)
ANY = st.fixed_dictionaries(
    {"aspect": TEXTS},
    optional={
        "cost": st.one_of(st.none(), st.integers(-2, 8)),
        "target": st.one_of(st.none(), TEXTS),
        "creature": st.one_of(st.none(), TEXTS),
        "advantage": st.lists(TEXTS, max_size=2),
        "disadvantage": st.lists(TEXTS, max_size=2),
        "extra": st.lists(st.sampled_from(["1d6", "1d4+1", "2d0", "x"]), max_size=2),
        "faces": st.one_of(st.none(), st.lists(st.integers(0, 7), max_size=7)),
    },
)


@settings(max_examples=40, deadline=None)
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(ROUTES),
            st.one_of(GOOD, ANY),
            st.sampled_from(["", "approve", "deny", "undo"]),
        ),
        min_size=1,
        max_size=6,
    ),
    auto=st.booleans(),
)
def test_no_seat_answer_holds_a_hidden_name_or_number_or_another_token(steps, auto):
    # Each example starts from the GM's setup in a folder of its own: a seat's own words
    # from an earlier example stay in the feed, and *sent* knows only this example's
    # (`test_a_seats_own_words_stay_in_its_later_answers`).
    with (
        tempfile.TemporaryDirectory(prefix="d4cli-seat-") as folder,
        pytest.MonkeyPatch.context() as env,
    ):
        env.chdir(folder)
        env.setenv("D4CLI_FILE", str(Path(folder) / FILE))
        _no_leak_in(_marked(), steps, auto)


def _no_leak_in(served: SeatServed, steps: list, auto: bool) -> None:
    Tracker(FILE).set_view({"seats": "auto" if auto else "approve"})
    desk = SeatDesk(Tracker(FILE))
    seat = f"/seat/{served.aria}"
    sent: set[str] = set()
    for route, body, gm in steps:
        if route == "page":
            answer = served.get(seat)
        elif route == "view":
            answer = served.get(seat + "/view.json")
        elif route == "events_head":
            answer = served.run(lambda c: c.head(seat + "/events"))
        else:
            sent |= _sent(body)
            answer = served.post(f"{seat}/{route}", body)
        assert answer.status_code in (200, 202, 400), answer.text
        assert _leaks(answer.text, served, sent) == [], (route, body, answer.text)
        pending = desk.pending()
        if gm == "approve" and pending:
            desk.approve(pending[0].number)
        elif gm == "deny" and pending:
            desk.deny(pending[0].number, "no")
        elif gm == "undo" and "seat" in Tracker(FILE).history(1).entries[-1]:
            Tracker(FILE).undo()  # a seat's act taken back (never the GM's setup)
    view = served.get(seat + "/view.json")
    assert _leaks(view.text, served, sent) == []


def test_a_seats_own_words_stay_in_its_later_answers(served):
    """Why each example of the property starts afresh: a word the seat typed (here the name of
    a GM-only effect, as a source of its own) stays in its roll, so a later request's answer
    holds it, though that request did not send it. The seat's own words are no leak."""
    Tracker(FILE).set_view({"seats": "auto"})
    seat = f"/seat/{served.aria}"
    body = {"aspect": "Might", "advantage": [GM_AGAINST], "target": "Goblin 2", "cost": 0}
    answer = served.post(f"{seat}/act", body)
    assert answer.status_code == 200 and _leaks(answer.text, served, {GM_AGAINST}) == []
    later = served.get(seat + "/view.json").text
    assert _leaks(later, served) == [GM_AGAINST]
    assert _leaks(later, served, {GM_AGAINST}) == []
