"""The players' screens, round two, through the CLI: a crowd on 80x24 follows the current creature,
who goes next, the fight's end for as long as it lasts, the roll feed, ``dc_shown``, a hidden turn.

conftest's autouse fixture points D4CLI_FILE at a temp folder and chdirs there.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _cli import fails, ok, ok_json, run

FILE = Path("encounter.toml")


def _frame(*args: str, columns: int = 80, lines: int = 24) -> str:
    result = run("board", *args, "--once", env={"COLUMNS": str(columns), "LINES": str(lines)})
    assert result.exit_code == 0, result.stderr
    return result.stdout


def _crowd() -> None:
    """The skirmish and 21 rats (25 creatures, Rat 20 hidden), Rat 1's turn running."""
    ok("init", "--from", "skirmish")
    ok("add", "Rat", "--aspect", "Might=1", "--hp", "3", "--side", "foes", "--count", "21")
    ok("conceal", "Rat 20")
    ok("turn", "start")
    ok("act", "Aria", "dagger", "--target", "Rat 3", "--seed", "2")
    for _ in range(4):
        ok("turn", "start")


@pytest.mark.parametrize("columns", [80, 120])
def test_a_crowd_of_25_on_80x24_follows_the_current_creature(snapshot, columns: int):
    _crowd()
    for args in (("--players",), ()):
        text = _frame(*args, columns=columns)
        assert text == snapshot
        lines = text.splitlines()
        assert len(lines) <= 23 and max(len(line) for line in lines) <= columns
        now = [line for line in lines if line.lstrip().startswith("now ")]
        assert len(now) == 1 and "Rat 1 " in now[0]
        assert "more above" in text and "more below" in text
        assert "Goblin Brute" in text and "Rat 2" in text  # the one before, the ones after
    assert "Rat 20" not in _frame("--players")
    assert "Aria: dagger; dice" in _frame("--players")  # the feed keeps its newest line


def test_the_next_cue_names_the_next_visible_creature_between_turns():
    ok("init", "--from", "skirmish")
    ok("conceal", "Borin")
    ok("turn", "start")
    ok("turn", "end")
    assert "between turns; next: Goblin Archer" in _frame("--players")
    view = ok_json("board", "--players")
    assert (view["turn"], view["next"]) == (None, "Goblin Archer")
    assert "Borin" not in _frame("--players")


def test_a_fight_that_is_over_stays_over_on_both_boards_until_it_is_not():
    ok("init", "--from", "skirmish")
    ok("damage", "Goblin Archer", "7")
    ok("damage", "Goblin Brute", "10")
    for _ in range(2):
        assert "the fight is over: party wins" in _frame("--players")
        assert "the fight is over: party wins" in _frame()
        ok("turn", "start")  # the board carries on saying so
    assert ok_json("board", "--players")["fight_over"] == {"winner": "party"}
    ok("heal", "Goblin Brute", "2")
    assert "the fight is over:" not in _frame("--players") + _frame()
    assert ok_json("board", "--players")["fight_over"] is None


def test_the_roll_feed_shows_the_newest_rolls_as_the_players_may_see_them():
    ok("init", "--from", "skirmish")
    ok("alias", "Goblin Archer", "Goblin 2")
    ok("set", "Goblin Brute", "evasion_shown=true")
    ok("turn", "start")
    ok("act", "Aria", "dagger", "--target", "Goblin Archer", "--seed", "4")
    ok("act", "Borin", "axe", "--target", "Goblin Brute", "--seed", "3")
    ok("check", "Aria", "--attribute", "Agility", "--dc", "12", "--seed", "2")
    rolls = ok_json("board", "--players")["rolls"]
    assert [roll["steps"] for roll in rolls] == [
        ["dagger", "dice 2 3 1 4", "1d4: 4", "total 14", "vs Goblin 2", "hit"],
        ["axe", "dice 2 2 3 4", "1d8: 2", "total 13", "vs Goblin Brute, Evasion 9", "hit"],
        ["Agility check", "d20 2", "total 5", "failure"],
    ]
    assert [roll["dc"] for roll in rolls] == [None, None, None]
    text = _frame("--players")
    assert "Aria: dagger; dice 2 3 1 4; 1d4: 4; total 14; vs Goblin 2; hit" in text
    assert "Goblin Archer" not in text
    ok("set", "--view", "dc_shown=true")
    assert ok_json("board", "--players")["rolls"][-1]["steps"][-2:] == ["vs DC 12", "failure"]
    assert "dc_shown = true" in FILE.read_text()


def test_dc_shown_that_is_not_true_or_false_is_bad_input_and_changes_nothing():
    ok("init", "--from", "skirmish")
    line = fails(2, FILE, "set", "--view", "dc_shown=maybe")
    assert "dc_shown" in line and "maybe" in line
    FILE.write_text(FILE.read_text() + '\n[player_view]\ndc_shown = "yes"\n')
    line = fails(2, FILE, "board", "--once")  # the GM's board names the field
    assert "player_view.dc_shown" in line and "'yes'" in line
    assert "not ready" in fails(
        2, FILE, "board", "--players", "--once"
    )  # the players' says no more


def test_a_hidden_creatures_turn_leaves_the_players_board_as_it_was():
    ok("init", "--from", "skirmish")
    ok("conceal", "Goblin Archer")
    ok("turn", "start")
    ok("turn", "start")
    ok("turn", "end")
    before = (
        _frame("--players"),
        _frame("--players", columns=120),
        ok("board", "--players", "--json").stdout,
    )
    ok("turn", "start")  # the Goblin Archer's
    ok("act", "Goblin Archer", "shortbow", "--target", "Aria", "--seed", "5")
    ok("damage", "Borin", "2")
    after = (
        _frame("--players"),
        _frame("--players", columns=120),
        ok("board", "--players", "--json").stdout,
    )
    assert after == before
    assert "between turns; next: Goblin Brute" in before[0]
    ok("turn", "end")
    assert _frame("--players") == before[0]  # still, until a visible turn starts
    ok("turn", "start")
    assert "Goblin Archer" not in _frame("--players")
    assert "14/16" in _frame("--players")  # what it did shows with the next visible turn


def test_the_players_odds_keep_a_hidden_turn_out_of_sight_too():
    ok("init", "--from", "skirmish")
    ok("conceal", "Goblin Archer")
    ok("set", "--view", "odds_shown=true")
    ok("turn", "start")
    ok("turn", "start")
    ok("turn", "end")
    before = (ok("board", "--players", "--json").stdout, _frame("--players"))
    assert '"odds": {"computing": false, "sides": [' in before[0] and "odds: " in before[1]
    ok("turn", "start")  # the Goblin Archer's
    ok("damage", "Aria", "9")  # what it does would move the odds
    assert (ok("board", "--players", "--json").stdout, _frame("--players")) == before
    ok("turn", "start")  # Goblin Brute's: now the odds move
    assert ok("board", "--players", "--json").stdout != before[0]
