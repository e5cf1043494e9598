"""Human output. The only package that imports Rich; import its modules lazily.

`console()` builds a Console that follows shared/CLI.md: colour off under
NO_COLOR (even with FORCE_COLOR), and no escape codes and no wrapping when the
stream is not a terminal (even with FORCE_COLOR).
"""

from __future__ import annotations

import os
import sys
from typing import Any

# Wide enough that a long creature name never wraps when piped.
PIPE_WIDTH = 4096


def console(*, stderr: bool = False) -> Any:
    """Return a Rich Console for stdout (or stderr) set up for the terminal or the pipe."""
    Console = _console_class()
    stream = sys.stderr if stderr else sys.stdout
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    no_color = bool(os.environ.get("NO_COLOR"))
    # Off a terminal there are no escape codes at all, FORCE_COLOR or not (shared/CLI.md).
    force = None if tty else False
    return Console(
        file=stream,
        no_color=no_color,
        color_system=None if no_color else "auto",
        force_terminal=force,
        width=None if tty else PIPE_WIDTH,
        soft_wrap=not tty,
        highlight=False,
        emoji=False,
    )


_CONSOLE_CLASS: Any = None


def _console_class() -> Any:
    """Rich's Console, except that a closed pipe is left to the shell (exit 0, not Rich's 1)."""
    global _CONSOLE_CLASS
    if _CONSOLE_CLASS is None:
        from rich.console import Console

        class PipeConsole(Console):
            def on_broken_pipe(self) -> None:
                self.quiet = True
                raise BrokenPipeError

        _CONSOLE_CLASS = PipeConsole
    return _CONSOLE_CLASS


def escape(text: str) -> str:
    """Text from the user or a file, safe for Rich markup and for the terminal (N1)."""
    from rich.markup import escape as rich_escape

    from d4cli.errors import escape_control

    return rich_escape(escape_control(text))
