"""The list of commands (``--help``, a Tab on a command name) is read from `COMMANDS` alone.

Each line of `d4cli.cli.app.COMMANDS` carries its command's panel and one-line summary, so
that listing the commands imports none of them; these tests hold the table to the commands,
and ``--help`` to one screen of panels (snapshots at 80 and 120 columns).
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys

import pytest
import typer
import typer.testing

from d4cli.cli.app import COMMANDS, DESIGNER, DICE, FIGHT, PLAYERS, app

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


def _first_line(command: typer.core.TyperCommand) -> str:
    # The first line of a command's own help (its docstring, or its Typer app's ``help``),
    # which is also its whole first paragraph: what Typer's help would list of it.
    text = inspect.cleandoc(command.help or "")
    assert command.short_help is None
    assert text.split("\n\n")[0] == text.split("\n")[0]
    return text.split("\n")[0]


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_summary_is_the_first_line_of_its_commands_help(name: str) -> None:
    root = typer.main.get_command(app)
    ctx = typer.Context(root, info_name="d4cli")
    command = root.get_command(ctx, name)
    assert command is not None
    assert COMMANDS[name].summary == _first_line(command)
    assert command.rich_help_panel == COMMANDS[name].panel


def test_every_registered_command_has_a_line_and_a_panel() -> None:
    # The commands Typer would build from the modules are those of the table, each in one
    # of the panels of `--help`, panel by panel in the table's order.
    panels = [DICE, FIGHT, PLAYERS, DESIGNER]
    root = typer.main.get_command(app)
    assert root.list_commands(typer.Context(root, info_name="d4cli")) == list(COMMANDS)
    assert {listed.panel for listed in COMMANDS.values()} == set(panels)
    order = [panels.index(listed.panel) for listed in COMMANDS.values()]
    assert order == sorted(order)
    assert all(len(listed.summary) <= 64 for listed in COMMANDS.values())


@pytest.mark.parametrize("width", [80, 120])
def test_help_is_one_screen_of_panels(width: int, snapshot, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.delenv("NO_COLOR", raising=False)
    done = typer.testing.CliRunner().invoke(app, ["--help"], color=False)
    assert done.exit_code == 0
    lines = done.output.splitlines()
    assert len(lines) <= 60 and all(len(line) <= width for line in lines)
    for panel in (DICE, FIGHT, PLAYERS, DESIGNER):
        assert f"─ {panel} ─" in done.output
    assert done.output == snapshot


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
    assert "act\tA creature acts: gate, pool, roll, Load,..." in out.splitlines()
    assert [name for name in modules if name.startswith("d4cli.cli.commands.")] == []


def test_a_command_still_runs_after_the_list_was_read(capsys: pytest.CaptureFixture[str]) -> None:
    # One root group, as in `d4cli play`: the stand-ins of the list are never kept, so the
    # command that runs next is built, options and all.
    root = typer.main.get_command(app)
    assert root.run(["--help"]) == 0
    assert " roll " in capsys.readouterr().out
    assert root.run(["roll", "pool", "3", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["pool_size"] == 3
