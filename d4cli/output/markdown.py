"""Markdown for pasting (``--format markdown``, ``d4cli handbook``): one escaper, one table writer.

`md_text` makes text read as written inside a paragraph, emphasis, a list item or a
table cell (CommonMark with GitHub's tables). `markdown_table` writes a GitHub pipe
table, every cell through `md_text` unless it is `Markdown` already. Plain text, no Rich.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Literal, NamedTuple

from d4cli.rules.errors import escape_control

# A backslash, a table's pipe, and what opens emphasis, code or a link.
_MARKS = re.compile(r"[\\|*_`\[\]]")
# A "<" that could open an HTML tag or an autolink (``<b>``, ``</``, ``<!--``); ``<0.1%`` cannot.
_TAG_OPEN = re.compile(r"<(?=[A-Za-z/!?])")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")

Align = Literal["left", "right"] | None
_RULES: dict[Align, str] = {None: "---", "left": ":---", "right": "---:"}


class Markdown(NamedTuple):
    """A table cell that is Markdown already (its plain parts escaped by `md_text`)."""

    text: str


def md_text(text: str) -> str:
    """*text* as Markdown that shows it as written, on one line.

    Backslashes, pipes, ``*``, ``_``, backticks and square brackets get a backslash, as
    does a ``<`` that could open a tag; a line break becomes ``<br>`` (a cell is one
    line); other control characters are shown as escapes (``\\x1b``, N1).
    """
    lines = [escape_control(line) for line in _LINE_BREAK.split(text)]
    escaped = (_TAG_OPEN.sub(r"\\<", _MARKS.sub(r"\\\g<0>", line)) for line in lines)
    return "<br>".join(escaped)


def markdown_table(
    header: Sequence[str],
    rows: Iterable[Sequence[str | Markdown]],
    align: Sequence[Align] = (),
) -> str:
    """A GitHub pipe table: ``| a | b |`` lines, the header's under it ``|---|---|``; no newline at the end.

    *align* gives a column's alignment (``left``: ``:---``, ``right``: ``---:``; None or
    past its end: ``---``). Cells are escaped by `md_text`; a `Markdown` cell is written as it is.
    """
    rules = [_RULES[align[index] if index < len(align) else None] for index in range(len(header))]
    lines = [_row(header), "|" + "|".join(rules) + "|"]
    lines += [_row(row) for row in rows]
    return "\n".join(lines)


def _row(cells: Sequence[str | Markdown]) -> str:
    texts = [cell.text if isinstance(cell, Markdown) else md_text(cell) for cell in cells]
    return "| " + " | ".join(texts) + " |"
