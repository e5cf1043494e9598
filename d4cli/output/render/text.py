"""Plain text and Markdown renderings of the steps of a roll (`d4cli.output.steps`); no Rich.

They render the same step records as the Rich table (`d4cli.output.render.roll.steps_table`):
plain text for logs and e-mail, Markdown for notes and chat.
"""

from __future__ import annotations

from collections.abc import Iterable

from d4cli.output.steps import Step
from d4cli.rules.errors import escape_control

HEADERS = ("Step", "What happened", "Rule")


def steps_text(title: str, steps: Iterable[Step]) -> str:
    """The steps as aligned plain-text columns under *title* (plain text, not markup)."""
    rows = [HEADERS] + [(escape_control(s.name), escape_control(s.detail), s.rule) for s in steps]
    widths = [max(len(row[column]) for row in rows) for column in range(3)]
    lines = [escape_control(title)]
    for number, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
        if number == 0:
            lines.append("  ".join("-" * width for width in widths))
    return "\n".join(lines) + "\n"


def _md_cell(text: str) -> str:
    return escape_control(text).replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*")


def step_markdown(step: Step) -> str:
    """The step's detail in Markdown: the toned part of a good, bad or strong verdict in bold."""
    before, toned, after = step.parts()
    if not toned or step.tone == "plain":
        return _md_cell(step.detail)
    return f"{_md_cell(before)}**{_md_cell(toned)}**{_md_cell(after)}"


def steps_markdown(title: str, steps: Iterable[Step]) -> str:
    """The steps as a Markdown table under a bold *title* (plain text, not markup)."""
    lines = [f"**{_md_cell(title)}**", "", "| " + " | ".join(HEADERS) + " |", "| --- | --- | --- |"]
    for step in steps:
        lines.append(f"| {_md_cell(step.name)} | {step_markdown(step)} | {step.rule} |")
    return "\n".join(lines) + "\n"
