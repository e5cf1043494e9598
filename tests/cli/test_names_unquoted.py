"""Names without quotes: ``act Goblin Archer Finesse`` reads the creature "Goblin Archer" (N1).

The pure reader (`d4cli.cli.spaced_names`), the command line through the root command, and Tab
inside ``d4cli play``. conftest's autouse fixture points D4CLI_FILE at a temp folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import typer.main
from _cli import fails, files, ok, ok_json, run

from d4cli.cli.app import app
from d4cli.cli.play_prompt import completions, name_completions
from d4cli.cli.spaced_names import (
    ARGUMENTS,
    Options,
    could_join,
    join_names,
    positional_indexes,
    readings,
    rebuilt,
    runs_of,
)
from d4cli.rules.errors import InputError

ACT = ARGUMENTS[("act",)]
TEAM = ARGUMENTS[("team",)]
DAMAGE = ARGUMENTS[("damage",)]
SET = ARGUMENTS[("set",)]
ALIAS = ARGUMENTS[("alias",)]
FILE = Path("encounter.toml")

# --- the pure reader ----------------------------------------------------------------------------


def test_one_reading_joins_the_longest_run_that_names_a_creature() -> None:
    creatures = ["Aria", "Goblin", "Goblin Archer"]
    assert join_names(["Goblin", "Archer", "Finesse"], ACT, creatures) == [
        "Goblin Archer",
        "Finesse",
    ]
    assert join_names(["Goblin", "Archer", "Aria"], TEAM, creatures) == ["Goblin Archer", "Aria"]
    assert join_names(["Aria", "Goblin", "Archer"], TEAM, creatures) == ["Aria", "Goblin Archer"]
    # Several names: each run that names a creature, beside names and patterns typed alone.
    assert join_names(["Aria", "Goblin", "Archer", "2"], DAMAGE, ["Aria", "Goblin Archer"]) == [
        "Aria",
        "Goblin Archer",
        "2",
    ]
    assert join_names(["Gob*", "Aria", "Rose", "2"], DAMAGE, ["Aria Rose", "Goblin"]) == [
        "Gob*",
        "Aria Rose",
        "2",
    ]
    # An optional word after the name: `alias Goblin Archer --clear`.
    assert join_names(["Goblin", "Archer"], ALIAS, ["Goblin Archer"]) == ["Goblin Archer"]
    assert join_names(["Goblin", "Archer", "hp=4"], SET, ["Goblin Archer"]) == [
        "Goblin Archer",
        "hp=4",
    ]


def test_two_readings_are_bad_input_that_shows_both_quoted() -> None:
    creatures = ["Goblin", "Archer", "Goblin Archer"]
    with pytest.raises(InputError) as caught:
        runs_of(["Goblin", "Archer", "3"], DAMAGE, creatures, "damage")
    assert str(caught.value) == (
        'NAME: Goblin Archer 3 reads more than one way; give damage "Goblin Archer" 3, '
        "or damage -- Goblin Archer 3"
    )
    with pytest.raises(
        InputError, match='give team "Goblin Archer" Borin, or team Goblin "Archer Borin"$'
    ):
        runs_of(
            ["Goblin", "Archer", "Borin"],
            TEAM,
            ["Goblin", "Goblin Archer", "Archer Borin", "Borin"],
            "team",
        )


def test_no_reading_leaves_the_words_as_typed() -> None:
    assert runs_of(["Gobln", "Archer", "Finesse"], ACT, ["Goblin Archer"], "act") is None
    assert join_names(["Gobln", "Archer", "Finesse"], ACT, ["Goblin Archer"]) == [
        "Gobln",
        "Archer",
        "Finesse",
    ]
    assert readings(["Gobln", "Archer", "Finesse"], ACT, lambda run, _: False) == []
    # One reading, the one as typed: nothing to join.
    assert runs_of(["Aria", "Borin", "2"], DAMAGE, ["Aria", "Borin"], "damage") is None


def test_names_fold_by_n1_case_nfc_and_white_space() -> None:
    assert join_names(["goblin", "ARCHER", "Finesse"], ACT, ["Goblin Archer"]) == [
        "goblin ARCHER",
        "Finesse",
    ]
    assert join_names(["Zoe\u0308", "ward", "Might"], ACT, ["Zo\u00eb  Ward"]) == [
        "Zoe\u0308 ward",
        "Might",
    ]


def test_a_name_of_three_words() -> None:
    creatures = ["Captain of the Guard", "Captain"]
    assert join_names(["Captain", "of", "the", "Guard", "Might"], ACT, creatures) == [
        "Captain of the Guard",
        "Might",
    ]
    assert join_names(["Aria", "Captain", "of", "the", "Guard"], TEAM, [*creatures, "Aria"]) == [
        "Aria",
        "Captain of the Guard",
    ]


def test_a_name_then_an_aspect_named_like_a_creatures_word_stays_as_typed() -> None:
    # "Goblin" acts with its Aspect "Archer": two words for NAME and ASPECT, nothing to join.
    creatures = ["Goblin", "Goblin Archer"]
    assert not could_join(["Goblin", "Archer"], ACT)
    assert join_names(["Goblin", "Archer"], ACT, creatures) == ["Goblin", "Archer"]
    # A quoted name is one word: never split, whatever the creatures.
    assert join_names(["Goblin Archer", "Finesse"], ACT, creatures) == ["Goblin Archer", "Finesse"]


def test_the_file_is_read_only_when_the_words_could_hold_a_longer_name() -> None:
    assert not could_join(["Aria", "Finesse"], ACT)
    assert could_join(["Goblin", "Archer", "Finesse"], ACT)
    assert not could_join(["Aria", "3"], DAMAGE)
    assert could_join(["Aria", "Borin", "3"], DAMAGE)
    assert not could_join(["Aria", "hp=4", "max_hp=9"], SET)
    assert not could_join(["Aria"], ARGUMENTS[("status",)])
    assert could_join(["Goblin", "Archer"], ARGUMENTS[("status",)])


def test_options_and_their_values_are_never_read_as_names() -> None:
    options = Options(valued=["--target", "--cost", "--file", "-f"], flags=["--json", "-h"])
    args = ["Goblin", "--cost", "2", "Archer", "Finesse", "--target=Aria", "-fx.toml", "--json"]
    indexes = positional_indexes(args, options)
    assert indexes == [0, 3, 4]
    reading = runs_of([args[i] for i in indexes], ACT, ["Goblin Archer"], "act")
    assert reading == ((2, True), (1, False))
    assert rebuilt(args, indexes, reading) == [
        "Goblin Archer",
        "--cost",
        "2",
        "Finesse",
        "--target=Aria",
        "-fx.toml",
        "--json",
    ]
    assert positional_indexes(["Aria", "--nope"], options) is None  # unknown: left to Click
    assert positional_indexes(["Aria", "-1", "3"], options) == [0, 1, 2]  # a negative number
    assert positional_indexes(["Goblin", "Archer", "--", "3"], options) is None  # as typed


def test_a_word_still_being_typed_fits_any_slot() -> None:
    # `team Goblin Archer Gob<Tab>`: the last word is not a name yet.
    assert readings(
        ["Goblin", "Archer", "Gob"], TEAM, lambda run, _: run == ["Goblin", "Archer"], True
    ) == [((2, True), (1, True))]


# --- the command line ---------------------------------------------------------------------------


def _fight() -> None:
    ok("init", "--from", "skirmish")  # Aria, Borin, Goblin Archer, Goblin Brute


def test_act_and_team_read_a_name_without_quotes() -> None:
    _fight()
    record = ok_json("act", "Goblin", "Archer", "Finesse", "--target", "Aria", "--seed", "1")
    assert record["actor"] == "Goblin Archer"
    assert record["aspect_name"] == "Finesse"
    assert record["target"] == "Aria"
    team = ok_json("team", "Goblin", "Brute", "Goblin", "Archer", "--adv", "--aspect", "Might")
    assert (team["actor"], team["target"]) == ("Goblin Brute", "Goblin Archer")
    # The quoted forms work exactly as before.
    assert ok_json("status", "Goblin Archer")["name"] == "Goblin Archer"
    assert ok_json("status", "Goblin", "Archer")["name"] == "Goblin Archer"


def test_commands_of_several_names_join_each_name_that_reads_one_way() -> None:
    _fight()
    out = ok_json("damage", "Goblin", "Archer", "Goblin", "Brute", "2")
    assert out["names"] == ["Goblin Archer", "Goblin Brute"]
    assert [change["hp_after"] for change in out["changes"]] == [5, 8]
    out = ok_json("heal", "Goblin*", "Aria", "1")  # a pattern and a name, as before
    assert [change["actor"] for change in out["changes"]] == [
        "Goblin Archer",
        "Goblin Brute",
        "Aria",
    ]
    effect = ok_json("effect", "add", "Goblin", "Archer", "prone", "--dis")
    assert (effect["actor"], effect["effect"]["source"]) == ("Goblin Archer", "prone")
    ok("exhaust", "Goblin", "Brute", "+1")
    assert ok_json("status", "Goblin", "Brute")["exhaustion"] == 2
    ok("set", "Goblin", "Archer", "hp=4", "evasion=11")
    sheet = ok_json("status", "Goblin", "Archer")
    assert (sheet["hp"], sheet["evasion"]) == (4, 11)
    turn = ok_json("turn", "start", "Goblin", "Brute")
    assert turn["actor"] == "Goblin Brute"


def test_two_readings_exit_2_and_leave_the_file_as_it_was() -> None:
    _fight()
    ok("add", "Goblin", "--aspect", "Might=2", "--hp", "5")
    ok("add", "Archer", "--aspect", "Might=2", "--hp", "5")
    line = fails(2, FILE, "damage", "Goblin", "Archer", "3")
    assert line == (
        'd4cli: error: NAME: Goblin Archer 3 reads more than one way; give damage "Goblin Archer" 3, '
        "or damage -- Goblin Archer 3"
    )
    # Quoted, each reading is what it says.
    assert ok_json("damage", "Goblin Archer", "3")["actor"] == "Goblin Archer"
    # `--`: every word as typed, each a name.
    out = ok("damage", "--json", "--", "Goblin", "Archer", "1").json()
    assert out["names"] == ["Goblin", "Archer"]
    assert [change["hp_after"] for change in out["changes"]] == [4, 4]


def test_words_stay_as_typed_when_nothing_reads_as_a_name() -> None:
    _fight()
    before = files(FILE)
    # An option's value is one word: the name's second word is left over, as Click says.
    out = run("act", "Aria", "Finesse", "--target", "Goblin", "Archer")
    assert out.exit_code == 2 and "unexpected extra argument(s) (Archer)" in out.stderr
    assert files(FILE) == before
    # No such creature: the words go to the command as typed, whose error names them.
    out = run("damage", "Goblin", "Archer", "Orc", "2")
    assert out.exit_code == 2 and "Orc" not in out.stdout
    assert files(FILE) == before


def test_no_file_leaves_the_words_as_typed(tmp_path: Path) -> None:
    out = run("act", "Goblin", "Archer", "Finesse", "--file", str(tmp_path / "none.toml"))
    assert out.exit_code == 2
    assert "unexpected extra argument(s) (Finesse)" in out.stderr


def test_a_piped_play_session_reads_names_without_quotes(tmp_path: Path) -> None:
    from d4cli.cli.play_session import Session

    _fight()
    session = Session(None)
    assert session.run_line("damage Goblin Archer 2") == 0
    assert ok_json("status", "Goblin Archer")["hp"] == 5


# --- Tab inside play ----------------------------------------------------------------------------


def test_tab_completes_after_a_space_inside_a_name() -> None:
    _fight()
    root = typer.main.get_command(app)
    assert name_completions(root, "act Goblin A") == [(4, '"Goblin Archer"', "Goblin Archer", "")]
    assert name_completions(root, "act Aria Fi") == []
    assert name_completions(root, "act Goblin ") == []  # nothing typed after the space yet
    # After the name, its own Aspects; after a name and a name being typed, the second.
    assert [r for r, _, _ in completions(root, "act Goblin Archer F")] == ["Finesse"]
    assert name_completions(root, "team Goblin Archer Goblin B") == [
        (19, '"Goblin Brute"', "Goblin Brute", "")
    ]


def test_the_prompt_replaces_the_words_of_the_name() -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from d4cli.cli.play_prompt import SessionCompleter
    from d4cli.cli.play_session import Session

    _fight()
    completer = SessionCompleter(Session(None).root)
    found = list(completer.get_completions(Document("act Goblin A"), CompleteEvent()))
    assert [(c.text, c.start_position) for c in found] == [('"Goblin Archer" ', -len("Goblin A"))]
