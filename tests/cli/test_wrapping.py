"""Lines that fit: on a terminal, errors, notes, change lines and ``log`` lines wrap at its width
with a hanging indent; a pipe gets each of them as one line, exactly as before. ``help`` inside
``play`` is one screen of 80x24.

A terminal is emulated in process: the runner's streams say they are a terminal and ``COLUMNS``
gives its width (as Rich and `shutil.get_terminal_size` read it); the tests read the text
without any escape codes.
"""

from __future__ import annotations

import io
import re

import click.testing
import pytest
import typer.testing
from _cli import ok, run

from d4cli.output.wrap import hang, say, terminal_width

WIDTHS = [80, 120]
ERROR = "d4cli: error: "


@pytest.fixture
def terminal(monkeypatch):
    """``terminal(width)``: from now on the runner's stdout and stderr are a terminal that wide."""

    def at(width: int) -> None:
        for module in (click.testing, typer.testing):  # Typer's runner has its own streams
            wrapper = getattr(module, "_NamedTextIOWrapper", None)
            if wrapper is not None:
                monkeypatch.setattr(wrapper, "isatty", lambda self: True)
        monkeypatch.setenv("COLUMNS", str(width))
        monkeypatch.setenv("TERM", "xterm")  # Rich takes a dumb terminal as 80 wide

    return at


def _hangs(lines: list[str], indent: int, width: int) -> None:
    """Every line fits *width*; each after the first starts its text at column *indent*."""
    assert len(lines) > 1
    assert all(len(line) <= width for line in lines), lines
    for line in lines[1:]:
        assert line[:indent] == " " * indent and line[indent] != " ", lines


def _joined(lines: list[str]) -> str:
    return " ".join(line.strip() for line in lines)


def _long_sheet() -> None:
    ok("init", "--name", "Test")
    ok(
        *("add", "Aria", "--aspect", "Finesse=4", "--aspect", "Might=2", "--evasion", "11"),
        *("--hp", "12", "--attribute", "Willpower=2", "--proficiency", "Stealth=1"),
    )


def test_a_piped_error_is_one_line_as_before(encounter_file):
    piped = run("log", "--kind", "bogus")
    assert piped.exit_code == 2
    (line,) = piped.stderr.splitlines()
    assert line.startswith(ERROR + "--kind: 'bogus': no such kind; the kinds are init, add,")
    assert len(line) > 200


@pytest.mark.parametrize("width", WIDTHS)
def test_an_error_on_a_terminal_hangs_under_its_text(terminal, encounter_file, snapshot, width):
    piped = run("log", "--kind", "bogus").stderr.strip()
    terminal(width)
    shown = run("log", "--kind", "bogus")
    assert shown.exit_code == 2
    lines = shown.stderr.splitlines()
    assert lines[0].startswith(ERROR + "--kind: 'bogus'")
    _hangs(lines, len(ERROR), width)
    assert _joined(lines) == piped  # the same words, only broken at spaces
    assert shown.stderr == snapshot


def test_a_refusal_on_a_terminal_hangs_under_its_text(terminal, encounter_file):
    ok("turn", "start")
    piped = run("act", "Aria", "Finesse", "--cost", "9")
    assert piped.exit_code == 3 and len(piped.stderr.splitlines()) == 1
    terminal(40)
    shown = run("act", "Aria", "Finesse", "--cost", "9")
    lines = shown.stderr.splitlines()
    _hangs(lines, len("d4cli: "), 40)
    assert _joined(lines) == piped.stderr.strip()


@pytest.mark.parametrize("width", WIDTHS)
def test_log_lines_on_a_terminal_hang_under_their_text(terminal, snapshot, width):
    _long_sheet()
    ok("note", "the goblins wait in the dark beyond the bridge, " * 3)
    piped = ok("log").stdout.splitlines()
    assert len(piped) == 3 and len(piped[1]) > 120  # a pipe: one line per entry
    terminal(width)
    shown = ok("log").stdout.splitlines()
    prefix = re.match(r"#\d+ \d\d:\d\d R\d+ ", piped[1])
    assert prefix is not None
    entries = [n for n, line in enumerate(shown) if line.startswith("#")]
    assert len(entries) == 3
    assert shown[0] == piped[0]  # a short line stays as it is
    added = shown[entries[1] : entries[2]]
    _hangs(added, len(prefix[0]), width)
    assert _joined(added) == piped[1]
    _hangs(shown[entries[2] :], len(prefix[0]), width)
    # The time is the run's: the snapshot has it as HH:MM.
    assert re.sub(r"\d\d:\d\d", "HH:MM", "\n".join(shown)) == snapshot


@pytest.mark.parametrize("width", WIDTHS)
def test_a_change_line_on_a_terminal_hangs_by_two(terminal, snapshot, width):
    ok("init", "--name", "Test")
    args = ("add", "Aria", "--aspect", "Finesse=4", "--aspect", "Might=2", "--evasion", "11")
    more = ("--hp", "12", "--attribute", "Willpower=2", "--proficiency", "Stealth=1")
    sheet = ("--specialization", "Lockpicking=1", "--specialization", "Climbing=1")
    ok("init", "--name", "Test", "--file", "piped.toml")
    piped = ok(*args, *more, *sheet, "--file", "piped.toml").stdout
    assert len(piped.splitlines()) == 1
    terminal(width)
    shown = ok(*args, *more, *sheet).stdout
    lines = re.sub(r"\x1b\[[0-9;]*m", "", shown).splitlines()
    _hangs(lines, 2, width)
    assert _joined(lines) == piped.strip()
    assert "\n".join(lines) == snapshot


def test_a_damaged_journal_warning_hangs_under_its_text(terminal, encounter_file):
    journal = encounter_file.with_name(encounter_file.name + ".journal")
    with journal.open("a") as out:
        out.write("not an entry at all\n")
    piped = run("log")
    (warning,) = [line for line in piped.stderr.splitlines() if "warning" in line]
    terminal(60)
    lines = run("log").stderr.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("d4cli: warning: "))
    _hangs(lines[start:], len("d4cli: warning: "), 60)
    # The file's path is a word longer than a line: split, its characters all kept.
    assert _joined(lines[start:]).replace(" ", "") == warning.replace(" ", "")


def test_a_wrapped_change_line_keeps_its_styles():
    from rich.console import Console
    from rich.text import Text

    from d4cli.output.render import hanging

    screen = io.StringIO()
    out = Console(file=screen, width=40, force_terminal=True, color_system="standard")
    line = "[bold]Goblin Archer[/]: HP 7 -> 0, down (R16, R18); [bold]the fight is over[/], won by party"
    out.print(hanging(Text.from_markup(line), out, 2))
    shown = screen.getvalue()
    assert "\x1b[1mGoblin Archer\x1b[0m" in shown
    lines = re.sub(r"\x1b\[[0-9;]*m", "", shown).splitlines()
    _hangs(lines, 2, 40)
    assert _joined(lines) == Text.from_markup(line).plain


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_say_wraps_only_on_a_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "34")
    text = "the file had been edited by hand after that change"
    pipe, tty = io.StringIO(), _Tty()
    say("d4cli: note: ", text, pipe)
    say("d4cli: note: ", text, tty)
    assert pipe.getvalue() == f"d4cli: note: {text}\n"
    assert tty.getvalue().splitlines() == [
        "d4cli: note: the file had been",
        "             edited by hand after",
        "             that change",
    ]
    assert terminal_width(pipe) is None and terminal_width(tty) == 34


def test_hang_keeps_room_for_the_text_and_splits_a_word_too_long():
    assert hang("d4cli: error: ", "short", 80) == "d4cli: error: short"
    assert hang("d4cli: error: ", "x" * 100, None) == "d4cli: error: " + "x" * 100
    lines = hang("d4cli: error: ", "x" * 100, 40).splitlines()
    assert all(len(line) <= 40 for line in lines) and lines[1].startswith(" " * 14 + "x")
    # Too narrow to keep the indent: the text starts at the left edge.
    assert hang("d4cli: error: ", "a b c d e f g h i j k l", 20).splitlines()[1][0] != " "


# --- help inside play ----------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_help_in_play_fits_one_screen(monkeypatch, snapshot, width):
    from d4cli.cli.play_session import Session

    monkeypatch.setenv("COLUMNS", str(width))
    screen = _Tty()
    monkeypatch.setattr("sys.stdout", screen)
    assert Session(None).run_line("help") == 0
    lines = screen.getvalue().splitlines()
    assert len(lines) < 24  # the prompt still has its line
    assert all(len(line) <= 80 for line in lines)
    assert "'help TOPIC'" in lines[-1] and "'COMMAND --help'" in lines[-1]
    assert screen.getvalue() == snapshot


def test_help_in_play_lists_every_command_but_play():
    from d4cli.cli.app import COMMANDS
    from d4cli.cli.play_help import PHRASE, SESSION_COMMANDS, SESSION_WORDS, help_lines

    assert list(SESSION_COMMANDS) == [name for name in COMMANDS if name != "play"]
    assert all(len(phrase) <= PHRASE for phrase in {**SESSION_COMMANDS, **SESSION_WORDS}.values())
    shown = help_lines(None)
    words = {line.split()[0] for line in shown[1:-1]} | {
        line[40:].split()[0] for line in shown[1:-1] if len(line) > 40
    }
    assert words == set(SESSION_COMMANDS) | set(SESSION_WORDS)
    narrow = help_lines(60)  # one column
    assert len(narrow) == len(SESSION_COMMANDS) + len(SESSION_WORDS) + 2
    assert all(len(line) <= 60 for line in narrow[1:-1])


def test_help_in_a_piped_play_is_the_same_list():
    from d4cli.cli.play_help import help_lines
    from d4cli.cli.play_session import Session, run_piped

    screen = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdout", screen)
        assert run_piped(Session(None), ["help\n"]) == 0
    assert screen.getvalue().splitlines() == help_lines(None)


_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.mark.slow  # drives a real terminal
def test_help_and_an_error_in_a_real_terminal_of_80x24(tmp_path):
    import os
    import sys

    from d4cli.cli.play_help import HEADER, MORE

    pexpect = pytest.importorskip("pexpect")
    ok("init", "--from", "skirmish")
    env = {key: value for key, value in os.environ.items() if not key.startswith("D4CLI_")}
    env.pop("COLUMNS", None)  # the terminal's own size
    env.update(NO_COLOR="1", TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1")
    env.update(D4CLI_HISTORY=str(tmp_path / "history"))
    child = pexpect.spawn(
        sys.executable,
        ["-m", "d4cli", "play"],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=20,
        dimensions=(24, 80),
    )
    try:
        child.expect_exact("[not started] d4cli>")
        child.sendline("help")
        child.expect_exact(MORE)
        shown = _ESCAPE.sub("", child.before + MORE).replace("\r", "").split("\n")
        child.expect_exact("d4cli>")
        child.sendline("log --kind bogus")
        child.expect_exact("alias, set")
        error = _ESCAPE.sub("", child.before + "alias, set").replace("\r", "").split("\n")
        child.expect_exact("d4cli>")
        child.sendcontrol("d")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    screen = shown[next(n for n, line in enumerate(shown) if line.startswith(HEADER)) :]
    assert len(screen) < 24 and all(len(line) <= 80 for line in screen)  # and the prompt's line
    start = next(n for n, line in enumerate(error) if line.startswith(ERROR))
    assert error[start].startswith("d4cli: error: --kind: 'bogus': no such kind;")
    _hangs(error[start:], len(ERROR), 80)
