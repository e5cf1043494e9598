"""Rich output of a pool roll or an Action Roll: its steps (`d4cli.output.steps`, one rule per step),
its exact odds when asked, the ``--times`` summary."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from rich.table import Table

from d4cli.odds.check_odds import CheckOdds
from d4cli.odds.roll_odds import PoolOdds
from d4cli.output.render import escape
from d4cli.output.render.odds_charts import percent, render_check_odds, render_pool_odds
from d4cli.output.steps import Step, Tone, check_steps, dice_steps, pool_steps
from d4cli.rules.action_roll import CheckResult
from d4cli.rules.dice import DiceRoll
from d4cli.rules.pool import PoolResult

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


def pool_renderables(
    result: PoolResult,
    title: str = "Pool roll",
    *,
    label: str | None = None,
    steps: Sequence[Step] | None = None,
    odds: PoolOdds | None = None,
) -> list[Any]:
    """What a pool roll prints (R2-R8): its steps table, then its exact odds (L4) when asked.

    *title* is markup (names already escaped); a *label* (``--label``) joins it;
    *steps* replaces the pool's own steps (``act`` names where each source came from).
    """
    heading = title if label is None else f"{title}: {escape(label)}"
    renderables: list[Any] = [
        pool_table(result, heading) if steps is None else steps_table(heading, steps)
    ]
    if odds is not None:
        renderables.append(render_pool_odds(odds, result.plan))
    return renderables


def check_renderables(
    result: CheckResult,
    *,
    label: str | None = None,
    odds: CheckOdds | None = None,
    steps: Sequence[Step] | None = None,
) -> list[Any]:
    """What an Action Roll prints (C1-C7): its *label* in bold, its steps table, its exact odds (L4);
    *steps* replaces the check's own steps (entered dice say so)."""
    table = check_table(result) if steps is None else steps_table("Action Roll", steps)
    renderables: list[Any] = [table]
    if label is not None:
        renderables.insert(0, f"[bold]{escape(label)}[/]")
    if odds is not None:
        renderables.append(render_check_odds(odds, result.request))
    return renderables


def times_summary(
    count: int,
    totals: Mapping[int, int],
    shown: Sequence[int | str | None],
    *,
    successes: int = 0,
    damage: int = 0,
    outcomes: Mapping[str, int] | None = None,
    dc: int | None = None,
    evasion: int | None = None,
    label: str | None = None,
) -> list[Any]:
    """The ``--times`` summary of *count* rolls: the first essential numbers (*shown*), a table of
    the *totals* (total -> rolls), the mean; against a DC the successes (and, with *outcomes*
    under the Rule of Three, "succeeds, and..." and "fails, but...", C7); against an Evasion the
    mean *damage* (*damage* is the sum, R7)."""

    def share(n: int) -> str:
        return percent(Fraction(n, count), 1)

    renderables: list[Any] = []
    if shown:
        more = f" (the first {len(shown)})" if count > len(shown) else ""
        listed = ", ".join("-" if value is None else str(value) for value in shown)
        renderables.append(f"rolls{more}: {listed}")
    title = f"{count:,} rolls" if label is None else f"{count:,} rolls: {escape(label)}"
    rows = [(total, n, share(n)) for total, n in sorted(totals.items())]
    renderables.append(summary_table(("Total", "Rolls", "Share"), rows, title))
    line = f"mean total {_three_places(sum(total * n for total, n in totals.items()), count)}"
    if dc is not None:
        line += f"; succeeded {successes:,} of {count:,} ({share(successes)}) against DC {dc}"
        if outcomes is not None:
            won, lost = outcomes.get("success-and", 0), outcomes.get("failure-but", 0)
            line += f"; succeeds, and... {won:,} ({share(won)}); fails, but... {lost:,} ({share(lost)}) (C7)"
    if evasion is not None:
        line += f"; mean damage {_three_places(damage, count)} against Evasion {evasion}"
    renderables.append(line)
    return renderables


def _three_places(numerator: int, denominator: int) -> str:
    """``numerator / denominator`` to three decimals, rounded half up (37/16 is 2.313)."""
    return str(
        (Decimal(numerator) / Decimal(denominator)).quantize(Decimal("0.001"), ROUND_HALF_UP)
    )
