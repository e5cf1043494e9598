"""How the rolls print: a `d4cli.output.printing.ResultView` each for a pool roll (R2-R8), an
Action Roll (C1-C7) and plain dice (L3), with their exact odds when asked (L4), and the one
line of a roll (``--short``: `pool_line`, `check_line`).

``roll pool``, ``roll check`` and ``roll dice`` print through these; ``act`` prints a pool
roll through `PoolView`'s subclass `d4cli.output.act_views.ActView`. A view's JSON, essential
number and refusal need no Rich; what it draws for people does: its ``show`` imports its
renderer (`d4cli.output.render.roll_steps`) where it draws, so that ``--json`` never loads Rich.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from d4cli.journal.roll_facts import check_json, dice_json, pool_json
from d4cli.output.printing import Tally
from d4cli.output.serialize import JsonObject
from d4cli.output.serialize.rolls_json import with_odds
from d4cli.output.steps import Step, check_steps, entered_steps, pool_steps
from d4cli.rules.action_roll import CheckRequest, CheckResult, apply_disadvantage
from d4cli.rules.dice import DiceExpression, DiceRoll
from d4cli.rules.pool import Gate, PoolPlan, PoolResult

if TYPE_CHECKING:
    from d4cli.odds.roll_odds import CheckOdds, PoolOdds


def gate_refusal(gate: Gate) -> str | None:
    """The message of a gate refusal (R2), None when the gate allowed (or was skipped)."""
    if gate.allowed:
        return None
    return (
        f"refused by the gate (R2): headroom {gate.headroom} < Cost {gate.cost}, "
        f"short by {gate.shortfall}"
    )


def _signed(value: object) -> str:
    return f"{value:+d}" if isinstance(value, int) else str(value)


def pool_line(obj: dict[str, Any]) -> str:
    """``5d4 + 1d8 (3 1 2 4 4 6) = 20 vs DC 12: success; sources +torch, -dark (R4)`` (R4-R9):
    the one line of a pool roll's object (``roll pool --short``), plain text."""
    dice = [str(die) for die in obj.get("dice") or ()]
    extras = obj.get("extra") or ()
    for extra in extras:
        dice += [str(die) for die in extra.get("dice") or ()]
    text = f"{obj.get('pool_size')}d4" + "".join(f" + {extra.get('notation')}" for extra in extras)
    text += f" ({' '.join(dice)}) = {obj.get('total')}"
    if obj.get("dc") is not None:
        text += f" vs DC {obj['dc']}: {'success' if obj.get('success') else 'failure'}"
    if obj.get("evasion") is not None:
        text += f" vs Evasion {obj['evasion']}: {obj.get('damage')} damage"
    sources = [f"+{name}" for name in obj.get("advantage") or ()] + [
        f"-{name}" for name in obj.get("disadvantage") or ()
    ]
    if sources:
        text += f"; sources {', '.join(sources)} (R4)"
    if obj.get("gate_skipped"):
        text += "; GM-called (R9)"
    return text


def check_line(obj: dict[str, Any]) -> str:
    """``d20 14 +3 +4 (Advantage) = 21 vs DC 18: success`` (C1-C7)."""
    modifiers = sum(obj.get(key) or 0 for key in ("attribute", "proficiency", "specialization"))
    text = f"d20 {obj.get('natural')} {_signed(modifiers)}"
    if obj.get("advantage_bonus"):
        text += f" {_signed(obj['advantage_bonus'])} (Advantage, C3)"
    if obj.get("disadvantage_die") is not None:
        text += f" -{obj['disadvantage_die']} (Disadvantage, C4)"
    if obj.get("crit_die") is not None:
        text += f" +{obj['crit_die']} (critical, C5)"
    text += f" = {obj.get('total')}"
    if obj.get("critical") == "failure":
        text += " (natural 1, C6)"
    if obj.get("dc") is not None:
        words = {
            "success": "success",
            "failure": "failure",
            "success-and": "succeeds, and... (C7)",
            "failure-but": "fails, but... (C7)",
        }
        text += f" vs DC {obj['dc']}: {words.get(str(obj.get('outcome')), obj.get('outcome'))}"
    return text


class PoolView:
    """How a pool roll of *plan* prints (R2-R8): the ``roll pool`` object, or its steps table.

    A *label* (``--label``) joins the JSON as ``label`` and the table's title. With *odds*
    the exact odds (L4) join the JSON (``odds``) and follow the table; *short* makes the
    essential the roll's one line (``--short``, `pool_line`).
    *title* is markup (names already escaped). A subclass changes the object
    (`base_json`), the steps (`steps`) and the lines under the table (`lines_after`).
    """

    def __init__(
        self,
        plan: PoolPlan,
        *,
        odds: bool = False,
        label: str | None = None,
        short: bool = False,
        title: str = "Pool roll",
        entered: bool = False,
    ) -> None:
        self.plan = plan
        self.entered = entered
        self.odds = odds
        self.label = label
        self.short = short
        self.title = title
        self.odds_record: PoolOdds | None = None
        self.odds_object: JsonObject | None = None
        if odds and plan.gate.allowed:
            # --odds: the exact odds and their JSON load only when asked for (docs/performance.md).
            from d4cli.output.serialize.odds_json import odds_json, pool_odds

            self.odds_record = pool_odds(plan)
            self.odds_object = odds_json(self.odds_record)

    def base_json(self, result: PoolResult) -> JsonObject:
        """The object before ``label`` and ``odds``: `d4cli.journal.roll_facts.pool_json`."""
        return pool_json(result, entered=self.entered)

    def to_json(self, result: PoolResult) -> JsonObject:
        obj = self.base_json(result)
        if self.label is not None:
            obj["label"] = self.label
        return with_odds(obj, self.odds_object) if self.odds else obj

    def essential(self, result: PoolResult) -> int | str | None:
        if self.short:
            return pool_line(pool_json(result))
        return result.damage if result.damage is not None else result.total

    def steps(self, result: PoolResult) -> list[Step]:
        """The rows of the steps table (`d4cli.output.steps.pool_steps`)."""
        return pool_steps(result)

    def shown_steps(self, result: PoolResult) -> list[Step]:
        """`steps`, each showing dice saying ``entered`` when the faces were entered by hand."""
        steps = self.steps(result)
        return entered_steps(steps) if self.entered else steps

    def lines_after(self, result: PoolResult) -> list[str]:
        """Markup lines under the table of an allowed roll: none for a plain pool roll."""
        return []

    def heading(self) -> str:
        """The steps table's title (markup, names already escaped): *title*."""
        return self.title

    def show(self, result: PoolResult) -> None:
        from d4cli.output.render import print_renderables  # drawn: Rich loads here
        from d4cli.output.render.roll_steps import pool_renderables

        renderables: list[object] = pool_renderables(
            result,
            self.heading(),
            label=self.label,
            steps=self.shown_steps(result),
            odds=self.odds_record,
        )
        if result.allowed:
            renderables += self.lines_after(result)
        print_renderables(*renderables)

    def tally(self, result: PoolResult) -> Tally:
        return Tally(result.total, result.success, result.damage)

    def refusal(self, result: PoolResult) -> str | None:
        return gate_refusal(self.plan.gate)


class CheckView:
    """How an Action Roll of *request* prints (C1-C7): the ``roll check`` object, or its steps.

    *odds*, *label* and *short* as for `PoolView` (the line: `check_line`).
    Two or more Disadvantages refuse every roll (C4): nothing is rolled.
    """

    def __init__(
        self,
        request: CheckRequest,
        *,
        odds: bool = False,
        label: str | None = None,
        short: bool = False,
        entered: bool = False,
    ) -> None:
        self.request = request
        self.entered = entered
        self.odds = odds
        self.label = label
        self.short = short
        impossible = apply_disadvantage(request.advantage_level, request.disadvantage).impossible
        self.odds_record: CheckOdds | None = None
        self.odds_object: JsonObject | None = None
        if odds and not impossible:
            # --odds: the exact odds and their JSON load only when asked for (docs/performance.md).
            from d4cli.output.serialize.odds_json import check_odds, check_odds_json

            self.odds_record = check_odds(request)
            self.odds_object = check_odds_json(self.odds_record)
        self._refusal = (
            f"impossible (C4): {request.disadvantage} Disadvantages; nothing was rolled"
            if impossible
            else None
        )

    def to_json(self, result: CheckResult) -> JsonObject:
        obj = check_json(result, entered=self.entered)
        if self.label is not None:
            obj["label"] = self.label
        return with_odds(obj, self.odds_object) if self.odds else obj

    def essential(self, result: CheckResult) -> int | str | None:
        if self.short:
            return check_line(check_json(result))
        return result.total

    def show(self, result: CheckResult) -> None:
        from d4cli.output.render import print_renderables  # drawn: Rich loads here
        from d4cli.output.render.roll_steps import check_renderables

        steps = entered_steps(check_steps(result)) if self.entered else None
        print_renderables(
            *check_renderables(result, label=self.label, odds=self.odds_record, steps=steps)
        )

    def tally(self, result: CheckResult) -> Tally:
        graded = str(result.outcome) if result.request.rule_of_three else None
        return Tally(result.total, result.success, None, graded)

    def refusal(self, result: CheckResult) -> str | None:
        return self._refusal


class DiceView:
    """How a roll of plain dice prints (``roll dice``, L3): its object, or its steps; the exact
    odds of *expression* (L4) with *odds*; a *label* as for `PoolView`."""

    def __init__(
        self, expression: DiceExpression, *, odds: bool = False, label: str | None = None
    ) -> None:
        self.odds = odds
        self.label = label
        self.odds_record: PoolOdds | None = None
        self.odds_object: JsonObject | None = None
        if odds:
            # --odds: the exact odds and their JSON load only when asked for (docs/performance.md).
            from d4cli.output.serialize.odds_json import dice_odds, odds_json

            self.odds_record = dice_odds(expression.terms)
            self.odds_object = odds_json(self.odds_record)

    def to_json(self, roll: DiceRoll) -> JsonObject:
        obj = dice_json(roll)
        if self.label is not None:
            obj["label"] = self.label
        return with_odds(obj, self.odds_object) if self.odds else obj

    def essential(self, roll: DiceRoll) -> int | str | None:
        return roll.total

    def show(self, roll: DiceRoll) -> None:
        from d4cli.output.render import escape, print_renderables  # drawn: Rich loads here
        from d4cli.output.render.odds_charts import render_pool_odds
        from d4cli.output.render.roll_steps import dice_table

        title = "Dice" if self.label is None else f"Dice: {escape(self.label)}"
        renderables: list[object] = [dice_table(roll, title)]
        if self.odds_record is not None:
            renderables.append(render_pool_odds(self.odds_record))
        print_renderables(*renderables)

    def tally(self, roll: DiceRoll) -> Tally:
        return Tally(roll.total)

    def refusal(self, roll: DiceRoll) -> None:
        return None
