"""``d4cli handbook``: one Markdown document for the designer's handbook (docs/cli.md "Handbook").

Built from what the tool already computes: every rule as docs/rules.md states
it (`d4cli.output.ruletext`), the exact odds grids (`d4cli.odds.grids`), a roll
step by step (`steps_markdown`, through `d4cli.output.markdown`) and the
simulator's reset-mode comparison (`d4cli.output.render.simtext`). Each table
has a one-line caption saying how it was computed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from d4cli.odds.grids import check_grid, compare_grid, damage_grid, pool_grid
from d4cli.output.markdown import Markdown, markdown_table, md_text
from d4cli.output.render.odds_charts import grid_markdown
from d4cli.output.render.simtext import markdown_report
from d4cli.output.ruletext import RULES
from d4cli.output.steps import Step, pool_steps
from d4cli.rules.dice import ExtraDice, ScriptedDice
from d4cli.rules.pool import PoolRequest, plan_pool, roll_pool

# The grids' axes: small enough to read, wide enough to show the curve.
POOL_ASPECTS = (1, 2, 3, 4, 5, 6)
POOL_DCS = (4, 6, 8, 10, 12, 14, 16, 18, 20)
DAMAGE_EVASIONS = (6, 8, 10, 12, 14)
CHECK_DCS = (6, 12, 18, 24, 30)
CHECK_LEVELS = (0, 1, 2, 3)
COMPARE_DCS = (6, 8, 10, 12, 14, 16, 18)


STEP_HEADERS = ("Step", "What happened", "Rule")


def steps_markdown(title: str, steps: Iterable[Step]) -> str:
    """The steps of a roll (`d4cli.output.steps`) as a Markdown table under a bold *title*: the toned
    part of a verdict (allowed, the total, the damage) in bold, as the Rich table colours it."""
    rows = [[step.name, _detail(step), step.rule] for step in steps]
    return f"**{md_text(title)}**\n\n" + markdown_table(STEP_HEADERS, rows) + "\n"


def _detail(step: Step) -> str | Markdown:
    """What happened at *step*: its toned part in bold (Markdown), else its plain text."""
    before, toned, after = step.parts()
    if not toned:
        return step.detail
    return Markdown(f"{md_text(before)}**{md_text(toned)}**{md_text(after)}")


def rules_section() -> list[str]:
    """Every rule (R, C, L, N ids) in the project's words, each with its example."""
    lines = [
        "## The rules",
        "",
        "As docs/rules.md states them; `d4cli help RULE-ID` shows one.",
        "",
    ]
    for rule in RULES.values():
        lines += [
            f"### {rule.id} {md_text(rule.title)}",
            "",
            rule.text,
            "",
            f"*Example.* {rule.example}",
            "",
        ]
    return lines


def worked_example() -> list[str]:
    """A pool roll step by step (R2-R8), through the Markdown step renderer, with fixed dice."""
    request = PoolRequest(
        aspect=4, load=1, cost=1, advantage=("high ground",), extra=(ExtraDice(1, 8),), evasion=9
    )
    result = roll_pool(plan_pool(request), ScriptedDice([3, 1, 4, 2, 6]))
    title = "Aspect 4, Load 1, Cost 1, Advantage from high ground, a 1d8 weapon, against Evasion 9"
    return [
        "## A roll, step by step",
        "",
        "Caption: one roll with fixed dice (3, 1, 4, 2 on the d4s, 6 on the d8), as `d4cli act` shows it.",
        "",
        steps_markdown(title, pool_steps(result)).rstrip(),
        "",
    ]


def grids_section() -> list[str]:
    """The pool-vs-DC, expected-damage, check-vs-DC and D4-vs-d20 grids, exact, each with its caption."""
    d8 = (ExtraDice(1, 8),)
    grids = [
        (
            "Chance of success of a D4 pool against a DC",
            "exact (whole-number counts of outcomes); Load 0, no Advantage, no extra dice (R5, R7)",
            pool_grid(POOL_DCS, aspects=POOL_ASPECTS),
        ),
        (
            "Expected damage of a D4 pool with a 1d8 weapon against an Evasion",
            "exact expected value of max(0, total - Evasion); Load 0, no Advantage (R5-R7)",
            damage_grid(DAMAGE_EVASIONS, aspects=POOL_ASPECTS, extra=d8),
        ),
        (
            "Chance of success of a d20 Action Roll against a DC",
            "exact over every d20, Advantage d6, Disadvantage d6 and critical d6; modifiers +3 (C1-C6)",
            check_grid(CHECK_DCS, advantage_levels=CHECK_LEVELS, disadvantages=(0, 1), modifiers=3),
        ),
        (
            "The two systems side by side: D4 pools and d20 checks over the same DCs",
            "exact; pools at Load 0 without Advantage, checks with modifiers +0, +3 and +6 (R5-R7, C1-C6)",
            compare_grid(COMPARE_DCS, aspects=(2, 3, 4, 5), modifiers=(0, 3, 6)),
        ),
    ]
    lines = ["## The odds", ""]
    for title, caption, grid in grids:
        lines += [f"### {title}", "", f"Caption: {caption}.", "", grid_markdown(grid).rstrip(), ""]
    return lines


def simulation_section(report: dict[str, Any]) -> list[str]:
    """The reset-mode comparison of the encounter (R12) from the simulator, with its runs and seed."""
    return [
        "## The reset modes compared",
        "",
        # The report's own heading gives the runs, the seed and the intervals: said once.
        "Caption: simulated under the policy `d4cli help simulate` states.",
        "",
        markdown_report(report),
        "",
    ]


def handbook_markdown(report: dict[str, Any]) -> str:
    """The whole handbook: the rules, a roll step by step, the odds grids, the reset modes of *report*'s encounter."""
    lines = [
        "# d4cli: the designer's handbook",
        "",
        f"Generated by `d4cli handbook` from the rules, the exact odds and {md_text(report['encounter'] or 'the encounter')}.",
        "",
    ]
    lines += rules_section() + worked_example() + grids_section() + simulation_section(report)
    return "\n".join(lines).rstrip() + "\n"
