"""Option values that name a creature, typed without quotes: ``--target Goblin Sniper`` (N1).

`d4cli.cli.spaced_names.join_line` reads a whole line: the positional words and the value of each
option that takes a creature's name. Words are joined when exactly one reading exists; two
readings are one error (exit 2) showing both as they would be typed, and nothing is written.
conftest's autouse fixture points D4CLI_FILE at a temp folder.
"""

from __future__ import annotations

from pathlib import Path

from _cli import fails, files, ok, ok_json, run

from d4cli.cli.spaced_names import ARGUMENTS, Options, join_line, positional_indexes

FILE = Path("encounter.toml")
ACT = ARGUMENTS[("act",)]
ADD = ARGUMENTS[("add",)]
ALIAS = ARGUMENTS[("alias",)]
ACT_OPTIONS = Options(valued=["--target", "--cost"], flags=["--json"])
ADD_OPTIONS = Options(valued=["--like", "--before", "--after"], flags=["--json"])


def _line(args: list[str], slots: tuple[str, ...], options: Options, creatures: list[str]):
    indexes = positional_indexes(args, options)
    assert indexes is not None
    return join_line(args, indexes, slots, creatures, "cmd")


# --- the pure reader ----------------------------------------------------------------------------


def test_an_options_value_takes_the_words_that_name_a_creature() -> None:
    creatures = ["Aria", "Goblin Sniper"]
    args = ["Aria", "Finesse", "--target", "Goblin", "Sniper", "--cost", "2"]
    assert _line(args, ACT, ACT_OPTIONS, creatures) == [
        "Aria",
        "Finesse",
        "--target",
        "Goblin Sniper",
        "--cost",
        "2",
    ]
    # The words the value leaves are positional: a name typed after the option.
    args = ["--target", "Goblin", "Sniper", "Aria", "Finesse"]
    assert _line(args, ACT, ACT_OPTIONS, creatures) == [
        "--target",
        "Goblin Sniper",
        "Aria",
        "Finesse",
    ]
    # Both at once: a positional name and the option's value.
    assert _line(
        ["Goblin", "Sniper", "Might", "--target", "Goblin", "Sniper"], ACT, ACT_OPTIONS, creatures
    ) == ["Goblin Sniper", "Might", "--target", "Goblin Sniper"]


def test_a_value_given_with_equals_or_naming_no_creature_stays_as_typed() -> None:
    creatures = ["Aria", "Goblin Sniper"]
    assert (
        _line(["Aria", "Finesse", "--target=Goblin", "Sniper"], ACT, ACT_OPTIONS, creatures) is None
    )
    assert _line(["Aria", "Finesse", "--target", "Orc"], ACT, ACT_OPTIONS, creatures) is None
    # A mistyped actor: the value still joins, so the command's error names the actor.
    assert _line(
        ["Arya", "Finesse", "--target", "Goblin", "Sniper"], ACT, ACT_OPTIONS, creatures
    ) == ["Arya", "Finesse", "--target", "Goblin Sniper"]


def test_a_text_slot_takes_every_word_left() -> None:
    creatures = ["Goblin Archer"]
    args = ["Goblin", "Archer", "Goblin", "2"]
    assert _line(args, ALIAS, ACT_OPTIONS, creatures) == ["Goblin Archer", "Goblin 2"]
    assert _line(
        ["Kobold", "Chief", "--like", "Goblin", "Archer"], ADD, ADD_OPTIONS, creatures
    ) == [
        "Kobold Chief",
        "--like",
        "Goblin Archer",
    ]


def test_two_readings_name_the_option_and_show_both_forms() -> None:
    creatures = ["Goblin", "Goblin Archer"]
    args = ["Kobold", "--like", "Goblin", "Archer"]
    indexes = positional_indexes(args, ADD_OPTIONS)
    assert indexes == [0, 3]
    try:
        join_line(args, indexes, ADD, creatures, "add")
    except Exception as error:  # noqa: BLE001 - checked below
        message = str(error)
    assert message == (
        "--like: Kobold --like Goblin Archer reads more than one way; give "
        'add Kobold --like "Goblin Archer", or add "Kobold Archer" --like Goblin'
    )


# --- the command line ---------------------------------------------------------------------------


def _fight() -> None:
    ok("init", "--from", "skirmish")  # Aria, Borin, Goblin Archer, Goblin Brute
    ok("add", "Goblin Sniper", "--like", "Goblin Archer")


def test_act_target_names_a_creature_of_two_words() -> None:
    _fight()
    record = ok_json("act", "Aria", "Finesse", "--target", "Goblin", "Sniper", "--seed", "1")
    assert (record["actor"], record["target"]) == ("Aria", "Goblin Sniper")
    # The option first, the positional words after its value.
    record = ok_json("act", "--target", "Goblin", "Sniper", "Aria", "Might", "--seed", "2")
    assert (record["actor"], record["aspect_name"], record["target"]) == (
        "Aria",
        "Might",
        "Goblin Sniper",
    )


def test_add_like_before_and_after_take_names_of_two_words() -> None:
    _fight()
    out = ok_json("add", "Kobold", "--like", "Goblin", "Archer", "--after", "Goblin", "Sniper")
    assert out["actor"] == "Kobold"
    order = [c["name"] for c in ok_json("status")["creatures"]]
    assert order[order.index("Goblin Sniper") + 1] == "Kobold"
    sheet, archer = ok_json("status", "Kobold"), ok_json("status", "Goblin Archer")
    assert sheet["aspects"] == archer["aspects"]
    # A new name of two words, and --before.
    ok("add", "Kobold", "Chief", "--like", "Goblin", "Brute", "--before", "Goblin", "Archer")
    order = [c["name"] for c in ok_json("status")["creatures"]]
    assert order[order.index("Goblin Archer") - 1] == "Kobold Chief"
    ok("move", "Kobold", "Chief", "--after", "Goblin", "Sniper")
    order = [c["name"] for c in ok_json("status")["creatures"]]
    assert order[order.index("Goblin Sniper") + 1] == "Kobold Chief"


def test_alias_takes_a_name_and_an_alias_of_two_words_each() -> None:
    _fight()
    ok("alias", "Goblin", "Archer", "Goblin", "2")
    assert ok_json("status", "Goblin Archer")["alias"] == "Goblin 2"


def test_effect_until_end_of_names_a_creature_of_two_words() -> None:
    _fight()
    out = ok_json("effect", "add", "Aria", "blessed", "--adv", "--until-end-of", "Goblin", "Sniper")
    assert out["effect"]["source"] == "blessed"
    assert out["effect"]["ends"]["kind"] == "end"
    assert out["effect"]["ends"]["creature"] == "Goblin Sniper"
    out = ok_json("effect", "add", "Aria", "dazed", "--dis", "--until-start-of", "Goblin", "Sniper")
    assert (out["effect"]["ends"]["kind"], out["effect"]["ends"]["creature"]) == (
        "start",
        "Goblin Sniper",
    )


def test_two_readings_exit_2_and_write_nothing() -> None:
    _fight()
    ok("add", "Goblin", "--aspect", "Might=2", "--hp", "5")
    line = fails(2, FILE, "add", "Kobold", "--like", "Goblin", "Archer")
    assert line == (
        "d4cli: error: --like: Kobold --like Goblin Archer reads more than one way; give "
        'add Kobold --like "Goblin Archer", or add "Kobold Archer" --like Goblin'
    )
    line = fails(2, FILE, "alias", "Goblin", "Archer", "Goblin", "2")
    assert line == (
        "d4cli: error: NAME: Goblin Archer Goblin 2 reads more than one way; give "
        'alias "Goblin Archer" "Goblin 2", or alias Goblin "Archer Goblin 2"'
    )
    # Each form the error shows does what it says.
    assert ok_json("add", "Kobold", "--like", "Goblin Archer")["actor"] == "Kobold"
    ok("alias", "Goblin Archer", "Goblin 2")
    assert ok_json("status", "Goblin Archer")["alias"] == "Goblin 2"


def test_a_value_that_names_no_creature_is_the_commands_own_error() -> None:
    _fight()
    before = files(FILE)
    out = run("act", "Aria", "Finesse", "--target", "Goblin", "Sniperr")
    assert out.exit_code == 2 and "unexpected extra argument(s) (Sniperr)" in out.stderr
    out = run("effect", "add", "Aria", "blessed", "--adv", "--until-end-of", "Orc", "Chief")
    assert out.exit_code == 2 and "Traceback" not in out.stderr
    assert files(FILE) == before


def test_a_creature_option_reads_two_ways_only_when_the_line_does() -> None:
    _fight()
    ok("add", "Goblin", "--aspect", "Might=2", "--hp", "5")
    ok("add", "Archer", "--aspect", "Might=2", "--hp", "5")
    # `--target Goblin` would leave `Archer` to act's arguments, which have no room: one reading.
    record = ok_json("act", "Aria", "--target", "Goblin", "Archer", "Finesse", "--seed", "4")
    assert (record["actor"], record["aspect_name"], record["target"]) == (
        "Aria",
        "Finesse",
        "Goblin Archer",
    )
    # An effect on several creatures has room for `Archer`: two readings, one error.
    line = fails(
        2, FILE, "effect", "add", "Aria", "--until-end-of", "Goblin", "Archer", "blessed", "--adv"
    )
    assert line == (
        "d4cli: error: --until-end-of: Aria --until-end-of Goblin Archer blessed --adv reads "
        'more than one way; give effect add --until-end-of "Goblin Archer" --adv -- Aria blessed, '
        "or effect add --until-end-of Goblin --adv -- Aria Archer blessed"
    )
    # Each form does what it says.
    out = ok_json("effect", "add", "Aria", "blessed", "--until-end-of", "Goblin Archer", "--adv")
    assert (out["actor"], out["effect"]["ends"]["creature"]) == ("Aria", "Goblin Archer")
