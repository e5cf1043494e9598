"""How a pool roll prints (R2-R8): `pool_view` and the gate's refusal, for ``roll pool`` and ``act``.

Apart from `d4cli.cli.commands.roll` (which re-exports both) so that ``act`` prints a
pool roll without building the options of the ``roll`` commands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from d4cli.cli.commands.output import ResultView, Tally
    from d4cli.output.steps import Step
    from d4cli.rules.pool import Gate, PoolPlan, PoolResult

JsonObject = dict[str, Any]


def gate_refusal(gate: Gate) -> str | None:
    """The message of a gate refusal (R2), None when the gate allowed (or was skipped)."""
    if gate.allowed:
        return None
    return (
        f"refused by the gate (R2): headroom {gate.headroom} < Cost {gate.cost}, "
        f"short by {gate.shortfall}"
    )


def pool_view(
    plan: PoolPlan,
    *,
    odds: bool,
    to_json: Callable[[PoolResult], JsonObject] | None = None,
    title: str = "Pool roll",
    after: Callable[[PoolResult], None] | None = None,
    steps: Callable[[PoolResult], list[Step]] | None = None,
    label: str | None = None,
) -> ResultView[PoolResult]:
    """How a pool roll of *plan* prints (R2-R8): *to_json* defaults to the ``roll pool`` object.

    A *label* (``--label``) joins the JSON as ``label`` and the table's title.

    With *odds* the exact odds (L4) join the JSON (``odds``) and the table; *after*
    prints what follows the table (``act`` adds what the action did); *steps* replaces
    the table's steps (``act`` names where each source came from). *title* is markup
    (`d4cli.output.render.acts.act_title`); the tables come from `d4cli.output.render.roll`.
    """
    from d4cli.cli.commands.output import ResultView, print_renderables
    from d4cli.output.serialize.rolls import pool_json, with_odds

    odds_record = None
    if odds and plan.gate.allowed:
        from d4cli.odds.roll_odds import pool_odds

        odds_record = pool_odds(plan)
    base = pool_json if to_json is None else to_json

    def as_json(result: PoolResult) -> JsonObject:
        obj = base(result)
        if label is not None:
            obj["label"] = label
        return with_odds(obj, odds_record) if odds else obj

    def show(result: PoolResult) -> None:
        from d4cli.output.render.roll import pool_renderables

        shown = None if steps is None else steps(result)
        print_renderables(
            *pool_renderables(result, title, label=label, steps=shown, odds=odds_record)
        )
        if after is not None and result.allowed:
            after(result)

    refusal = gate_refusal(plan.gate)
    return ResultView(
        to_json=as_json,
        essential=_pool_essential,
        show=show,
        tally=_pool_tally,
        refusal=lambda _: refusal,
        label=label,
    )


def _pool_essential(result: PoolResult) -> int | None:
    return result.damage if result.damage is not None else result.total


def _pool_tally(result: PoolResult) -> Tally:
    return (result.total, result.success, result.damage)
