"""Plain lines that fit the terminal: a hanging indent under the text after their prefix.

On a terminal, a line too long for its width is wrapped (`textwrap`) so that every
line after the first starts under the first word after its prefix (``d4cli: error: ``,
``#12 16:04 R1 ``). Off a terminal (a pipe, a file) a line is never wrapped: scripts
read one line per error and per log entry (docs/cli.md). No Rich here, so that an
error line costs no more imports than today; Rich's own output wraps in
`d4cli.output.render.entry_lines.print_lines`.
"""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
from typing import Any

# The smallest room a wrapped line keeps after its indent; a narrower terminal gets no indent.
MIN_TEXT = 20


def terminal_width(stream: Any) -> int | None:
    """The width of the terminal *stream* writes to; None when it is no terminal.

    ``COLUMNS`` wins when it holds a width, as for Rich and `shutil.get_terminal_size`;
    else the size of *stream*'s own terminal, else `shutil.get_terminal_size`'s.
    """
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError, OSError):
        return None
    columns = os.environ.get("COLUMNS", "")
    if not (columns.isascii() and columns.isdigit() and int(columns) > 0):
        try:
            return os.get_terminal_size(stream.fileno()).columns or None
        except (AttributeError, ValueError, OSError):
            pass
    return shutil.get_terminal_size().columns or None


def hang(prefix: str, text: str, width: int | None) -> str:
    """*prefix* and *text* as one line, or, at *width* columns, as lines (joined by newlines)
    that each fit and whose continuations are indented by the length of *prefix*.

    A word longer than a line is split; with no *width* (no terminal) the line is as given.
    """
    line = prefix + text
    if width is None or len(line) <= width:
        return line
    indent = " " * len(prefix) if width - len(prefix) >= MIN_TEXT else ""
    return textwrap.fill(
        line,
        width=width,
        subsequent_indent=indent,
        break_on_hyphens=False,
        replace_whitespace=False,
    )


def say(prefix: str, text: str, stream: Any = None) -> None:
    """Write *prefix* and *text* on *stream* (stderr), wrapped with `hang` on a terminal, and flush."""
    out = sys.stderr if stream is None else stream
    out.write(hang(prefix, text, terminal_width(out)) + "\n")
    out.flush()
