"""``simulate`` names its encounter as every encounter command does: ``--file/-f`` (or FILE)."""

from __future__ import annotations

from pathlib import Path

from _cli import fails, ok, ok_json

FILE = Path("encounter.toml")


def test_simulate_reads_the_file_given_with_f_as_with_file_argument():
    ok("init", "--from", "duel", "-f", "duel.toml")
    args = ("--runs", "30", "--seed", "5", "--modes", "turn")
    by_option = ok_json("simulate", "-f", "duel.toml", *args)
    by_argument = ok_json("simulate", "duel.toml", *args)
    assert by_option == by_argument
    assert by_option["encounter"] == "Playtest duel" and by_option["runs"] == 30


def test_the_file_given_twice_or_with_from_is_bad_input():
    ok("init", "--from", "duel")
    line = fails(2, FILE, "simulate", "encounter.toml", "-f", "encounter.toml")
    assert (
        line == "d4cli: error: --file: 'encounter.toml': give the file once: as FILE or as --file"
    )
    line = fails(2, FILE, "simulate", "-f", "encounter.toml", "--from", "skirmish")
    assert "give the file (FILE or --file) or --from, not both" in line
