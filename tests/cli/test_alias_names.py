"""A creature's alias where a GM command takes a creature's name: taken, with a one-line note (N1).

conftest's autouse fixture points D4CLI_FILE at a temp folder and chdirs there.
"""

from __future__ import annotations

from pathlib import Path

from _cli import fails, ok, ok_json, run

from d4cli.cli.aliases import name_positions, resolve_aliases
from d4cli.cli.spaced_names import NAME, NAME_OPTIONAL, NAMES, WORD, WORD_OPTIONAL

FILE = Path("encounter.toml")
NOTE = "d4cli: note: 'Sniper' is Goblin Archer's alias\n"


def _skirmish() -> None:
    ok("init", "--from", "skirmish")
    ok("alias", "Goblin Archer", "Sniper")


def test_damage_by_alias_changes_the_creature_and_says_whose_alias_it_is():
    _skirmish()
    out = run("damage", "Sniper", "2", "--json")
    assert out.exit_code == 0 and out.stderr == NOTE
    obj = out.json()
    assert (obj["actor"], obj["hp_before"], obj["hp_after"]) == ("Goblin Archer", 7, 5)
    folded = run("damage", "sniper", "1")
    assert folded.stderr == "d4cli: note: 'sniper' is Goblin Archer's alias\n"
    assert ok_json("status", "Goblin Archer")["hp"] == 4


def test_an_option_that_names_a_creature_takes_an_alias_too():
    _skirmish()
    ok("turn", "start")
    for target in (["--target", "Sniper"], ["--target=Sniper"]):
        out = run("act", "Aria", "dagger", *target, "--seed", "4", "--json")
        assert out.exit_code == 0 and out.stderr == NOTE
        assert out.json()["target"] == "Goblin Archer"
    added = run("effect", "add", "Aria", "marked", "--dis", "--until-end-of", "Sniper", "--json")
    assert added.stderr == NOTE and added.json()["effect"]["ends"]["creature"] == "Goblin Archer"


def test_an_alias_of_several_words_is_taken_unquoted():
    ok("init", "--from", "skirmish")
    ok("alias", "Goblin Brute", "Big One")
    out = run("damage", "Big", "One", "3")
    assert out.exit_code == 0
    assert out.stderr == "d4cli: note: 'Big One' is Goblin Brute's alias\n"
    assert ok_json("status", "Goblin Brute")["hp"] == 7


def test_a_word_that_is_not_a_name_is_never_read_as_an_alias():
    _skirmish()
    out = run("note", "Aria", "Sniper")
    assert out.exit_code == 0 and out.stderr == ""
    (entry,) = ok_json("log", "--last", "1")["entries"]
    assert (entry["actor"], entry["note"]) == ("Aria", "Sniper")


def test_bad_input_with_an_alias_is_one_error_line_and_changes_nothing():
    _skirmish()
    line = fails(2, FILE, "damage", "Sniper", "lots")
    assert "lots" in line


def test_name_positions_follow_the_slots():
    assert name_positions(3, (NAMES, WORD)) == [0, 1]
    assert name_positions(2, (NAME, NAME)) == [0, 1]
    assert name_positions(2, (NAME, WORD)) == [0]
    assert name_positions(0, (NAME_OPTIONAL,)) == []
    assert name_positions(2, (NAME, WORD_OPTIONAL)) == [0]


def test_a_name_that_is_a_creatures_stays_whatever_the_aliases():
    roster = [("Goblin Archer", "Sniper"), ("Sniper", "")]  # N1 forbids it in a file; still safe
    args, notes = resolve_aliases(["Sniper", "2"], [0, 1], (NAMES, WORD), roster)
    assert (args, notes) == (["Sniper", "2"], [])
