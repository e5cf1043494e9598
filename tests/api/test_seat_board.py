"""`SeatBoard`: a seat's page, its preview and its rolls keep what the GM hides; approval never
carries a journaled request out twice; an undone request reads undone."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from _cli import files

from d4cli.api import FileError, InputError
from d4cli.api.add_sheets import AddSpec
from d4cli.api.encounter import Tracker, side_problems
from d4cli.api.rolls import ScriptedDice
from d4cli.api.seat_board import SeatBoard
from d4cli.api.seat_requests import SeatDesk
from d4cli.api.seats import SeatAction, Seats
from d4cli.fight.players_view import HIDDEN_SOURCE
from d4cli.store.seat_files import (
    DraftRow,
    drafts_path,
    read_requests,
    requests_path,
    write_requests,
)


@pytest.fixture
def encounter(tmp_path):
    """The skirmish: Goblin Brute hidden, Goblin Archer aliased "Goblin 2", a GM-only curse
    and a public blessing on Aria; Aria has a seat."""
    path = tmp_path / "encounter.toml"
    Tracker.init(path, template="skirmish")
    tracker = Tracker(path)
    tracker.conceal("Goblin Brute")
    tracker.alias("Goblin Archer", "Goblin 2")
    tracker.effect_add("Aria", "cursed", grant="disadvantage", public=False)
    tracker.effect_add("Aria", "blessed", grant="advantage")
    return path


def _token(path, name="Aria"):
    return Seats(path).add(name).token


def _board(path, dice=()):
    return SeatBoard(Tracker(path, rng=ScriptedDice(dice)))


def test_the_page_shows_the_table_and_the_seats_own_creature_in_full(encounter):
    token = _token(encounter)
    page = _board(encounter).page(token)
    assert [c.name for c in page.view.creatures] == ["Aria", "Borin", "Goblin 2"]
    me = page.creature
    assert me.name == "Aria" and me.load == -1 and me.hp == 12 and me.max_hp == 12
    assert [(a.name, a.value, a.headroom) for a in me.aspects] == [
        ("Finesse", 4, 5),
        ("Might", 2, 3),
        ("Wits", 3, 4),
    ]
    assert [e.source for e in me.effects] == ["blessed"]  # the GM-only curse is not there
    assert [a.name for a in me.actions] == ["dagger", "sneak"]
    assert page.requests == () and page.mode == "approve"


def test_the_preview_gives_pool_gate_and_exact_odds_and_unnames_a_gm_only_source(encounter):
    token = _token(encounter)
    preview = _board(encounter).preview(token, SeatAction("dagger", target="Goblin 2"))
    plan = preview.plan.plan
    assert plan.advantage == ("blessed",) and plan.disadvantage == (HIDDEN_SOURCE,)
    assert plan.size.size == 4 and plan.gate.headroom == 5 and plan.gate.allowed
    assert preview.plan.faces == (4, 4, 4, 4, 4)  # 4d4 and the dagger's 1d4
    # The Goblin's Evasion is not shown to the players: no damage odds, the total's only.
    assert plan.request.evasion is None and preview.odds is not None
    assert preview.odds.mean == pytest.approx(12.5) and preview.odds.evasion is None


def test_the_preview_of_a_refused_cost_is_a_refusal_not_an_error(encounter):
    token = _token(encounter)
    preview = _board(encounter).preview(token, SeatAction("Might", cost=4))
    assert not preview.plan.plan.gate.allowed and preview.plan.plan.gate.shortfall == 1
    assert preview.odds is None and preview.plan.faces == ()


@pytest.mark.parametrize(
    ("action", "field"),
    [
        (SeatAction("Charm"), "aspect"),
        (SeatAction("Finesse", target="Goblin Brute"), "target"),
        (SeatAction("Finesse", creature="Borin"), "creature"),
        (SeatAction("Finesse", extra=("2d0",)), "extra"),
    ],
)
def test_the_preview_refuses_what_submit_refuses_naming_the_field(encounter, action, field):
    token = _token(encounter)
    before = files(encounter)
    with pytest.raises(InputError) as caught:
        _board(encounter).preview(token, action)
    assert caught.value.field == field and files(encounter) == before


def test_an_unknown_token_finds_nothing(encounter):
    _token(encounter)
    with pytest.raises(InputError) as caught:
        _board(encounter).page("x" * 32)
    assert caught.value.field == "token"


def test_a_carried_out_roll_is_rebuilt_with_its_steps_and_no_secret(encounter):
    token = _token(encounter)
    Tracker(encounter).set_view({"seats": "auto"})
    dice = (4, 1, 3, 2, 4)  # 4d4, then the dagger's 1d4
    SeatDesk(Tracker(encounter, rng=ScriptedDice(dice))).submit(
        token, SeatAction("dagger", target="Goblin 2")
    )
    (request,) = _board(encounter).page(token).requests
    roll = request.roll
    assert request.status == "approved" and roll is not None
    assert roll.result.dice == (4, 1, 3, 2) and roll.result.total == 14
    assert roll.target == "Goblin 2" and roll.load_after == 0 and not roll.entered
    assert roll.result.plan.request.evasion is None  # the Goblin's Evasion stays the GM's
    assert ("cursed" not in repr(roll)) and "Goblin Archer" not in repr(roll)
    assert (HIDDEN_SOURCE, "disadvantage", "effect") in roll.sources


def test_an_approved_request_reads_undone_once_undo_takes_it_back(encounter):
    token = _token(encounter)
    desk = SeatDesk(Tracker(encounter, rng=ScriptedDice((1, 1, 1, 1))))
    number = desk.submit(token, SeatAction("Finesse")).request.number
    desk.approve(number)
    assert desk.request_of(token, number).status == "approved"
    Tracker(encounter).undo()
    row = desk.request_of(token, number)
    assert row.status == "undone" and row.result is not None
    assert _board(encounter).page(token).requests[0].status == "undone"
    # The GM's list keeps the answer the file holds.
    assert desk.all()[0].status == "approved"


def test_approving_a_request_already_journaled_marks_it_and_carries_nothing_out(encounter):
    token = _token(encounter)
    desk = SeatDesk(Tracker(encounter, rng=ScriptedDice((2, 2, 2, 2))))
    number = desk.submit(token, SeatAction("Finesse")).request.number
    pending = read_requests(encounter)
    desk.approve(number)
    # A crash after the journal entry, before the requests file: the file says pending.
    write_requests(encounter, pending)
    journal = (encounter.parent / "encounter.toml.journal").read_bytes()
    toml = encounter.read_bytes()
    assert desk.request_of(token, number).status == "approved"  # the seat reads the journal
    with pytest.raises(InputError, match="carried out already") as caught:
        desk.approve(number)
    assert caught.value.field == "number"
    assert (encounter.parent / "encounter.toml.journal").read_bytes() == journal
    assert encounter.read_bytes() == toml
    (row,) = read_requests(encounter).rows
    assert row.status == "approved" and row.result["total"] == 8 and "seq" not in row.result
    with pytest.raises(InputError, match="was approved already"):
        desk.approve(number)
    kept = json.loads(requests_path(encounter).read_text())
    assert kept["requests"][0]["status"] == "approved"


def test_the_seat_of_a_removed_creature_is_as_no_seat_and_lists_no_creature(encounter):
    token = _token(encounter, "Borin")
    Tracker(encounter).remove("Borin")
    before = files(encounter)
    board = _board(encounter)
    calls = [
        lambda: board.page(token),
        lambda: board.preview(token, SeatAction("Might")),
        lambda: board.desk.submit(token, SeatAction("Might")),
    ]
    for call in calls:
        with pytest.raises(InputError) as caught:
            call()
        assert caught.value.field == "token"
        assert str(caught.value) == "token: this seat has ended: its creature is not in this fight"
    assert files(encounter) == before


def test_a_requests_file_removed_to_start_afresh_takes_no_journaled_request_for_its_own(encounter):
    token = _token(encounter)
    now = datetime(2026, 12, 4, 2, 0, tzinfo=timezone.utc)  # the same second throughout
    desk = SeatDesk(
        Tracker(encounter, rng=ScriptedDice([3, 4, 1, 1, 1, 1, 1, 1]), clock=lambda: now)
    )
    desk.submit(token, SeatAction("Might", cost=0))
    desk.approve(1)
    requests_path(encounter).unlink()  # what the damaged file's error advises
    sent = desk.submit(token, SeatAction("Finesse", cost=0))
    # Numbering starts afresh; the journal entry of the old request 1 is not this one's.
    assert sent.request.number == 1
    rows = desk.requests_of(token)
    assert [(r.number, r.act["aspect"], r.status) for r in rows] == [(1, "Finesse", "pending")]
    done, change = desk.approve(1)
    assert (
        done.status == "approved" and change.written and done.result["aspect"] == 4
    )  # Finesse 4, not Might 2


def _at(when):
    return lambda: when


def test_a_preview_leaves_the_action_being_built_for_the_gms_board_until_it_is_sent(encounter):
    token = _token(encounter)
    start = datetime(2026, 12, 4, 20, 0, 0, tzinfo=timezone.utc)
    board = SeatBoard(Tracker(encounter, clock=_at(start)))
    board.preview(token, SeatAction("Finesse", target="Goblin 2", extra=("1d6",)))
    board.preview(token, SeatAction("Finesse", cost=2, target="Goblin 2", extra=("1d6",)))
    (draft,) = SeatDesk(Tracker(encounter, clock=_at(start))).building()  # the newest only
    # Aspect 4, Load -1; Net Advantage +1 (blessed) -1 (the GM's curse) = 0: 4d4 (R2, R4, R5)
    assert draft == DraftRow(
        "Aria", "2026-12-04T20:00:00+00:00", "Finesse", 2, "Goblin 2", 4, 1, True
    )
    later = datetime(2026, 12, 4, 20, 1, 1, tzinfo=timezone.utc)  # 61 s on: no longer building
    assert SeatDesk(Tracker(encounter, clock=_at(later))).building() == ()
    SeatDesk(Tracker(encounter, clock=_at(start))).submit(token, SeatAction("Finesse"))
    assert SeatDesk(Tracker(encounter, clock=_at(start))).building() == ()  # sent: not building
    assert "cursed" not in drafts_path(encounter).read_text()  # the GM's board shows no more


def test_a_damaged_drafts_file_is_named_and_the_preview_still_answers(encounter):
    token = _token(encounter)
    damaged = '{"version": 1, "drafts": [{"creature": 3}]}'
    drafts_path(encounter).write_text(damaged)
    drafts_path(encounter).chmod(0o600)
    with pytest.raises(FileError, match=r"drafts\[1\]: must hold exactly creature, time"):
        SeatDesk(Tracker(encounter)).building()
    previewed = _board(encounter).preview(token, SeatAction("Finesse"))
    assert previewed.plan.plan.gate.allowed  # drafts are best effort: the preview answers
    assert drafts_path(encounter).read_text() == damaged  # and the file is left as it was
    [problem] = side_problems(encounter)
    assert "drafts[1]: must hold exactly creature, time" in str(problem)


def test_the_page_shows_the_table_the_tv_shows_with_its_roll_feed(tmp_path):
    path = tmp_path / "encounter.toml"
    tracker = Tracker.init(path, template="skirmish")
    token = _token(path)
    tracker.turn_start()  # Aria's
    tracker.act("Aria", "Finesse", target="Goblin Archer", faces=[1, 1, 1, 1])
    page = _board(path).page(token)
    assert page.view == tracker.view()
    assert [(roll.actor, roll.total) for roll in page.view.rolls] == [("Aria", 4)]


def test_during_a_hidden_turn_the_page_keeps_the_state_before_it(tmp_path):
    # The players' screens keep the last visible state while a hidden creature acts (R20):
    # a seat's page too, its own creature included, or it would tell that a hidden turn runs.
    path = tmp_path / "encounter.toml"
    tracker = Tracker.init(path, template="skirmish")
    tracker.add(AddSpec("Lurker", (("Might", 7),), hp=30, hidden=True, side="foes"))
    token = _token(path)
    for _ in range(5):
        tracker.turn_start()  # Aria, Borin, Goblin Archer, Goblin Brute, then the Lurker
    assert tracker.status().current == "Lurker"
    tracker.act("Lurker", "Might", target="Aria", faces=[4] * 7)
    assert tracker.status().find("Aria").hp == 0
    page = _board(path).page(token)
    assert page.view == tracker.view()
    assert page.view.turn == "Goblin Brute"
    assert page.creature.hp == 12 and not page.creature.down
    aria = next(c for c in page.view.creatures if c.name == "Aria")
    assert aria.hp == 12


def test_a_creature_that_joined_during_a_hidden_turn_is_shown_as_it_stands(tmp_path):
    path = tmp_path / "encounter.toml"
    tracker = Tracker.init(path, template="skirmish")
    tracker.add(AddSpec("Lurker", (("Might", 7),), hp=30, hidden=True, side="foes"))
    for _ in range(5):
        tracker.turn_start()
    tracker.add(AddSpec("Cleric", (("Wits", 3),), hp=8, side="party"))
    page = _board(path).page(_token(path, "Cleric"))
    assert page.creature.name == "Cleric" and page.creature.hp == 8
