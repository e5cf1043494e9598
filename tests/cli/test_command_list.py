"""The list of commands (``--help``, a Tab on a command name) is read from `COMMANDS` alone.

Each line of `d4cli.cli.app.COMMANDS` carries its command's one-line summary, so that
listing the commands imports none of them; these tests hold the table to the commands.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys

import pytest
import typer

from d4cli.cli.app import COMMANDS, app

# Lists the commands in a fresh interpreter (argv[1]: "help", or a Tab on argv[2]) and
# prints the d4cli modules it loaded, last, on stderr.
PROBE = r"""
import json, os, sys
if sys.argv[1] == "tab":
    os.environ.update({"_D4CLI_COMPLETE": "complete_zsh", "_D4CLI_COMPLETE_ARGS": "",
                       "_D4CLI_COMPLETE_INCOMPLETE": sys.argv[2]})
from d4cli.cli.main import main
try:
    main(["--help"] if sys.argv[1] == "help" else [])
except SystemExit:
    pass
sys.stdout.flush()
print(json.dumps(sorted(m for m in sys.modules if m.startswith("d4cli"))), file=sys.stderr)
"""


def _first_paragraph(command: typer.core.TyperCommand) -> str:
    # What Typer's help lists of a command: the first paragraph of its help.
    return inspect.cleandoc(command.short_help or command.help or "").split("\n\n")[0].strip()


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_summary_is_the_first_paragraph_of_its_commands_help(name: str) -> None:
    root = typer.main.get_command(app)
    ctx = typer.Context(root, info_name="d4cli")
    command = root.get_command(ctx, name)
    assert command is not None
    assert COMMANDS[name].summary == _first_paragraph(command)


def _probe(*args: str) -> tuple[str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=60
    )
    return done.stdout, json.loads(done.stderr.strip().splitlines()[-1])


def test_help_lists_every_command_and_imports_none() -> None:
    out, modules = _probe("help")
    for name, listed in COMMANDS.items():
        assert f" {name} " in out
        assert listed.summary.split("\n")[0][:40] in out
    assert [name for name in modules if name.startswith("d4cli.cli.commands.")] == []


def test_a_tab_on_a_command_name_lists_from_the_table_and_imports_none() -> None:
    out, modules = _probe("tab", "a")
    names = [line.split("\t")[0] for line in out.splitlines() if line]
    assert names == [name for name in COMMANDS if name.startswith("a")]
    assert "act\tA creature acts: gate, pool, roll, Load +..." in out.splitlines()
    assert [name for name in modules if name.startswith("d4cli.cli.commands.")] == []


def test_a_command_still_runs_after_the_list_was_read(capsys: pytest.CaptureFixture[str]) -> None:
    # One root group, as in `d4cli play`: the stand-ins of the list are never kept, so the
    # command that runs next is built, options and all.
    root = typer.main.get_command(app)
    assert root.run(["--help"]) == 0
    assert " roll " in capsys.readouterr().out
    assert root.run(["roll", "pool", "3", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["pool_size"] == 3
