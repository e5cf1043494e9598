"""The interactive prompt of ``d4cli play``: prompt_toolkit, Tab completion, history, and the
seats' requests live (`interact`: printed as they come, waiting ones in the bottom toolbar).

Completion asks the root command itself, through Click's completion
(`d4cli.cli.completion.shells.line_completions`), the way the bash, zsh and fish scripts do:
every parameter's completer in `d4cli.cli.completion` (creatures, Aspects, DC
tiers, formats, and any added later) works here without being named. Values
are quoted for `d4cli.cli.play_session.split` (``"Goblin Archer"``).

This is the only module that imports prompt_toolkit.
"""

from __future__ import annotations

import asyncio
import datetime
import functools
import os
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from d4cli.api import D4Error
from d4cli.api.inputs import escape_control
from d4cli.cli import completion
from d4cli.cli.completion.words import split_line
from d4cli.cli.interrupts import interrupted
from d4cli.cli.play_history import history_path, open_history
from d4cli.cli.play_requests import POLL_SECONDS, RequestWatch, arrived_line, toolbar_text
from d4cli.cli.play_session import LEAVE_WORDS
from d4cli.cli.tracker_access import open_tracker
from d4cli.output.render import escape
from d4cli.output.render.entry_lines import print_lines
from d4cli.output.wrap import say

if TYPE_CHECKING:
    from d4cli.cli.play_session import Session


# Characters a value may keep without quotes in a session line.
_SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,/+%@^:=")


def current_word_start(text: str) -> int:
    """Index in *text* where the word under the cursor (the end of *text*) begins, quotes included."""
    starts, open_word = word_starts(text)
    return starts[-1] if open_word else len(text)


def word_starts(text: str) -> tuple[list[int], bool]:
    """Where each word of *text* begins, quotes included, and whether the last is still
    open at the end of *text* (the word under the cursor)."""
    starts: list[int] = []
    quote = ""
    in_word = False
    i = 0
    while i < len(text):
        char = text[i]
        if quote:
            if char == quote:
                quote = ""
            elif char == "\\" and quote == '"':
                i += 1
        elif char in " \t":
            in_word = False
        else:
            if not in_word:
                starts.append(i)
                in_word = True
            if char in "'\"":
                quote = char
            elif char == "\\":
                i += 1
        i += 1
    return starts, bool(in_word or quote)


def quote_value(value: str) -> str:
    """*value* as one word of a session line: bare when safe, else in double quotes."""
    if value and all(c in _SAFE or (ord(c) > 127 and c.isprintable()) for c in value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def completions(root: Any, text: str) -> list[tuple[str, str, str]]:
    """``(replacement, display, help)`` for the word at the end of *text*; never raises."""
    try:
        words, typed = split_line(text)
        return _completions(root, words, typed.value)
    except Exception:  # noqa: BLE001 - completion never breaks the prompt
        return []


def _completions(root: Any, words: list[str], incomplete: str) -> list[tuple[str, str, str]]:
    """`completions` of *incomplete* after *words*.

    Raises:
        Whatever a completer or Click's parsing of *words* raises.
    """
    from d4cli.cli.completion.shells import line_completions

    if words and words[0] == "d4cli":
        words = words[1:]
    words = _names_joined(root, words, incomplete)
    completion.typed_words[:] = words
    head = ""
    if incomplete.startswith("-") and "=" in incomplete:
        head = incomplete.partition("=")[0] + "="
    out: list[tuple[str, str, str]] = []
    for item in line_completions(root, words, incomplete):
        if getattr(item, "type", "plain") != "plain":
            continue
        value = str(item.value)
        out.append((head + quote_value(value), value, " ".join(str(item.help or "").split())))
    return out


def _names_joined(root: Any, words: list[str], incomplete: str) -> list[str]:
    """*words* with the creatures' names typed without quotes joined, as a run of the
    line would join them (`d4cli.cli.root.D4Group.names_joined`), *incomplete* still
    being typed: ``act Goblin Archer F`` completes Goblin Archer's Aspects."""
    join = getattr(root, "names_joined", None)
    if join is None:
        return words
    try:
        if incomplete.startswith("-"):
            return list(join(words))
        joined = list(join([*words, incomplete], open_end=True))
    except D4Error:
        return words
    return joined[:-1] if joined[-1:] == [incomplete] else words


# The most words before the cursor that a name typed without quotes is completed from.
NAME_WORDS = 8


def name_completions(root: Any, text: str) -> list[tuple[int, str, str, str]]:
    """A creature's name typed without quotes, completed after a space inside it:
    ``act Goblin A`` gives ``"Goblin Archer"``, to replace from where ``Goblin`` begins.

    ``(start, replacement, display, help)``, *start* the index in *text* the replacement
    begins at; never raises. The words of the name are those before the cursor (never
    the command's own, never an option).
    """
    try:
        words, typed = split_line(text)
        starts, open_word = word_starts(text)
        if typed.quote or not typed.value or not open_word:
            return []
        finished = starts[:-1]
        lead = 2 if words[:1] == ["d4cli"] else 1
        out: list[tuple[int, str, str, str]] = []
        for back in range(1, min(len(words) - lead, NAME_WORDS) + 1):
            run = words[len(words) - back :]
            if any(word.startswith("-") for word in run):
                break
            typed_name = " ".join([*run, typed.value])
            start = finished[len(words) - back]
            for item in _completions(root, words[: len(words) - back], typed_name):
                out.append((start, *item))
        return out
    except Exception:  # noqa: BLE001 - completion never breaks the prompt
        return []


class SessionCompleter(Completer):
    """Completes the word under the cursor from the root command's completers."""

    def __init__(self, root: Any) -> None:
        self.root = root

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        text = document.text_before_cursor
        start = current_word_start(text)
        found = [(start, *item) for item in completions(self.root, text)]
        found += name_completions(self.root, text)
        if len(found) == 1 and not found[0][1].endswith(("=", "/")):
            # The one word that fits is complete: a space, ready for the next (as a shell does).
            begin, replacement, display, meta = found[0]
            found = [(begin, replacement + " ", display, meta)]
        for begin, replacement, display, meta in found:
            yield Completion(
                replacement, start_position=begin - len(text), display=display, display_meta=meta
            )


def _history(session: Session) -> Any:
    """The session's history: `history_path` when it is d4cli's own file (`open_history`: one it
    created, or an empty one, never the encounter's; it keeps every ``--note`` typed, as a
    shell's history does); else one warning line and a history in memory only. Never a
    question on screen: prompt_toolkit stops on an error of its history thread with "Press
    ENTER to continue"."""
    from prompt_toolkit.history import InMemoryHistory

    path = history_path()
    try:
        open_history(path, open_tracker(session.path).own_files())
    except (OSError, D4Error) as error:
        _history_warning(path, error)
        return InMemoryHistory()
    return _file_history_class()(str(path))


def _history_warning(path: object, error: BaseException) -> None:
    reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
    say(
        "d4cli: warning: ",
        f"history {escape_control(str(path))}: {reason}; this session keeps no history",
    )


def _file_history_class() -> Any:
    """prompt_toolkit's FileHistory that never fails the prompt: a read or a write that
    fails says so once and the session goes on without saving; lines are appended
    without following a symlink, to the file `open_history` made or checked."""
    from prompt_toolkit.history import FileHistory

    class SessionHistory(FileHistory):
        failed = False

        def load_history_strings(self) -> Any:
            try:
                return list(super().load_history_strings())
            except (OSError, ValueError) as error:
                self._fail(error)
                return []

        def store_string(self, string: str) -> None:
            if self.failed:
                return
            text = f"\n# {datetime.datetime.now()}\n" + "".join(
                f"+{line}\n" for line in string.split("\n")
            )
            try:
                fd = os.open(  # made by `open_history`: never created here
                    self.filename, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
                )
                try:
                    os.write(fd, text.encode("utf-8", errors="replace"))
                finally:
                    os.close(fd)
            except OSError as error:
                self._fail(error)

        def _fail(self, error: BaseException) -> None:
            self.failed = True
            _history_warning(self.filename, error)

    return SessionHistory


def say_arrived(rows: list[Any]) -> None:
    """Print a line for each request just come (`d4cli.cli.play_requests.arrived_line`)."""
    if rows:
        print_lines([escape(arrived_line(row)) for row in rows])
        sys.stdout.flush()


def toolbar_of(watch: RequestWatch) -> Callable[[], str | None] | None:
    """The prompt's bottom toolbar while requests wait (`toolbar_text` of what *watch* last
    read, never a read of its own: it is drawn at every key); None: no toolbar."""
    if not watch.rows:
        return None
    return lambda: toolbar_text(watch.rows)


async def watch_requests(prompt: Any, watch: RequestWatch, seconds: float = POLL_SECONDS) -> None:
    """While *prompt* waits for a line: every *seconds*, read the requests; print each new one
    above the prompt (prompt_toolkit's ``run_in_terminal``: the line being typed stays) and
    redraw the prompt and its toolbar. Runs as the prompt's background task, which ends with it."""
    from prompt_toolkit.application import run_in_terminal

    while True:
        await asyncio.sleep(seconds)
        before = [row.number for row in watch.rows]
        fresh = watch.poll()
        if fresh:
            await run_in_terminal(functools.partial(say_arrived, fresh))
        if fresh or before != [row.number for row in watch.rows]:
            # Redrawn only when the requests changed: an idle prompt writes nothing.
            prompt.bottom_toolbar = toolbar_of(watch)
            prompt.app.invalidate()


def message(session: Session, state: str, watch: RequestWatch) -> str:
    """The prompt's text with the turn *state* read before it and the count *watch* last read."""
    return session.prompt(state, len(watch.rows))


def interact(session: Session) -> int:
    """Prompt for lines until Ctrl-D or ``exit``; a failing line does not end it. Exit 0.

    The seats' requests stay in view (`d4cli.cli.play_requests`): one that comes while the
    GM types is printed above the prompt at once, one that came while a command ran before
    the next prompt, and those waiting are counted in the prompt and named in its toolbar.
    """
    from prompt_toolkit import PromptSession

    prompt: PromptSession[str] = PromptSession(
        history=_history(session),
        completer=SessionCompleter(session.root),
        complete_while_typing=False,
    )
    watch = RequestWatch(session.path)
    watch.poll()  # those waiting already: in the prompt and the toolbar, not announced

    def start_watching() -> None:
        prompt.app.create_background_task(watch_requests(prompt, watch))

    while True:
        say_arrived(watch.poll())  # came while the last command ran
        state = session.state()
        prompt.bottom_toolbar = toolbar_of(watch)
        try:
            line = prompt.prompt(
                functools.partial(message, session, state, watch), pre_run=start_watching
            )
        except KeyboardInterrupt:
            continue
        except EOFError:
            return 0
        if line.strip() in LEAVE_WORDS:
            return 0
        try:
            session.run_line(line)
        except KeyboardInterrupt:
            # Ctrl-C outside the command itself (the root group says it inside, with whether
            # the change was saved); the terminal echoed ^C where the output stopped.
            sys.stdout.flush()
            sys.stderr.write("\n")
            say("d4cli: ", interrupted())
