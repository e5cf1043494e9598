"""Human output. The only package that imports Rich; import its modules lazily.

`console()` builds a Console that follows shared/CLI.md: colour off under
NO_COLOR (even with FORCE_COLOR), no escape codes and no wrapping when the
stream is not a terminal.
"""

from __future__ import annotations

import os
import sys
from typing import Any

# Wide enough that a long creature name never wraps when piped.
PIPE_WIDTH = 4096


def console(*, stderr: bool = False) -> Any:
    """Return a Rich Console for stdout (or stderr) set up for the terminal or the pipe."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    no_color = bool(os.environ.get("NO_COLOR"))
    force = None
    if no_color and not tty:
        force = False
    elif not tty and not os.environ.get("FORCE_COLOR"):
        force = False
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


def escape(text: str) -> str:
    """Text from the user or a file, safe for Rich markup and for the terminal (N1)."""
    from rich.markup import escape as rich_escape

    from d4cli.errors import escape_control

    return rich_escape(escape_control(text))
