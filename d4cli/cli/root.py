"""The one place where errors become exit codes and short plain messages (docs/cli.md).

`D4Group` is the root command class of the Typer app. Its `main` runs the
command without Click's standalone handling, then maps what escaped: usage
errors and `InputError` to exit 2, `RefusedError` to 3, anything unexpected
to 1 (one line; a traceback only with ``D4CLI_DEBUG=1``). The library's errors
name its own fields (``dc``); the line says them as the command's options
(``--dc``, `d4cli.cli.flags`). It applies both to
the console script and to ``typer.testing.CliRunner``. Commands and printers
never end the process themselves: a refusal is a `RefusedError` that carries
its result, raised after the result was printed (`d4cli.output.printing`).

Before Click parses a line, `D4Group` rejoins a creature's name typed without quotes,
as a positional argument or an option's value (``act Goblin Archer Might --target Goblin
Sniper``; `d4cli.cli.spaced_names`) and takes a creature's alias for its
name, with a note (`d4cli.cli.aliases`). Only for a command that takes creature names
does it build that one command and read the encounter's names and aliases: the
library (`d4cli.api.encounter.Reader`) is imported there, inside the function (the names
boundary), so that ``roll``, ``odds`` and ``help`` never load it.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import typer

from d4cli.api import D4Error, RefusedError
from d4cli.api.inputs import closest, escape_control, parse_whole
from d4cli.cli.aliases import Roster, resolve_aliases
from d4cli.cli.argv import recover_args
from d4cli.cli.exit_codes import ExitCode, exit_code_of
from d4cli.cli.flags import shell_message
from d4cli.cli.interrupts import command_running, forget_opened, interrupted, running
from d4cli.cli.lazy import LazyGroup
from d4cli.cli.settings import resolve_path
from d4cli.cli.spaced_names import (
    Options,
    command_of,
    join_line,
    line_could_join,
    option_value,
    positional_indexes,
)
from d4cli.output.wrap import say

# COLUMNS and LINES: Rich reads either with `int` when it holds digits, so a value
# out of this range is bad input, refused before Rich converts it (docs/cli.md).
TERMINAL_SIZE = (1, 10_000)


def check_terminal_size() -> None:
    """Refuse a ``COLUMNS`` or ``LINES`` of digits that is no terminal size (L1).

    A value without digits (``COLUMNS=wide``) is ignored, as Rich ignores it.

    Raises:
        InputError: naming the variable and its value (5,000 digits included).
    """
    for name in ("COLUMNS", "LINES"):
        text = os.environ.get(name)
        if (
            text
            and text.isdigit()
            and not (text.isascii() and len(text) <= 5 and 1 <= int(text) <= TERMINAL_SIZE[1])
        ):
            parse_whole(text, name, TERMINAL_SIZE)


def say_error(message: str) -> None:
    """Write one plain error line to stderr (wrapped under its text on a terminal)."""
    say("d4cli: error: ", escape_control(message))


def session_text(message: str) -> str:
    """*message* as said inside ``d4cli play``, where commands are typed without ``d4cli``:
    ``'d4cli --help'`` reads ``'help'``, ``'d4cli turn start'`` reads ``'turn start'``."""
    return message.replace("'d4cli --help'", "'help'").replace("'d4cli ", "'")


def _usage_error(error: typer.TyperException, in_session: bool = False) -> int:
    ctx = getattr(error, "ctx", None)
    # An unknown option: Click's NoSuchOption, the one usage error with `possibilities`
    # (Typer's Click is private, so the class is not imported).
    option_name = getattr(error, "option_name", None)
    if ctx is not None and option_name is not None and hasattr(error, "possibilities"):
        # Click compares options with their dashes (`--quiet` "close" to `--file`) and
        # by case (`--DC` near nothing): suggest this command's own closest options.

        known = [
            opt
            for param in ctx.command.get_params(ctx)
            for opt in (*param.opts, *param.secondary_opts)
        ]
        error.possibilities = closest(option_name, [opt for opt in known if opt.startswith("--")])
    if ctx is not None:
        usage, hint = ctx.get_usage(), f"Try '{ctx.command_path} --help' for help."
        if in_session:  # `act --help`, or `help` at the session's own level (no usage line there)
            usage, hint = (
                ("" if ctx.parent is None else usage.replace(" d4cli ", " ", 1)),
                session_text(hint),
            )
        sys.stderr.write((usage + "\n" if usage else "") + hint + "\n")
    say_error(session_text(error.format_message()) if in_session else error.format_message())
    code = getattr(error, "exit_code", ExitCode.INPUT)
    return ExitCode.INPUT if code == 1 else code  # Click's usage errors say 2; Abort says 1


# Error handlers that never fail to encode; any other (strict, surrogateescape, ...) is
# replaced by backslashreplace, so `Zoë` on an ASCII stream reads `Zo\xeb`.
_NEVER_FAILS = frozenset(
    {"backslashreplace", "namereplace", "xmlcharrefreplace", "replace", "ignore"}
)


def _prepare_streams() -> None:
    """Make stdout and stderr unable to fail on text, and a closed stdout a plain `ReaderGone`.

    A closed stream (``d4cli ... >&-``) is None in Python: it writes to nowhere instead,
    and a closed stdout is a reader that has gone: its first write raises `ReaderGone`,
    so ``--times 1000000`` stops at once (exit 0) and a change already made stands.
    A stream whose encoding cannot hold a character (``PYTHONIOENCODING=ascii``,
    ``ascii:surrogateescape``, ``LC_ALL=C PYTHONUTF8=0``) escapes it. stdout is wrapped
    in `_Stdout`, so a reader that went away (``| head -1``) reaches `D4Group.main` as
    `ReaderGone` wherever it happens: during a command, while printing ``--help`` or
    ``--version``, or in the last flush.
    """
    closed = sys.stdout is None
    if closed:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) not in _NEVER_FAILS:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):
                pass
    if not isinstance(sys.stdout, _Stdout):
        sys.stdout = _Stdout(sys.stdout, gone=closed)


class _Stdout:
    """stdout, except that a broken pipe raises `ReaderGone` (not an `OSError`).

    Click and Rich each turn a broken pipe into exit 1 on their own; `ReaderGone`
    passes through both to the shell, which ends with exit 0. Everything else is
    the wrapped stream's.
    """

    def __init__(self, stream: Any, *, gone: bool = False) -> None:
        self._stream = stream
        self._gone = gone  # stdout was closed before d4cli started (``>&-``)

    def write(self, text: str) -> int:
        if self._gone and text:
            raise ReaderGone()
        try:
            return int(self._stream.write(text))
        except BrokenPipeError as error:
            raise ReaderGone() from error

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError as error:
            raise ReaderGone() from error

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class ReaderGone(Exception):
    """stdout was closed by its reader (``d4cli ... | head -1``): stop quietly, exit 0."""


class D4Group(LazyGroup):
    """Root command: runs a command and turns whatever escapes into an exit code.

    Its commands load lazily (`d4cli.cli.lazy.LazyGroup`). Inside ``d4cli play``
    (`in_session`) its messages say ``help`` and ``COMMAND --help``, never ``d4cli ...``.
    """

    in_session = False
    alias_notes: tuple[str, ...] = ()  # the notes of the aliases the line used (`names_joined`)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name, command, rest = super().resolve_command(ctx, args)
        running(command.name if command is not None and command.name else str(name))
        return name, command, rest

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError as error:
            # Typer's own handler would turn a closed pipe into exit 1.
            raise ReaderGone() from error
        except KeyboardInterrupt:
            # Typer's own handler would exit 130 with nothing said. Say whether the change
            # stands, so that running it again cannot apply it twice.
            sys.stdout.flush()
            if sys.stderr.isatty():
                sys.stderr.write("\n")  # the terminal echoed ^C where the output stopped
            say("d4cli: ", interrupted())
            raise typer.Exit(ExitCode.INTERRUPTED) from None

    def _said(self, message: str) -> str:
        """*message* as this run says it (`session_text` inside ``d4cli play``)."""
        return session_text(message) if self.in_session else message

    def main(  # type: ignore[override]
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        code = self.run(args, prog_name=prog_name, complete_var=complete_var, **extra)
        if standalone_mode:
            sys.exit(code)
        return code

    def run(
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        **extra: Any,
    ) -> int:
        """Run one command line (*args*, default the process arguments) and return its exit code.

        Never exits: errors become their one-line message and code as in `main`; the
        interactive session (``d4cli play``) runs each line through this.
        """
        _prepare_streams()
        forget_opened()
        prog_name = prog_name or "d4cli"
        argv = [str(arg) for arg in (sys.argv[1:] if args is None else args)]
        complete_var = _completion_setup(prog_name, complete_var, argv)
        shell = _named_shell(argv)
        if shell is not None:
            from d4cli.cli.completion.shells import completion_script  # the completion boundary

            sys.stdout.write(completion_script(shell, prog_name) + "\n")
            return ExitCode.OK
        try:
            check_terminal_size()
            args = _text_arguments(argv)
            self.alias_notes = ()
            if not os.environ.get(complete_var):
                args = self.names_joined(args)
            code = super().main(
                args=args,
                prog_name=prog_name,
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
            code = code if isinstance(code, int) else ExitCode.OK
            notes: tuple[str, ...] = self.alias_notes if code == ExitCode.OK else ()
            for note in notes:  # after the command, so that an error stays one line
                say("d4cli: note: ", note)
        except BaseException as error:  # noqa: BLE001 - every way out of a command ends in its code
            code = self._ended_by(error, argv)
        return _flushed(code)

    def names_joined(self, args: list[str], open_end: bool = False) -> list[str]:
        """*args* with each creature's name typed without quotes rejoined into one word
        (`d4cli.cli.spaced_names`), and each alias where a creature's name goes replaced by that
        name, its note kept in `alias_notes` (`d4cli.cli.aliases`; not with *open_end*);
        as typed when no such name or alias is read there.
        *open_end*: the last word is still being typed (Tab in ``d4cli play``).

        Raises:
            InputError: the words read as names more than one way.
        """
        found = command_of(args)
        command = None if found is None else self._command_at(found[0])
        if found is None or command is None:
            return args
        path, slots = found
        rest = args[len(path) :]
        options = _options_of(command)
        indexes = positional_indexes(rest, options)
        if indexes is None:
            return args
        roster = _roster(option_value(rest, ("--file", "-f")))
        if roster is None:
            return args
        if line_could_join(rest, indexes, slots):
            known = [name for pair in roster for name in pair if name]
            joined = join_line(rest, indexes, slots, known, " ".join(path), open_end)
            if joined is not None:
                rest = joined
                indexes = positional_indexes(rest, options) or []
        if not open_end:
            rest, notes = resolve_aliases(rest, indexes, slots, roster)
            self.alias_notes = tuple(notes)
        return [*path, *rest]

    def _command_at(self, path: tuple[str, ...]) -> Any:
        """The Click command at *path* (``("effect", "add")``), built as a run builds it."""
        ctx = typer.Context(self, info_name="d4cli")
        command: Any = self
        for name in path:
            command = command.get_command(ctx, name)
            if command is None:
                return None
        return command

    def _ended_by(self, error: BaseException, argv: list[str]) -> int:
        """The exit code of a run of *argv* that *error* ended, after its one line on stderr.

        The library's errors name its own fields: they are said with *argv*'s command's
        options (`d4cli.cli.flags`).
        """
        if isinstance(error, typer.TyperException):
            return _usage_error(error, self.in_session)
        if isinstance(error, RefusedError):
            # A refusal is an answer of the rules, not an error (exit 3).
            message = shell_message(error, argv)
            say("d4cli: ", escape_control(self._said(message)))
            return exit_code_of(error)
        if isinstance(error, D4Error):
            say_error(self._said(shell_message(error, argv)))
            return exit_code_of(error)
        if isinstance(error, typer.Abort):
            return ExitCode.INTERRUPTED
        if isinstance(error, KeyboardInterrupt):  # before the command ran: reading its names
            say("d4cli: ", interrupted())
            return ExitCode.INTERRUPTED
        if isinstance(error, (BrokenPipeError, ReaderGone)):
            # A reader such as `head` went away: not an error of ours.
            _silence_stdout()
            return ExitCode.OK
        if isinstance(error, (OSError, UnicodeEncodeError)):
            # The output could not be written (a full disk, a closed terminal): not a
            # bug, and the command may have saved its change already (docs/cli.md).
            _output_failed(error)
            return ExitCode.INTERNAL
        if not isinstance(error, Exception) or os.environ.get("D4CLI_DEBUG") == "1":
            raise error
        say_error(f"internal error: {type(error).__name__}: {error}")
        return ExitCode.INTERNAL


def _completion_setup(prog_name: str, complete_var: str | None, argv: list[str]) -> str:
    """Click's completion variable (``_D4CLI_COMPLETE``); on a completion request, or
    ``--show/--install-completion``, our shell classes, which quote names for the shell."""
    complete_var = complete_var or f"_{prog_name}_COMPLETE".replace("-", "_").upper()
    if os.environ.get(complete_var) or any(
        arg.startswith(("--show-completion", "--install-completion")) for arg in argv
    ):
        from d4cli.cli.completion.shells import use_d4_shells  # the completion boundary

        use_d4_shells()
    return complete_var


_SHELLS = ("bash", "zsh", "fish")


def _named_shell(argv: list[str]) -> str | None:
    """The shell of ``--show-completion SHELL`` (or ``--show-completion=SHELL``), whose script
    is printed as asked; None otherwise (a bare ``--show-completion`` detects the shell)."""
    if len(argv) == 2 and argv[0] == "--show-completion" and argv[1] in _SHELLS:
        return argv[1]
    if len(argv) == 1 and argv[0].startswith("--show-completion="):
        shell = argv[0].partition("=")[2]
        return shell if shell in _SHELLS else None
    return None


def _options_of(command: Any) -> Options:
    """*command*'s options: those that take a value and the flags."""
    valued: list[str] = []
    flags: list[str] = ["-h", "--help"]
    for param in command.params:
        if getattr(param, "param_type_name", "") != "option":
            continue
        names = [*param.opts, *param.secondary_opts]
        (flags if param.is_flag or param.count else valued).extend(names)
    return Options(valued, flags)


def _roster(file: str | None) -> Roster | None:
    """The names and aliases of the creatures of the encounter at *file* (``--file``, else
    the default file), or None when it cannot be read: the words then stay as typed."""
    from d4cli.api.encounter import Reader  # the names boundary (see the module docstring)

    try:
        creatures = Reader(resolve_path(file)).status().creatures
    except (D4Error, OSError):
        return None
    return [(creature.name, creature.alias) for creature in creatures]


def _text_arguments(argv: list[str]) -> list[str]:
    """Text arguments read as UTF-8 whatever the locale (N1): the one place they enter."""
    return argv if all(arg.isascii() for arg in argv) else recover_args(argv)


def _flushed(code: int) -> int:
    """*code*, once stdout is flushed: a reader gone is fine, a failed write is exit 1."""
    try:
        sys.stdout.flush()
    except (BrokenPipeError, ReaderGone):
        _silence_stdout()
    except OSError as error:
        _output_failed(error)
        return ExitCode.INTERNAL
    return code


def _output_failed(error: OSError | UnicodeEncodeError) -> None:
    """Say on stderr that the output was lost but any change stands, so nobody repeats it."""
    reason = getattr(error, "strerror", None) or type(error).__name__
    # Seats are kept beside the encounter, not in its journal: the log would not show them.
    where = (
        "'d4cli seat list' shows them" if command_running() == "seat" else "'d4cli log' shows it"
    )
    say_error(f"output: {reason}; the command finished and any change it made was saved ({where})")
    # What is left in stdout's buffer can never be written: drop it, so that the
    # interpreter's last flush does not fail again.
    _silence_stdout()


def _silence_stdout() -> None:
    """Point stdout at the null device: what is still buffered goes nowhere, quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
