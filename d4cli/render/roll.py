"""Rich tables that walk through a pool roll or an Action Roll, one rule per step."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.table import Table

from d4cli.check import DC_TIERS, CheckResult
from d4cli.pool import PoolPlan, PoolResult
from d4cli.render import escape

# Beyond this many dice the table shows the first ones and a count (JSON has all).
SHOWN_DICE = 40

Step = tuple[str, str, str]


def steps_table(title: str, steps: Iterable[Step]) -> Table:
    """A three-column table: the step, what happened, and the rule that decided it."""
    table = Table(title=title, title_justify="left", show_lines=False)
    table.add_column("Step", style="bold", no_wrap=True)
    table.add_column("What happened")
    table.add_column("Rule", style="cyan", no_wrap=True)
    for step, detail, rule in steps:
        table.add_row(step, detail, rule)
    return table


def signed(value: int) -> str:
    return f"{value:+d}"


def dice_sum(dice: Sequence[int]) -> str:
    """``3 + 1 + 4 = 8``, shortened past `SHOWN_DICE` dice."""
    if not dice:
        return "none"
    total = sum(dice)
    if len(dice) == 1:
        return str(total)
    if len(dice) > SHOWN_DICE:
        head = " ".join(str(die) for die in dice[:SHOWN_DICE])
        return f"{head} ... ({len(dice):,} dice) = {total}"
    return " + ".join(str(die) for die in dice) + f" = {total}"


def _names(names: Sequence[str]) -> str:
    return ", ".join(escape(name) for name in names)


def gate_steps(plan: PoolPlan) -> list[Step]:
    """The gate row (R2, R3, R9)."""
    gate = plan.gate
    if gate.skipped:
        return [("Gate", f"skipped: a GM-called roll (headroom {gate.headroom})", "R9")]
    sum_text = f"Aspect {gate.aspect} - Load {gate.load} = headroom {gate.headroom}"
    if gate.allowed:
        return [("Gate", f"{sum_text} >= Cost {gate.cost}: [green]allowed[/]", "R2")]
    return [
        (
            "Gate",
            f"{sum_text} < Cost {gate.cost}: [red bold]refused[/], short by {gate.shortfall}",
            "R2",
        )
    ]


def pool_plan_steps(plan: PoolPlan) -> list[Step]:
    """Rows from the gate up to the pool size (R2, R4, R5, R6, R9)."""
    steps = gate_steps(plan)
    if not plan.gate.allowed:
        return steps
    request = plan.request
    size = plan.size
    if request.ignore_load:
        steps.append(("Base pool", f"Aspect {request.aspect} (Load ignored) = {size.base}", "R9"))
    else:
        steps.append(
            (
                "Base pool",
                f"Aspect {request.aspect} - max(0, Load {request.load}) = {size.base}",
                "R5",
            )
        )
    for label, counted, repeats in (
        ("Advantage", plan.advantage, plan.advantage_repeats),
        ("Disadvantage", plan.disadvantage, plan.disadvantage_repeats),
    ):
        if counted:
            sign = "+" if label == "Advantage" else "-"
            detail = f"{sign}{len(counted)}: {_names(counted)}"
            if repeats:
                detail += f" ({_names(repeats)} counted once)"
            steps.append((label, detail, "R4"))
    if plan.advantage or plan.disadvantage:
        steps.append(("Net Advantage", signed(plan.net_advantage), "R4"))
    pool_text = f"{size.base} {signed(size.net_advantage)} = {size.base + size.net_advantage}"
    if size.minimum_applied:
        pool_text += " -> raised to the minimum: 1d4"
    else:
        pool_text += "d4"
    steps.append(("Pool", pool_text, "R5"))
    return steps


def pool_steps(result: PoolResult) -> list[Step]:
    """Every row of a pool roll: plan, dice, extra dice, total, resolution, Load (R2-R8)."""
    plan = result.plan
    steps = pool_plan_steps(plan)
    if not result.allowed:
        steps.append(("Load", f"stays {plan.gate.load}: nothing was rolled", "R2"))
        return steps
    steps.append((f"{plan.size.size}d4", dice_sum(result.dice), "R7"))
    for roll in result.extra:
        detail = dice_sum(roll.dice)
        if roll.extra.modifier:
            detail += f" {signed(roll.extra.modifier)} = {roll.subtotal}"
        steps.append((f"Extra {roll.extra.notation}", detail, "R6"))
    steps.append(("Total", f"[bold]{result.total}[/]", "R7"))
    request = plan.request
    if request.dc is not None:
        verdict = "[green]success[/]" if result.success else "[red]failure[/]"
        sign = ">=" if result.success else "<"
        steps.append((f"DC {request.dc}", f"{result.total} {sign} {request.dc}: {verdict}", "R7"))
    if request.evasion is not None:
        steps.append(
            (
                f"Evasion {request.evasion}",
                f"max(0, {result.total} - {request.evasion}) = [bold]{result.damage}[/] damage",
                "R7",
            )
        )
    steps.append(
        ("Load after", f"{plan.gate.load} + Cost {plan.gate.cost} = {plan.load_after}", "R8")
    )
    return steps


def pool_table(result: PoolResult, title: str = "Pool roll") -> Table:
    return steps_table(title, pool_steps(result))


def dc_label(dc: int) -> str:
    names = [name for name, value in DC_TIERS.items() if value == dc]
    return f"DC {dc} ({names[0]})" if names else f"DC {dc}"


OUTCOME_TEXT = {
    "success": "[green]succeeds[/]",
    "failure": "[red]fails[/]",
    "success-and": "[green bold]succeeds, and...[/] (Rule of Three)",
    "failure-but": "[yellow]fails, but...[/] (Rule of Three)",
}


def check_steps(result: CheckResult) -> list[Step]:
    """Every row of an Action Roll (C1-C7)."""
    request = result.request
    levels = result.levels
    if levels.impossible:
        return [
            (
                "Disadvantage",
                f"{request.disadvantage} Disadvantages: [red bold]impossible[/], nothing rolled",
                "C4",
            )
        ]
    steps: list[Step] = [("Natural d20", str(result.natural), "C1")]
    steps.append(
        (
            "Modifiers",
            f"Attribute {request.attribute} + Proficiency {request.proficiency}"
            f" + Specialization {request.specialization} = {signed(request.modifiers)}",
            "C1",
        )
    )
    if request.disadvantage == 1 and request.advantage_level >= 1:
        steps.append(
            (
                "Disadvantage",
                f"lowers Advantage Level {request.advantage_level} to {levels.effective_level}",
                "C4",
            )
        )
    if result.advantage_dice:
        dice = ", ".join(str(die) for die in result.advantage_dice)
        sixes = sum(1 for die in result.advantage_dice if die == 6)
        detail = f"Level {levels.effective_level}: d6s {dice} -> highest {max(result.advantage_dice)}"
        if sixes > 1:
            detail += f" +{sixes - 1} for extra sixes"
        steps.append(("Advantage", f"{detail} = {signed(result.advantage_bonus)}", "C3"))
    if result.disadvantage_die is not None:
        steps.append(("Disadvantage", f"1d6 subtracted: -{result.disadvantage_die}", "C4"))
    if result.crit_die is not None:
        steps.append(("Critical", f"natural 20: extra d6 +{result.crit_die}", "C5"))
    elif result.natural == 1:
        steps.append(("Critical", "natural 1: fails whatever the Result", "C6"))
    steps.append(("Result", f"[bold]{result.total}[/]", "C1"))
    if request.dc is not None and result.outcome is not None and result.margin is not None:
        margin = result.margin
        how = f"beats by {margin}" if margin >= 0 else f"misses by {-margin}"
        rule = "C7" if result.outcome in ("success-and", "failure-but") else "C2"
        if result.natural == 1:
            rule = "C6"
        steps.append(
            (dc_label(request.dc), f"{result.total} {how}: {OUTCOME_TEXT[result.outcome]}", rule)
        )
    return steps


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
