"""Rich tables of the steps of a pool roll or an Action Roll (`d4cli.output.steps`), one rule per step."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rich.table import Table

from d4cli.output.render import escape
from d4cli.output.steps import Step, Tone, check_steps, pool_steps
from d4cli.rules.pool import PoolResult

if TYPE_CHECKING:
    from d4cli.rules.action_roll import CheckResult
    from d4cli.rules.dice import DiceRoll

# The Rich style of each tone.
TONE_STYLE: dict[Tone, str] = {
    "good": "green",
    "great": "green bold",
    "bad": "red",
    "alarm": "red bold",
    "warn": "yellow",
    "strong": "bold",
}


def step_markup(step: Step) -> str:
    """The step's detail as Rich markup: text escaped (N1), the toned part styled."""
    before, toned, after = step.parts()
    if not toned:
        return escape(before)
    return f"{escape(before)}[{TONE_STYLE[step.tone]}]{escape(toned)}[/]{escape(after)}"


def steps_table(title: str, steps: Iterable[Step]) -> Table:
    """A three-column table: the step, what happened, and the rule that decided it.

    *title* is Rich markup (names already escaped).
    """
    table = Table(title=title, title_justify="left", show_lines=False)
    table.add_column("Step", style="bold", no_wrap=True)
    table.add_column("What happened")
    table.add_column("Rule", style="cyan", no_wrap=True)
    for step in steps:
        table.add_row(escape(step.name), step_markup(step), step.rule)
    return table


def pool_table(result: PoolResult, title: str = "Pool roll") -> Table:
    return steps_table(title, pool_steps(result))


def dice_table(roll: DiceRoll, title: str = "Dice") -> Table:
    """A plain dice roll's steps (``roll dice``): each term, then the total."""
    from d4cli.output.steps import dice_steps

    return steps_table(title, dice_steps(roll))


def check_table(result: CheckResult, title: str = "Action Roll") -> Table:
    return steps_table(title, check_steps(result))


def summary_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], title: str) -> Table:
    """A compact table (for --times): one column per header."""
    table = Table(title=title, title_justify="left")
    for header in headers:
        table.add_column(header, justify="right")
    for row in rows:
        table.add_row(*(str(cell) for cell in row))
    return table
