"""``d4cli play``: many commands in one process (docs/cli.md "play", docs/play.md).

Each line is split like a shell line (`shlex`, POSIX rules) and run through the
same root command as the console script (`d4cli.cli.root.D4Group.run`): the same
options, the same one-line errors and exit codes, the same store transaction
(lock and journal) for every change. Nothing is cached between lines: every
command reads the encounter file again, so a change made by another process is
seen by the next command.

Two modes:

* **Interactive** (stdin is a terminal): a prompt_toolkit prompt showing the
  round and whose turn it is, Tab completion from the shell completers
  (`d4cli.cli.completion`, generically through Click's completion), history kept in
  `d4cli.cli.play_history.history_path`. A bad line prints its error and the session goes on; Ctrl-C
  cancels the line, Ctrl-D (or ``exit``) leaves with exit 0.
* **Piped** (``d4cli play < commands.txt``): no prompt; the lines run in order
  and the first that fails ends the session with its exit code; the end of the
  input ends it with exit 0. Blank lines and ``#`` comments are skipped.

`d4cli.cli.play_modes.run_session` picks the mode; the interactive prompt
(`d4cli.cli.play_prompt`, the only importer of prompt_toolkit) runs a `Session`
and is imported only in the interactive mode.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterable, Iterator
from typing import Any

import typer

from d4cli.api import D4Error, InputError
from d4cli.api.inputs import SHOWN_HEAD, escape_control, shorten
from d4cli.api.seat_requests import SeatDesk
from d4cli.cli.app import app
from d4cli.cli.exit_codes import ExitCode, exit_code_of
from d4cli.cli.play_help import write_help
from d4cli.cli.root import say_error
from d4cli.cli.tracker_access import open_tracker

LEAVE_WORDS = frozenset({"exit", "quit"})
# The longest line a session runs, in characters: room for the longest note (10,000) and the
# command around it. Splitting a line costs time that grows faster than its length (a word of
# 1 MB took 18 s), so a longer one is refused before it is split.
MAX_LINE = 20_000
# Clears a terminal and puts the cursor at its top left (ANSI: cursor home, erase the display).
CLEAR_SCREEN = "\x1b[H\x1b[2J"


def check_length(line: str) -> None:
    """Refuse a line longer than `MAX_LINE` characters, before it is split.

    Raises:
        InputError: naming ``line``, its first characters and its length.
    """
    if len(line.rstrip("\n")) > MAX_LINE:
        raise InputError("line", None, f"{shown_line(line)}: a line of play holds one command")


def shown_line(line: str) -> str:
    """*line* as a message names it: whole, or its first characters and how long it is (N1)."""
    text = line.strip()
    if len(text) > MAX_LINE:  # read only in part (`read_lines`): its true length is not known
        return f"{escape_control(text[:SHOWN_HEAD])}... (longer than {MAX_LINE:,} characters)"
    return escape_control(shorten(text))


def split(line: str) -> list[str]:
    """The words of *line* as a POSIX shell splits them; a leading ``d4cli`` is dropped.

    Raises:
        InputError: an unterminated quote or a trailing backslash.
    """

    try:
        words = shlex.split(line, comments=True)
    except ValueError as error:
        raise InputError("line", line.strip(), f"cannot be split: {str(error).lower()}") from None
    if words and words[0] == "d4cli":
        words = words[1:]
    return words


def _root() -> Any:
    """The root Click command (`d4cli.cli.app.RootGroup`); its commands are built once, on first use."""

    return typer.main.get_command(app)


class Session:
    """One ``d4cli play`` session over the encounter at *path* (None: the default file).

    `run_line` runs one line and returns its exit code; `prompt` is the text
    showing the round and whose turn it is.
    """

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.root = _root()
        self.root.in_session = (
            True  # messages say `help`, `act --help` (`d4cli.cli.root.session_text`)
        )

    def run_line(self, line: str) -> int:
        """Run one command line; its exit code (0 for a blank line or a comment)."""

        try:
            check_length(line)
            words = split(line)
        except D4Error as error:
            say_error(str(error))
            return exit_code_of(error)
        if not words:
            return 0
        if words == ["help"]:
            return self._help()
        if words == ["clear"]:
            if sys.stdout.isatty():
                sys.stdout.write(CLEAR_SCREEN)
                sys.stdout.flush()
            return 0
        if words[0] == "play":
            say_error("play: already in a session (Ctrl-D leaves it)")
            return ExitCode.INPUT
        code: int = self.root.run(words, prog_name="d4cli")
        return code

    def _help(self) -> int:
        """The session's commands on one screen (`d4cli.cli.play_help`), not the root ``--help``."""
        write_help(sys.stdout)
        return 0

    def prompt(self, state: str | None = None, waiting: int | None = None) -> str:
        """``[round 2: Aria] d4cli> ``: the round and whose turn (or who is next), and
        ``, 2 requests`` while seats' requests wait for the GM (``requests``). *state* and
        *waiting* (a count): as already read (`state`, a `d4cli.cli.play_requests.RequestWatch`);
        None: read now."""
        count = waiting if waiting is not None else self.waiting()
        words = "" if not count else f", {count} request" + ("" if count == 1 else "s")
        return f"[{self.state() if state is None else state}{words}] d4cli> "

    def waiting(self) -> int:
        """How many requests from seats wait for the GM (0 when they cannot be read)."""
        try:
            return len(SeatDesk(open_tracker(self.path)).pending())
        except Exception:  # noqa: BLE001 - the prompt never fails; ``requests`` says why
            return 0

    def state(self) -> str:
        """The turn state in a few words, read from the file now (R13)."""
        try:
            encounter = open_tracker(self.path).status()
        except Exception:  # noqa: BLE001 - the prompt never fails; the next command says why
            return "no encounter"
        if encounter.round == 0:
            return "not started"
        if encounter.current is not None:
            return f"round {encounter.round}: {encounter.current}"
        if encounter.next_turn is not None:
            return f"round {encounter.round}: next {encounter.next_turn}"
        return f"round {encounter.round}: over"


def check_file(path: str | None) -> None:
    """Refuse to start on a file that exists but cannot be read as an encounter.

    A missing file is fine (``init`` may create it inside the session).

    Raises:
        FileError: the file is damaged or unreadable (the shell's message, exit 2).
    """
    tracker = open_tracker(path)
    if tracker.path.exists() or tracker.path.is_symlink():
        tracker.status()


def run_piped(session: Session, lines: Iterable[str]) -> int:
    """Run *lines* in order; the first non-zero exit code ends the run; else 0.

    A line ``exit`` or ``quit`` ends the run with 0, as on a terminal. The line that
    ended it is named on stderr after its own message: ``d4cli: play: stopped at line 3 (exit 2): act Ari Might``.
    """

    for number, line in enumerate(lines, start=1):
        if line.strip() in LEAVE_WORDS:
            return 0
        code = session.run_line(line)
        if code != 0:
            sys.stdout.flush()
            sys.stderr.write(
                f"d4cli: play: stopped at line {number} (exit {code}): {shown_line(line)}\n"
            )
            sys.stderr.flush()
            return code
    return 0


def read_lines(stream: Any) -> Iterator[str]:
    """The lines of *stream* (piped stdin) up to its end, or up to a read that fails.

    A line longer than `MAX_LINE` is never held whole: its first `MAX_LINE` + 1 characters
    stand for it (`check_length` refuses them), the rest is read past.
    """
    while True:
        try:
            line = stream.readline(MAX_LINE + 2)
            if len(line) > MAX_LINE + 1 and not line.endswith("\n"):
                rest = line
                while rest and not rest.endswith("\n"):
                    rest = stream.readline(1 << 16)
        except (OSError, ValueError):
            return
        if not line:
            return
        yield line
