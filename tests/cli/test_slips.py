"""Slips that deserve a word: what was typed was done, and a note on stderr says what it means."""

from __future__ import annotations

from _cli import ok, run


def test_add_without_a_side_next_to_a_party_says_where_the_players_see_it():
    ok("init", "--from", "skirmish")
    result = run("add", "Shade", "--aspect", "Might=2")
    assert result.exit_code == 0
    assert result.stderr.splitlines()[-1] == (
        "d4cli: note: Shade has no side: the players see it apart from the party (no headroom, "
        "HP as others_hp); give --side party or another side to place it"
    )
    many = run("add", "Wolf", "--aspect", "Might=2", "--count", "2").stderr
    assert "d4cli: note: Wolf 1, Wolf 2 have no side" in many
    sided = run("add", "Ally", "--aspect", "Might=2", "--side", "party").stderr
    assert "no side" not in sided


def test_add_without_a_side_where_there_is_no_party_says_nothing():
    ok("init")
    ok("add", "Orc", "--aspect", "Might=2")
    assert "no side" not in run("add", "Elf", "--aspect", "Might=2").stderr


def test_conceal_of_a_party_creature_says_the_party_loses_it_too():
    ok("init", "--from", "skirmish")
    result = run("conceal", "Aria")
    assert result.exit_code == 0 and result.stdout == "Aria is hidden from the player view\n"
    assert result.stderr.splitlines()[-1] == (
        "d4cli: note: Aria is of the party: the players' screens, the party's own included, "
        "no longer show it ('d4cli reveal' puts it back)"
    )
    assert "of the party" not in run("conceal", "Goblin Brute").stderr
    # Concealing it again changes nothing: nothing to say.
    assert "of the party" not in run("conceal", "Aria").stderr
