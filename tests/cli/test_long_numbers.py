"""Whole numbers of any length (1 to 10,000 digits) wherever d4cli reads one: every option
and argument of every command, the environment, every number field of the encounter file,
and journal lines (with them, lines nested 10,000 deep).

Python refuses to convert more than 4,300 digits (a ValueError) and converts fewer in time
quadratic in the digits, so each number is bounded before it is converted: a number too
long is an ordinary range error naming its field (exit 2, the file and journal unchanged),
never "internal error". The command list is read from the command tree, so a new option is
fuzzed too.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
import typer.main
from _cli import run
from _reliability import check_answer, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

from d4cli.cli.app import app
from d4cli.cli.completion.words import line_to_cursor

LONG = "9" * 5000
# Commands that wait for a person or serve until stopped: their numbers are fuzzed elsewhere.
SKIP = {"play", "serve", "board"}
# Values a working call needs, by argument name; anything else gets "1".
POSITIONALS = {
    "name": "Aria",
    "actor": "Aria",
    "target": "Bob",
    "aspect": "Might",
    "source": "blessed",
    "action": "Strike",
    "level": "1",
    "amount": "1",
    "topic": "gate",
    "text": "a note",
}
# What keeps a command quick whatever the option under test (dropped when that option is the one).
BASE = {"simulate": ["--from", "skirmish", "--runs", "2"], "odds compare": ["--pool", "1"]}


@functools.cache
def commands() -> list[tuple[list[str], list[Any]]]:
    """Every leaf command of the tree: (its words, its parameters)."""
    root = typer.main.get_command(app)
    ctx = root.context_class(root)
    out: list[tuple[list[str], list[Any]]] = []

    def walk(group: Any, words: list[str]) -> None:
        for name in group.list_commands(ctx):
            sub = group.get_command(ctx, name)
            if sub is None or name in SKIP:
                continue
            if hasattr(sub, "list_commands"):
                walk(sub, [*words, name])
            else:
                out.append(([*words, name], list(sub.params)))

    walk(root, [])
    return out


def cases() -> list[list[str]]:
    """One argv per (command, argument or value option), that value a 5,000-digit number."""
    out: list[list[str]] = []
    for words, params in commands():
        arguments = [param for param in params if param.param_type_name == "argument"]
        filled = [
            POSITIONALS.get(param.name or "", "1") for param in arguments if param.name != "file"
        ]
        base = BASE.get(" ".join(words), [])
        for index, param in enumerate(arguments):
            if param.name == "file":
                continue
            values = list(filled)
            values[index] = LONG
            out.append([*words, *values, *base])
        for param in params:
            if param.param_type_name == "option" and not param.is_flag:
                option = param.opts[0]
                rest = [
                    word
                    for i, word in enumerate(base)
                    if option not in (word, base[i - 1] if i else None)
                ]
                out.append([*words, *filled, *rest, option, LONG])
    return out


@pytest.fixture
def encounter(tmp_path: Path) -> Path:
    path = tmp_path / "encounter.toml"
    for argv in (
        ["init"],
        ["add", "Aria", "--aspect", "Might=3", "--hp", "10", "--max-hp", "12"],
        ["add", "Bob", "--aspect", "Might=2"],
        ["action", "add", "Aria", "Strike", "--aspect", "Might"],
        ["effect", "add", "Aria", "blessed", "--adv", "--rounds", "2"],
    ):
        assert run(*argv).exit_code == 0, argv
    return path


def expect_clean(argv: list[str], folder: Path, env: dict[str, str] | None = None) -> None:
    before = snapshot(folder)
    out = run(*argv, env=env)
    check_answer(out)
    if out.exit_code != 0:
        assert snapshot(folder) == before, argv
    if out.exit_code == 2:
        assert len(out.stderr.splitlines()[-1]) < 1500, out.stderr[
            :400
        ]  # one line, never the whole 5,000 digits


@pytest.mark.slow
def test_every_option_and_argument_takes_5000_digits(encounter: Path):
    every = cases()
    assert len(every) > 100  # the whole tree: each command's arguments and value options
    for argv in every:
        expect_clean(argv, encounter.parent)


def test_the_range_errors_name_their_field(encounter: Path):
    for argv, field in (
        (["roll", "pool", LONG], "ASPECT"),
        (["exhaust", "Aria", "+" + LONG], "LEVEL"),
        (["damage", "Aria", LONG], "N"),
        (["log", "--last", LONG], "--last"),
    ):
        out = run(*argv)
        assert (
            out.exit_code == 2
            and f"error: {field}: " in out.stderr
            and "must be within" in out.stderr
        ), out


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    case=st.sampled_from(sorted(map(tuple, cases()))),
    # Any length from 1 to 10,000: a drawn run of digits repeated to the drawn length.
    digits=st.builds(
        lambda run, n: (run * n)[:n],
        st.text("0123456789", min_size=1, max_size=40),
        st.integers(1, 10_000),
    ),
    sign=st.sampled_from(["", "-", "+"]),
)
def test_digit_strings_of_any_length_anywhere(tmp_path_factory, case, digits, sign):
    folder = tmp_path_factory.mktemp("digits")
    path = folder / "encounter.toml"
    for argv in (
        ["init", "-f", str(path)],
        ["add", "Aria", "--aspect", "Might=3", "-f", str(path)],
    ):
        assert run(*argv).exit_code == 0
    argv = [sign + digits if word == LONG else word for word in case]
    if (
        argv[0] not in ("roll", "odds", "help", "simulate")
        and "--file" not in argv
        and "-f" not in argv
    ):
        argv += ["--file", str(path)]
    expect_clean(argv, folder)


# Each variable that holds a number, and a command that reads it.
READERS = {
    "COLUMNS": ["status"],
    "LINES": ["status"],
    "D4CLI_SEED": ["roll", "pool", "3"],
    "D4CLI_LOCK_TIMEOUT": ["turn", "start"],
}


@pytest.mark.parametrize("variable", sorted(READERS))
@pytest.mark.parametrize("value", [LONG, "9" * 10_000, "0", "²", "-" + LONG])
def test_environment_numbers_are_bounded(encounter: Path, variable, value):
    for argv in (["status"], ["roll", "pool", "3"], ["turn", "start"]):
        expect_clean(argv, encounter.parent, env={variable: value})
    out = run(*READERS[variable], env={variable: LONG})
    assert out.exit_code == 2 and f"error: {variable}: " in out.stderr


def test_a_completion_cursor_of_5000_digits_is_the_whole_line():
    assert line_to_cursor(b"d4cli sta", LONG) == "d4cli sta"
    assert line_to_cursor(b"d4cli sta", "7") == "d4cli s"


NUMBER_FIELDS = (
    "schema_version",
    "round",
    "load_buffer",
    "exhaustion",
    "load",
    "evasion",
    "hp",
    "max_hp",
    "Might",
)


@pytest.mark.parametrize("field", NUMBER_FIELDS)
@pytest.mark.parametrize("value", [LONG, "-" + LONG, "9" * 10_000])
def test_every_number_field_of_the_file_takes_5000_digits(encounter: Path, field, value):
    lines = encounter.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{field} = "))
    lines[at] = f"{field} = {value}"
    encounter.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = run(*["status"])
    assert (
        out.exit_code == 2 and f"line {at + 1}: {field}: " in out.stderr and "digits" in out.stderr
    ), out
    # (`undo` would take the hand edit back with the newest change, as it always does.)
    for argv in (
        ["status", "--json"],
        ["turn", "start"],
        ["log"],
        ["redo"],
        ["add", "Cara", "--aspect", "X=1"],
    ):
        expect_clean(argv, encounter.parent)


def test_long_digits_in_strings_and_comments_are_text(encounter: Path):
    text = encounter.read_text(encoding="utf-8").replace(
        'name = "encounter"', f'name = "{LONG}" # {LONG}'
    )
    encounter.write_text(text, encoding="utf-8")
    out = run(*["status"])
    assert out.exit_code == 0, out


@pytest.mark.parametrize(
    "line",
    [
        b'{"seq":' + LONG.encode() + b',"kind":"add"}\n',
        b'{"seq":9,"kind":"add","x":' + LONG.encode() + b"}\n",
        b'{"seq":9,"kind":"add","x":' + b"[" * 10_000 + b"]" * 10_000 + b"}\n",
        b'{"seq":9,"kind":"add","x":' + b'{"a":' * 10_000 + b"1" + b"}" * 10_000 + b"}\n",
        b"[" * 100_000 + b"\n",
    ],
    ids=["long seq", "long number", "deep arrays", "deep objects", "deep junk"],
)
def test_a_journal_line_too_deep_or_too_long_is_damaged(encounter: Path, line):
    journal = encounter.with_name(encounter.name + ".journal")
    journal.write_bytes(journal.read_bytes() + line)
    for argv in (
        ["log"],
        ["log", "--json"],
        ["undo"],
        ["redo"],
        ["status"],
        ["turn", "start"],
        ["undo"],
    ):
        expect_clean(argv, encounter.parent)
    redo = encounter.with_name(encounter.name + ".redo")
    redo.write_bytes(line)
    for argv in (["redo"], ["undo"], ["redo"]):
        expect_clean(argv, encounter.parent)


@pytest.mark.parametrize("digits", ["0" * 4300 + "1", "0" * 10_000 + "7", "-" + "0" * 5000 + "2"])
def test_leading_zeros_do_not_count_against_the_limit(encounter: Path, digits):
    # Python's own limit counts every digit, leading zeros too: a whole number is its digits that count.
    out = run("exhaust", "Aria", digits)
    check_answer(out)
    assert out.exit_code in (0, 2)
    out = run("roll", "pool", digits, "--seed", "1", "--json")
    assert out.exit_code in (0, 3) and out.json()["aspect"] == int(
        digits.lstrip("-").lstrip("0")
    ) * (-1 if digits.startswith("-") else 1)
