"""The board's odds line: each side's chance to win from the state as it is and how the last change
moved it, on the GM's board always and on the players' screens with ``[player_view] odds_shown``;
the live board computes it in a worker and shows "…" meanwhile."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from _cli import fails, ok, ok_json, run

from d4cli.api.tracker import Tracker
from d4cli.cli.board_screen import Board
from d4cli.cli.odds_worker import OddsWorker
from d4cli.output.render.board_frame import frame_text, gm_frame, odds_markup
from d4cli.sim.side_odds import SideOdds

FILE = Path("encounter.toml")
SECRET = "Goblin Chief"


def _frame(*args: str, columns: int = 80) -> str:
    result = run("board", *args, "--once", env={"COLUMNS": str(columns), "LINES": "24"})
    assert result.exit_code == 0, result.stderr
    return result.stdout


def _duel_with_odds_shown() -> None:
    ok("init", "--from", "duel")
    ok("set", "--view", "odds_shown=true")


def _ambush_chief_hidden() -> None:
    ok("init", "--from", "ambush")
    ok("set", "--view", "odds_shown=true")
    ok("conceal", SECRET)


@pytest.mark.parametrize("columns", [80, 120])
def test_the_gm_board_has_the_odds_line_under_its_title(snapshot, columns):
    ok("init", "--from", "duel")
    text = _frame(columns=columns)
    assert text == snapshot
    assert text.splitlines()[1] == "odds: Sera 97%, the Blade 3%"


@pytest.mark.parametrize("columns", [80, 120])
def test_the_players_board_shows_odds_only_with_odds_shown(snapshot, columns):
    ok("init", "--from", "duel")
    assert "odds" not in _frame("--players", columns=columns)
    ok("set", "--view", "odds_shown=true")
    text = _frame("--players", columns=columns)
    assert text == snapshot
    assert text.splitlines()[1:3] == ["next: Sera", "odds: Sera 97%, the Blade 3%"]


def test_the_players_odds_leave_a_hidden_creature_out_and_never_name_it():
    _ambush_chief_hidden()
    players = _frame("--players")
    assert SECRET not in players
    assert players.splitlines()[2] == "odds: goblins 0%, party 100%"  # under who goes next
    gm = _frame()
    assert SECRET in gm and gm.splitlines()[1] == "odds: goblins 56%, party 44%"
    view = ok_json("board", "--players")
    assert view["odds"] == {
        "computing": False,
        "sides": [
            {"side": "goblins", "percent": 0, "move": None},
            {"side": "party", "percent": 100, "move": None},
        ],
    }
    assert SECRET not in json.dumps(view)


def test_without_odds_shown_the_players_json_has_odds_null():
    ok("init", "--from", "duel")
    assert ok_json("board", "--players")["odds"] is None


def test_odds_shown_must_be_true_or_false_and_a_bad_one_writes_nothing():
    ok("init", "--from", "duel")
    line = fails(2, FILE, "set", "--view", "odds_shown=sometimes")
    assert line == "d4cli: error: odds_shown: 'sometimes': must be true or false"
    ok("set", "--view", "odds_shown=false")  # writes the [player_view] table, without the key
    assert "odds_shown" not in FILE.read_text()
    FILE.write_text(
        FILE.read_text().replace('others_hp = "label"', 'others_hp = "label"\nodds_shown = 1')
    )
    line = fails(2, FILE, "board", "--once")
    assert "player_view.odds_shown: 1: must be true or false" in line


def _settled(worker: OddsWorker, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while worker.computing and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not worker.computing


def test_the_live_board_shows_dots_then_the_odds_then_how_a_change_moved_them():
    ok("init", "--from", "duel")
    board = Board(Tracker(FILE), players=False)
    board.worker = OddsWorker(players=False)
    try:
        board.read()
        first = frame_text(board.frame(24, 80), 80).splitlines()[1]
        assert first in ("odds: …", "odds: Sera 97%, the Blade 3%")  # the worker may be quick
        _settled(board.worker)
        assert frame_text(board.frame(24, 80), 80).splitlines()[1] == "odds: Sera 97%, the Blade 3%"
        ok("damage", "Sera", "8")
        board.read()
        assert board.worker.computing or board.worker.line is not None
        _settled(board.worker)
        line = frame_text(board.frame(24, 80), 80).splitlines()[1]
        assert line == "odds: Sera 69% (-28), the Blade 31% (+28)"  # the batch engine's fights
    finally:
        board.worker.stop()


@pytest.mark.parametrize("columns", [80, 120])
def test_a_frame_with_moved_odds_and_one_still_computing(snapshot, columns):
    ok("init", "--from", "skirmish")
    encounter = Tracker(FILE).status()
    line = (SideOdds("party", 58, 12), SideOdds("foes", 42, -12))
    moved_frame = frame_text(gm_frame(encounter, [], odds=odds_markup(line, False)), columns)
    computing = frame_text(gm_frame(encounter, [], odds=odds_markup(line, True)), columns)
    assert moved_frame.splitlines()[1] == "odds: party 58% (+12), foes 42% (-12)"
    assert computing.splitlines()[1] == "odds: party 58%, foes 42% …"
    assert (moved_frame, computing) == snapshot


def test_a_fight_that_cannot_be_played_shows_no_odds_line_even_while_a_change_is_computed():
    ok("init", "--name", "Empty")
    ok("add", "Aria", "--aspect", "Might=3", "--side", "party")  # one side: nothing to play
    board = Board(Tracker(FILE), players=False)
    board.worker = OddsWorker(players=False)
    try:
        board.read()
        _settled(board.worker)
        assert board.worker.line is None and board.odds_line() is None
        ok("add", "Borin", "--aspect", "Might=3", "--side", "party")
        board.read()
        assert board.odds_line() is None  # computing, but no "…" for a fight with no odds
        _settled(board.worker)
        assert "odds" not in frame_text(board.frame(24, 80), 80)
    finally:
        board.worker.stop()
