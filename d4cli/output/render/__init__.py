"""Human output. The only package that imports Rich; import its modules lazily.

`console()` builds a Console that follows docs/cli.md: colour off under
NO_COLOR (even with FORCE_COLOR), and no escape codes and no wrapping when the
stream is not a terminal (even with FORCE_COLOR).
"""

from __future__ import annotations

import os
import re
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
    # Off a terminal there are no escape codes at all, FORCE_COLOR or not (docs/cli.md).
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
    """Rich's Console, with two changes.

    A closed pipe is left to the shell (exit 0, not Rich's 1), and a table too
    wide for the terminal is printed as records (`fit_table`) rather than
    squeezed until its numbers are cut off.
    """
    global _CONSOLE_CLASS
    if _CONSOLE_CLASS is None:
        from rich.console import Console
        from rich.table import Table

        class PipeConsole(Console):
            def on_broken_pipe(self) -> None:
                self.quiet = True
                raise BrokenPipeError

            def print(self, *objects: Any, **kwargs: Any) -> None:
                fitted = (fit_table(item) if isinstance(item, Table) else item for item in objects)
                super().print(*fitted, **kwargs)

        _CONSOLE_CLASS = PipeConsole
    return _CONSOLE_CLASS


def fit_table(table: Any) -> Any:
    """A renderable that is *table* where it fits, else one block of lines per row.

    On a narrow terminal Rich would shrink the columns and cut their text short
    ("Fines..."), or drop a column's content entirely; every number d4cli prints
    must stay readable, so below the table's minimum width each row becomes a
    block of ``Header: value`` lines, which wrap freely.
    """
    from rich.measure import Measurement
    from rich.text import Text

    class Fitted:
        def __rich_console__(self, console: Any, options: Any) -> Any:
            if options.max_width >= PIPE_WIDTH:
                yield table  # off a terminal every table fits: no measuring pass before Rich's own
                return
            # Measured as if unbounded: Rich clamps a measurement to the width it is given.
            needed = Measurement.get(console, options.update_width(1_000_000), table).minimum
            if needed <= options.max_width:
                for column in table.columns:
                    column.overflow = "fold"  # a squeezed cell wraps; it is never cut short
                yield table
                return
            if table.title:
                yield Text.from_markup(str(table.title), style="bold")
            headers = [str(column.header) for column in table.columns]
            # Column._cells holds each column's cells in row order (Rich's own layout uses it).
            columns = [list(column._cells) for column in table.columns]
            for row in zip(*columns):
                yield Text("")
                for header, cell in zip(headers, row):
                    if not isinstance(cell, str):
                        yield Text(f"{header}:", style="bold")
                        yield cell
                    elif cell.strip():
                        line = Text(f"{header}: ", style="bold")
                        line.append_text(Text.from_markup(cell))
                        yield line

    return Fitted()


def bold_name(value: object) -> str:
    """A name from the file in bold (markup), escaped (N1); ``nobody`` for None."""
    return "[bold]" + escape(str(value)) + "[/]" if value is not None else "nobody"


def load_change(entry: dict[str, Any]) -> str:
    """``Load -1 -> 0`` of a change's entry (R8)."""
    return f"Load {entry.get('load_before')} -> {entry.get('load_after')}"


def escape(text: str) -> str:
    """Text from the user or a file, safe for Rich markup and for the terminal (N1).

    On a stdout whose encoding cannot hold a character (``PYTHONIOENCODING=ascii``, the
    C locale) the character is escaped here already (``Zo\\xeb``), so that Rich measures
    the text as it will be written and table columns stay aligned.
    """
    from d4cli.rules.errors import escape_control

    return markup_escape(for_stdout(escape_control(text)))


def for_stdout(text: str) -> str:
    """*text* with each character stdout's encoding cannot hold written as an escape (``Zo\\xeb``)."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    if not text.isascii() and not encoding.lower().replace("-", "").startswith("utf"):
        try:
            text = text.encode(encoding, "backslashreplace").decode(encoding)
        except LookupError:
            pass
    return text


_ESCAPE = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
_TAG = re.compile(r"(\\*)\[([a-z#/@][^[]*?)]")


def markup_escape(text: str) -> str:
    """Rich's ``rich.markup.escape`` (the same result), without importing Rich for it."""
    text = _ESCAPE.sub(lambda match: f"{match[1]}{match[1]}\\{match[2]}", text)
    if text.endswith("\\") and not text.endswith("\\\\"):
        return text + "\\"
    return text


def plain(markup: str) -> str:
    """The text Rich would show for *markup*, without its styles: tags dropped, escapes undone."""
    if "[" not in markup:
        return markup

    def tag(match: re.Match[str]) -> str:
        backslashes = match[1]
        if len(backslashes) % 2:
            return backslashes[: len(backslashes) // 2] + "[" + match[2] + "]"
        return backslashes[: len(backslashes) // 2]

    return _TAG.sub(tag, markup)
