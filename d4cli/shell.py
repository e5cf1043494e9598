"""The one place where errors become exit codes and short plain messages (shared/CLI.md).

`D4Group` is the root command class of the Typer app. Its `main` runs the
command without Click's standalone handling, then maps what escaped: usage
errors and `InputError` to exit 2, `RefusedError` to 3, anything unexpected
to 1 (one line; a traceback only with ``D4CLI_DEBUG=1``). It applies both to
the console script and to ``typer.testing.CliRunner``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import typer
from typer.core import TyperGroup

from d4cli.errors import EXIT_INPUT, EXIT_INTERNAL, D4Error, escape_control


def say_error(message: str) -> None:
    """Write one plain error line to stderr."""
    sys.stderr.write(f"d4cli: error: {escape_control(message)}\n")
    sys.stderr.flush()


def _usage_error(error: typer.TyperException) -> int:
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        sys.stderr.write(ctx.get_usage() + "\n")
        sys.stderr.write(f"Try '{ctx.command_path} --help' for help.\n")
    say_error(error.format_message())
    code = getattr(error, "exit_code", EXIT_INPUT)
    return EXIT_INPUT if code == 1 else code


def _prepare_streams() -> None:
    # A stream that cannot encode a name (PYTHONIOENCODING=ascii) must not crash.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", "") == "strict":
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):
                pass


class D4Group(TyperGroup):
    """Root command: runs a command and turns whatever escapes into an exit code."""

    def main(  # type: ignore[override]
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        _prepare_streams()
        try:
            code = super().main(
                args=args,
                prog_name=prog_name or "d4cli",
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
            code = code if isinstance(code, int) else 0
        except typer.TyperException as error:
            code = _usage_error(error)
        except D4Error as error:
            say_error(str(error))
            code = error.exit_code
        except typer.Abort:
            code = 130
        except BrokenPipeError:
            # A reader such as `head` went away: not an error of ours.
            _silence_stdout()
            code = 0
        except Exception as error:  # noqa: BLE001 - the last resort of the shell
            if os.environ.get("D4CLI_DEBUG") == "1":
                raise
            say_error(f"internal error: {type(error).__name__}: {error}")
            code = EXIT_INTERNAL
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            _silence_stdout()
        sys.exit(code)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
