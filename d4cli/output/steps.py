"""The steps of a roll as data: one walk per result, shared by every renderer.

A pool roll (R2-R8), an Action Roll (C1-C7) and a roll of plain dice (L3) each become
a list of plain `Step` records: the step's name, what happened (plain text, names as
written), the rule id that decided it, and a `Tone` for the part of the text that
carries the verdict. The Rich table (`d4cli.output.render.roll_steps.steps_table`) and the
Markdown one (`d4cli.output.render.handbook.steps_markdown`) render the list; the
steps of what a creature does are `d4cli.output.creature_steps`. No Rich here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

from d4cli.rules.action_roll import CheckResult, Outcome
from d4cli.rules.dc import DC_TIERS
from d4cli.rules.dice import DiceRoll
from d4cli.rules.pool import Gate, PoolPlan, PoolResult

# Beyond this many dice a step shows the first ones and a count (JSON has all).
SHOWN_DICE = 40


# How the verdict of a step reads. A closed set typed as a Literal (no class to build at
# start-up): plain, good (allowed, success), great, bad, alarm (refused), warn, strong.
Tone = Literal["plain", "good", "great", "bad", "alarm", "warn", "strong"]


class Step(NamedTuple):
    """One step of a roll.

    Attributes:
        name: the step (``Gate``, ``Pool``, ``4d4``, ``Total`` ...).
        detail: what happened, plain text; names are as written (renderers escape them).
        rule: the rule id that decided it (``R2``, ``C5``).
        tone: how the verdict reads.
        toned: the part of *detail* the tone marks (its last occurrence); "" for none.
    """

    name: str
    detail: str
    rule: str
    tone: Tone = "plain"
    toned: str = ""

    def parts(self) -> tuple[str, str, str]:
        """*detail* split around its toned part: ``(before, toned, after)``."""
        if not self.toned or self.tone == "plain":
            return self.detail, "", ""
        before, found, after = self.detail.rpartition(self.toned)
        if not found:
            return self.detail, "", ""
        return before, found, after


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


def gate_step(gate: Gate, aspect_label: str = "Aspect") -> Step:
    """The gate (R2, R3): ``Aspect - Load = headroom`` against the Cost."""
    sum_text = f"{aspect_label} {gate.aspect} - Load {gate.load} = headroom {gate.headroom}"
    if gate.allowed:
        return Step("Gate", f"{sum_text} >= Cost {gate.cost}: allowed", "R2", "good", "allowed")
    detail = f"{sum_text} < Cost {gate.cost}: refused, short by {gate.shortfall}"
    return Step("Gate", detail, "R2", "alarm", "refused")


def gate_steps(plan: PoolPlan) -> list[Step]:
    """The gate row (R2, R3, R9)."""
    gate = plan.gate
    if gate.skipped:
        return [Step("Gate", f"skipped: a GM-called roll (headroom {gate.headroom})", "R9")]
    return [gate_step(gate)]


def pool_plan_steps(plan: PoolPlan) -> list[Step]:
    """Steps from the gate up to the pool size (R2, R4, R5, R6, R9)."""
    steps = gate_steps(plan)
    if not plan.gate.allowed:
        return steps
    request = plan.request
    size = plan.size
    if request.ignore_load:
        steps.append(
            Step("Base pool", f"Aspect {request.aspect} (Load ignored) = {size.base}", "R9")
        )
    else:
        detail = f"Aspect {request.aspect} - max(0, Load {request.load}) = {size.base}"
        steps.append(Step("Base pool", detail, "R5"))
    for label, counted, repeats in (
        ("Advantage", plan.advantage, plan.advantage_repeats),
        ("Disadvantage", plan.disadvantage, plan.disadvantage_repeats),
    ):
        if counted:
            sign = "+" if label == "Advantage" else "-"
            detail = f"{sign}{len(counted)}: {', '.join(counted)}"
            if repeats:
                detail += f" ({', '.join(repeats)} counted once)"
            steps.append(Step(label, detail, "R4"))
    if plan.advantage or plan.disadvantage:
        steps.append(Step("Net Advantage", signed(plan.net_advantage), "R4"))
    pool_text = f"{size.base} {signed(size.net_advantage)} = {size.base + size.net_advantage}"
    if size.minimum_applied:
        pool_text += " -> raised to the minimum: 1d4"
    else:
        pool_text += "d4"
    steps.append(Step("Pool", pool_text, "R5"))
    return steps


def pool_steps(result: PoolResult) -> list[Step]:
    """Every step of a pool roll: plan, dice, extra dice, total, resolution, Load (R2-R8)."""
    plan = result.plan
    steps = pool_plan_steps(plan)
    if not result.allowed:
        steps.append(Step("Load", f"stays {plan.gate.load}: nothing was rolled", "R2"))
        return steps
    steps.append(Step(f"{plan.size.size}d4", dice_sum(result.dice), "R7"))
    for roll in result.extra:
        detail = dice_sum(roll.dice)
        if roll.extra.modifier:
            detail += f" {signed(roll.extra.modifier)} = {roll.subtotal}"
        steps.append(Step(f"Extra {roll.extra.notation}", detail, "R6"))
    steps.append(Step("Total", str(result.total), "R7", "strong", str(result.total)))
    request = plan.request
    if request.dc is not None:
        word = "success" if result.success else "failure"
        sign = ">=" if result.success else "<"
        tone: Tone = "good" if result.success else "bad"
        steps.append(
            Step(
                f"DC {request.dc}", f"{result.total} {sign} {request.dc}: {word}", "R7", tone, word
            )
        )
    if request.evasion is not None:
        damage = str(result.damage)
        detail = f"max(0, {result.total} - {request.evasion}) = {damage} damage"
        steps.append(Step(f"Evasion {request.evasion}", detail, "R7", "strong", damage))
    if plan.gate.skipped:
        steps.append(
            Step("Load after", f"{plan.load_after}, unchanged: a GM-called roll adds no Cost", "R9")
        )
    else:
        load_text = f"{plan.gate.load} + Cost {plan.gate.cost} = {plan.load_after}"
        steps.append(Step("Load after", load_text, "R8"))
    return steps


def dice_steps(roll: DiceRoll) -> list[Step]:
    """The steps of a plain dice roll (``roll dice``): each term die by die, then the total (L3)."""
    steps = []
    for term in roll.rolls:
        detail = dice_sum(term.dice)
        if term.extra.modifier:
            detail += f" {signed(term.extra.modifier)} = {term.subtotal}"
        steps.append(Step(term.extra.notation, detail, "L3"))
    if len(roll.rolls) > 1:
        sums = " + ".join(str(term.subtotal) for term in roll.rolls).replace("+ -", "- ")
        detail = f"{sums} = {roll.total}"
    else:
        detail = str(roll.total)
    steps.append(Step("Total", detail, "L3", "strong", str(roll.total)))
    return steps


def dc_label(dc: int) -> str:
    names = [name for name, value in DC_TIERS.items() if value == dc]
    return f"DC {dc} ({names[0]})" if names else f"DC {dc}"


# How each outcome of an Action Roll (`d4cli.rules.action_roll.Outcome`, a StrEnum: its values are the keys)
# reads: (words, tone, what follows them).
OUTCOME_WORDS: dict[str, tuple[str, Tone, str]] = {
    "success": ("succeeds", "good", ""),
    "failure": ("fails", "bad", ""),
    "success-and": ("succeeds, and...", "great", " (Rule of Three)"),
    "failure-but": ("fails, but...", "warn", " (Rule of Three)"),
}


def check_steps(result: CheckResult) -> list[Step]:
    """Every step of an Action Roll (C1-C7)."""
    request = result.request
    levels = result.levels
    if levels.impossible:
        detail = f"{request.disadvantage} Disadvantages: impossible, nothing rolled"
        return [Step("Disadvantage", detail, "C4", "alarm", "impossible")]
    steps = [Step("Natural d20", str(result.natural), "C1")]
    steps.append(
        Step(
            "Modifiers",
            f"Attribute {request.attribute} + Proficiency {request.proficiency}"
            f" + Specialization {request.specialization} = {signed(request.modifiers)}",
            "C1",
        )
    )
    if request.disadvantage == 1 and request.advantage_level >= 1:
        detail = f"lowers Advantage Level {request.advantage_level} to {levels.effective_level}"
        steps.append(Step("Disadvantage", detail, "C4"))
    if result.advantage_dice:
        dice = ", ".join(str(die) for die in result.advantage_dice)
        sixes = sum(1 for die in result.advantage_dice if die == 6)
        detail = (
            f"Level {levels.effective_level}: d6s {dice} -> highest {max(result.advantage_dice)}"
        )
        if sixes > 1:
            detail += f" +{sixes - 1} for extra sixes"
        steps.append(Step("Advantage", f"{detail} = {signed(result.advantage_bonus)}", "C3"))
    if result.disadvantage_die is not None:
        steps.append(Step("Disadvantage", f"1d6 subtracted: -{result.disadvantage_die}", "C4"))
    if result.crit_die is not None:
        steps.append(Step("Critical", f"natural 20: extra d6 +{result.crit_die}", "C5"))
    elif result.natural == 1:
        steps.append(Step("Critical", "natural 1: fails whatever the Result", "C6"))
    steps.append(Step("Result", str(result.total), "C1", "strong", str(result.total)))
    if request.dc is not None and result.outcome is not None and result.margin is not None:
        margin = result.margin
        how = f"beats by {margin}" if margin >= 0 else f"misses by {-margin}"
        rule = "C7" if result.outcome in (Outcome.SUCCESS_AND, Outcome.FAILURE_BUT) else "C2"
        if result.natural == 1:
            rule = "C6"
        words, tone, after = OUTCOME_WORDS[Outcome(result.outcome)]
        detail = f"{result.total} {how}: {words}{after}"
        steps.append(Step(dc_label(request.dc), detail, rule, tone, words))
    return steps


# The steps that show dice (a pool's d4s, extra dice, a check's d20 and d6s), by name.
_DICE_STEPS = ("Natural d20", "Advantage", "Extra ", "Disadvantage: 1d6", "Critical: natural 20")


def entered_steps(steps: Sequence[Step]) -> list[Step]:
    """*steps* of a roll whose dice were entered by hand: each step that shows dice says so."""
    out = []
    for step in steps:
        key = f"{step.name}: {step.detail}"
        pool_dice = step.name.endswith("d4") and step.name[:-2].isdigit()
        if pool_dice or any(key.startswith(name) for name in _DICE_STEPS):
            step = step._replace(detail=f"entered {step.detail}")
        out.append(step)
    return out
