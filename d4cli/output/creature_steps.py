"""The steps of what a creature does, as data: an act's pool roll with where each source came
from (R4, R11, R20), a Team Action (R2, R8, R10, R11, R18) and a check from a sheet (C8).

Lists of `d4cli.output.steps.Step` like a plain roll's, built on its steps; rendered by the
same tables. No Rich here.
"""

from __future__ import annotations

from collections.abc import Sequence

from d4cli.fight.sheet_check import CheckRecord
from d4cli.fight.team import TeamRecord
from d4cli.journal.effect_facts import ORIGINS, check_origin
from d4cli.output.steps import Step, check_steps, gate_step, pool_steps, signed
from d4cli.rules.pool import PoolResult


def act_steps(result: PoolResult, sources: Sequence[tuple[str, str, str]]) -> list[Step]:
    """`pool_steps` of an act, with a "Sources" step before the Advantage that names where
    each source came from: the command line, an effect, a Team Action (R4, R11, R20)."""
    steps = pool_steps(result)
    if not result.allowed or not any(origin != "command" for _, _, origin in sources):
        return steps
    named = ", ".join(
        f"{'+' if grant == 'advantage' else '-'}{source} ({ORIGINS[origin].label})"
        for source, grant, origin in sources
    )
    at = next(
        (i for i, step in enumerate(steps) if step.name in ("Advantage", "Disadvantage")),
        len(steps),
    )
    return steps[:at] + [Step("Sources", named, "R20")] + steps[at:]


def team_steps(record: TeamRecord) -> list[Step]:
    """The steps of a Team Action: the actor's gate, the grant, the Load (R2, R8, R10, R11)."""
    gate = record.gate
    if record.actor_down:
        return [
            Step(
                "Down",
                f"{record.actor} is at 0 hp: it cannot give a Team Action",
                "R18",
                "alarm",
                "cannot",
            )
        ]
    first = gate_step(gate, record.aspect)
    if not gate.allowed:
        return [first, Step("Load", f"stays {gate.load}: nothing granted", "R2")]
    steps = [first]
    if record.off_turn:
        steps.append(Step("Off-turn", "not its own turn: same gate, same Cost", "R10"))
    grant = f"{record.target}'s next roll: {record.grant} '{record.source}'"
    steps.append(Step("Grant", grant, "R11"))
    steps.append(Step("Load after", f"{gate.load} + Cost {gate.cost} = {record.load_after}", "R8"))
    return steps


def sheet_check_steps(record: CheckRecord) -> list[Step]:
    """A check from a sheet (C8): where each modifier and Advantage level came from, then `check_steps`."""
    steps = [
        Step(kind.capitalize(), f"{name} {signed(value)} (from {record.actor}'s sheet)", "C8")
        for kind, name, value in record.stats
    ]
    counted = {id(source) for source in record.counted}
    result = record.result
    parts = [f"--advantage {record.base_level}"] if record.base_level else []
    for source in record.sources:
        if source.grant != "advantage":
            continue
        how = f"+{source.level}" if id(source) in counted else "counted once"
        parts.append(f"{source.name} ({check_origin(source.origin)}) {how}")
    if len(parts) > (1 if record.base_level else 0):
        level = result.request.advantage_level
        capped = (
            f"{record.raised_level}, capped at Level {level} (C3)"
            if record.raised_level > level
            else f"Level {level}"
        )
        detail = ", ".join(parts) + f" = {capped}"
        steps.append(Step("Advantage Level", detail, "C8"))
    dis = [f"--disadvantage {record.base_disadvantage}"] if record.base_disadvantage else []
    for source in record.sources:
        if source.grant == "disadvantage":
            how = "" if id(source) in counted else ", counted once"
            dis.append(f"{source.name} ({check_origin(source.origin)}{how})")
    if dis and (record.base_disadvantage == 0 or len(dis) > 1):
        steps.append(
            Step("Disadvantages", ", ".join(dis) + f" = {result.request.disadvantage}", "C8")
        )
    return steps + check_steps(result)
