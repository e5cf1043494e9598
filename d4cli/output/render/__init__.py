"""Human output: the only package that imports Rich.

`console()` builds a Console that follows docs/cli.md: colour off under
NO_COLOR (even with FORCE_COLOR), and no escape codes and no wrapping when the
stream is not a terminal (even with FORCE_COLOR). Text from the user or a file
reaches markup through `escape` (N1); `plain` is what a line of markup shows.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.markup import escape as markup_escape
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from d4cli.output.wrap import MIN_TEXT
from d4cli.rules.errors import escape_control

# Wide enough that a long creature name never wraps when piped.
PIPE_WIDTH = 4096
# A markup tag and the backslashes before it, as Rich reads them (`plain`).
_TAG = re.compile(r"(\\*)\[([a-z#/@][^[]*?)]")


class PipeConsole(Console):
    """Rich's Console, with two changes.

    A closed pipe is left to the shell (exit 0, not Rich's 1), and a table too
    wide for the terminal is printed as records (`FittedTable`) rather than
    squeezed until its numbers are cut off.
    """

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError

    def print(self, *objects: Any, **kwargs: Any) -> None:
        fitted = (FittedTable(item) if isinstance(item, Table) else item for item in objects)
        super().print(*fitted, **kwargs)


def console(*, stderr: bool = False) -> PipeConsole:
    """A `PipeConsole` for stdout (or stderr) set up for the terminal or the pipe."""
    stream = sys.stderr if stderr else sys.stdout
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    no_color = bool(os.environ.get("NO_COLOR"))
    # Off a terminal there are no escape codes at all, FORCE_COLOR or not (docs/cli.md).
    force = None if tty else False
    return PipeConsole(
        file=stream,
        no_color=no_color,
        color_system=None if no_color else "auto",
        force_terminal=force,
        width=None if tty else PIPE_WIDTH,
        soft_wrap=not tty,
        highlight=False,
        emoji=False,
    )


class FittedTable:
    """A renderable that is *table* where it fits, else one block of lines per row.

    On a narrow terminal Rich would shrink the columns and cut their text short
    ("Fines..."), or drop a column's content entirely; every number d4cli prints
    must stay readable, so below the table's minimum width each row becomes a
    block of ``Header: value`` lines, which wrap freely.
    """

    def __init__(self, table: Table) -> None:
        self.table = table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = self.table
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


def print_renderables(*renderables: object) -> None:
    """Print Rich renderables (tables, markup lines) on stdout."""
    out = console()
    for renderable in renderables:
        out.print(renderable)


def hanging(text: Text, console: Console, indent: int) -> Text:
    """*text* wrapped by Rich at *console*'s width, each line after the first indented by
    *indent* spaces (a hanging indent); as it is where it fits, or off a terminal."""
    width = console.width
    if console.soft_wrap or width >= PIPE_WIDTH or text.cell_len <= width or "\n" in text.plain:
        return text  # a line of several lines is Rich's to wrap
    first = text.wrap(console, width, overflow="fold")[0]
    rest = text[len(first.plain) :]
    rest = rest[len(rest.plain) - len(rest.plain.lstrip(" ")) :]
    first.rstrip()
    indent = indent if width - indent >= MIN_TEXT else 0
    for line in rest.wrap(console, width - indent, overflow="fold"):
        line.rstrip()
        first.append("\n" + " " * indent)
        first.append_text(line)
    return first


def bold_name(value: object) -> str:
    """A name from the file in bold (markup), escaped (N1); ``nobody`` for None."""
    return "[bold]" + escape(str(value)) + "[/]" if value is not None else "nobody"


def load_change(before: int | None, after: int | None) -> str:
    """``Load -1 -> 0``: a change's Load before and after (R8)."""
    return f"Load {before} -> {after}"


def escape(text: str) -> str:
    """Text from the user or a file, safe for Rich markup and for the terminal (N1).

    Control characters become escapes (`d4cli.rules.errors.escape_control`), then square
    brackets that would read as a tag are escaped (``rich.markup.escape``). On a stdout whose
    encoding cannot hold a character (``PYTHONIOENCODING=ascii``, the C locale) the character
    is escaped here already (``Zo\\xeb``), so that Rich measures the text as it will be
    written and table columns stay aligned.
    """
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


def plain(markup: str) -> str:
    """The text of *markup* without its styles: tags dropped, escaped tags (``\\[bold]``) undone.

    Unlike ``rich.markup.render`` (Rich 15), a backslash before a bracket that opens no tag is
    kept: it is part of the name as written (``a\\[b``), and `escape` leaves it in place.
    """
    if "[" not in markup:
        return markup

    def tag(match: re.Match[str]) -> str:
        backslashes = match[1]
        if len(backslashes) % 2:
            return backslashes[: len(backslashes) // 2] + "[" + match[2] + "]"
        return backslashes[: len(backslashes) // 2]

    return _TAG.sub(tag, markup)
