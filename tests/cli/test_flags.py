"""The one table from the library's fields to the shell's options (`d4cli.cli.flags`).

Every field the core can name (read from its source, `_core_fields`) is either spelt by
the table or one the shell shows as named; each spelling in the table is an option or
argument of the commands it is for; a field the table does not know reads as named.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer
import typer.main
from _cli import run
from _core_fields import core_trees, found_in, library_names

from d4cli.cli.app import app
from d4cli.cli.flags import FLAG_OF, flag_of, shell_message
from d4cli.rules.errors import FileError, InputError, RefusedError

# Fields of the library that no option gives: a command, a file's table, a place name.
SHOWN_AS_NAMED = {
    "actions",  # a creature's named actions, checked by the simulator
    "arguments",  # a library call given too many positional arguments (`d4cli.api.arguments`)
    "changes",  # `Tracker.set`'s (the shell's FIELD=VALUE words)
    "creature",  # a seat's creature (`SeatDesk.submit`: the seat's web page sends it)
    "current",  # the turn running (turn end)
    "drafts",  # the drafts file's list (PATH.drafts)
    "encounter",  # what `d4cli.api.simulation.simulate` plays: the shell always hands it a file
    "expression",  # `d4cli.api.rolls.roll_dice`'s (the shell parses its EXPR itself)
    "field",  # a field `set` does not know (the shell's FIELD of FIELD=VALUE)
    "forecast",
    "hp_shown",  # a field of the players' view file
    "next",  # a field of the requests file (PATH.requests)
    "request",  # a seat's requests waiting at once (`SeatDesk.submit`)
    "requests",  # the requests file's list
    "carried",  # the requests file's index of carried-out requests
    "seats",  # the seats file's list (PATH.seats)
    "token",  # a seat's key (`SeatDesk.submit`): sent by its web page, never typed
    "key",  # a request's exactly-once key (`SeatDesk.submit`): made by the seat's page
    "version",  # the seats and requests files' format
    "pool_size",  # `d4cli.api.odds.p_pool_success`'s pool (the shell's grids take --pool)
    "rng",  # scripted dice a script gives a library call (`ScriptedDice`); no option does
    "place",  # `Tracker.move`'s (the shell gives it from --before/--after/--first/--last)
    "policy",
    "recap",
    "redo",
    "undo",
}


def _tree(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    yield " ".join(path), command
    if hasattr(command, "list_commands"):
        ctx = typer.Context(command)
        for name in command.list_commands(ctx):
            yield from _tree(command.get_command(ctx, name), (*path, name))


def _spellings(command: Any) -> set[str]:
    """A command's options and its arguments' metavars (``ASPECT|ACTION`` gives both,
    ``NAME...`` gives NAME)."""
    out: set[str] = set()
    for param in command.params:
        out.update(param.opts, param.secondary_opts)
        if param.param_type_name == "argument":
            # a variadic argument's `NAME...` spells NAME
            words = (param.metavar or param.name.upper()).split("|")
            out.update(word.removesuffix("...") for word in words)
    return out


COMMANDS = {path: _spellings(command) for path, command in _tree(typer.main.get_command(app))}


def test_every_field_the_core_names_is_spelt_or_shown_as_named():
    named = {
        name
        for found in found_in(core_trees())
        if found.kind != "text"
        for name in library_names(found.text)
    }
    assert named - set(FLAG_OF) - SHOWN_AS_NAMED == set()
    assert named & SHOWN_AS_NAMED == SHOWN_AS_NAMED  # none of them is stale


def test_each_spelling_is_an_option_of_its_commands():
    wrong = []
    for field, entry in FLAG_OF.items():
        by_command = {"": entry} if isinstance(entry, str) else entry
        for command, spelling in by_command.items():
            holders = [COMMANDS[command]] if command else list(COMMANDS.values())
            for one in spelling.split("/"):  # a grant is `--adv/--dis`
                if not any(one in spellings for spellings in holders):
                    wrong.append(f"{field}: {command or 'any command'} has no {one}")
    assert wrong == []


def test_a_command_takes_its_own_spelling_else_the_common_one_else_the_name():
    assert flag_of("disadvantage", ["roll", "pool", "4"]) == "--dis"
    assert flag_of("disadvantage", ["roll", "check"]) == "--disadvantage"
    assert flag_of("disadvantage", ["check", "Aria"]) == "--disadvantage"
    assert flag_of("aspect", ["team", "Aria", "Borin"]) == "--aspect"
    assert flag_of("aspect", ["act", "Aria", "Might"]) == "ASPECT"
    assert flag_of("name", ["init"]) == "--name"
    assert flag_of("name", ["act", "init"]) == "name"  # no spelling for `act`, no common one
    assert flag_of("no_such_field", ["roll", "pool"]) == "no_such_field"


def test_the_message_spells_fields_and_mentions_and_keeps_the_rest():
    error = InputError("ignore_load", None, "only with {gm} ({gm}); {x}", mentions=("gm",))
    assert shell_message(error, ["roll", "pool"]) == "--ignore-load: only with --gm (--gm); {x}"
    assert str(error) == "ignore_load: only with gm (gm); {x}"
    error = InputError("dc/no_such_field", 3, "is wrong", where="Aria {dc}")
    assert shell_message(error, ["act"]) == "Aria {dc}: --dc/no_such_field: 3: is wrong"
    assert shell_message(InputError("NAME", "dc", "x"), ["act"]) == "NAME: 'dc': x"
    assert (
        shell_message(InputError("policy.target", "dc", "x"), ["act"]) == "policy.target: 'dc': x"
    )
    # A file's fields are the file's, even one of a library name (a file called `dc`).
    assert shell_message(FileError("dc", "", None, "no such file"), ["act"]) == "dc: no such file"
    assert shell_message(RefusedError("impossible (C4)"), ["roll"]) == "impossible (C4)"


def test_the_shell_prints_the_options_a_script_is_told_the_keywords_of(tmp_path):
    out = run("roll", "pool", "4", "--ignore-load")
    assert out.exit_code == 2
    assert out.stderr == (
        "d4cli: error: --ignore-load: only with --gm: ignoring Load is for a GM-called roll (R9)\n"
    )
    out = run("roll", "pool", "4", "--extra", "9999d4", "--adv", "torch")
    assert out.stderr.startswith("d4cli: error: ASPECT/--adv/--extra: 10004: dice (5 in the pool")
