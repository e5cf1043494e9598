"""A seat's page as JSON: ``/seat/TOKEN/view.json``, the answers of ``/preview`` and ``/act``.

Every object is made from `d4cli.fight.seat_view` records (`d4cli.api.seat_board` reads them), which hold only what the seat may
see. A roll's ``steps`` are the very steps ``act`` prints (`d4cli.output.creature_steps`):
``[{name, detail, rule, tone}]``, each with the rule id that decided it.
"""

from __future__ import annotations

from d4cli.fight.seat_view import SeatCreature, SeatPage, SeatPlan, SeatRequest, SeatRoll
from d4cli.journal.rolls import extra_json
from d4cli.odds.roll_odds import PoolOdds
from d4cli.output.creature_steps import act_steps
from d4cli.output.serialize import JsonObject
from d4cli.output.serialize.public_view import effect_left, public_view_json
from d4cli.output.serialize.rolls import odds_json
from d4cli.output.steps import Step, entered_steps, pool_plan_steps


def steps_json(steps: list[Step]) -> list[JsonObject]:
    """Steps as ``[{name, detail, rule, tone}]`` (plain text: the page sets it as text)."""
    return [
        {"name": step.name, "detail": step.detail, "rule": step.rule, "tone": step.tone}
        for step in steps
    ]


def creature_json(creature: SeatCreature, counts_from: int) -> JsonObject:
    """The seat's creature: ``name``, ``aspects`` ``[{name, value, headroom}]`` (R2: it can act
    at Cost N when ``headroom >= N``), ``load``, ``load_buffer``, ``exhaustion``, ``hp``,
    ``max_hp``, ``evasion``, ``down``, ``current``, ``effects`` ``[{source, grant, on, left}]``,
    ``grants`` ``{advantage, disadvantage}`` (R11) and ``actions`` ``[{name, aspect, cost,
    extra, dc, advantage, disadvantage}]``."""
    return {
        "name": creature.name,
        "aspects": [
            {"name": a.name, "value": a.value, "headroom": a.headroom} for a in creature.aspects
        ],
        "load": creature.load,
        "load_buffer": creature.load_buffer,
        "exhaustion": creature.exhaustion,
        "hp": creature.hp,
        "max_hp": creature.max_hp,
        "evasion": creature.evasion,
        "down": creature.down,
        "current": creature.current,
        "effects": [
            {
                "source": e.source,
                "grant": e.grant,
                "on": e.on,
                "left": effect_left(e, counts_from),
            }
            for e in creature.effects
        ],
        "grants": {
            "advantage": list(creature.grants.advantage),
            "disadvantage": list(creature.grants.disadvantage),
        },
        "actions": [
            {
                "name": a.name,
                "aspect": a.aspect,
                "cost": a.cost,
                "extra": list(a.extra),
                "dc": a.dc,
                "advantage": list(a.advantage),
                "disadvantage": list(a.disadvantage),
            }
            for a in creature.actions
        ],
    }


def roll_json(roll: SeatRoll) -> JsonObject:
    """A carried-out roll: ``steps`` (as ``act`` prints them), ``dice``, ``extra``, ``total``,
    ``pool_size``, ``entered``, ``target`` (as the seat named it), ``load_after``."""
    result = roll.result
    steps = act_steps(result, roll.sources)
    return {
        "steps": steps_json(entered_steps(steps) if roll.entered else steps),
        "dice": list(result.dice),
        "extra": extra_json(result.extra),
        "total": result.total,
        "pool_size": result.plan.size.size,
        "entered": roll.entered,
        "target": roll.target,
        "load_after": roll.load_after,
    }


def request_json(request: SeatRequest) -> JsonObject:
    """One of the seat's requests: ``number``, ``time``, ``act`` (what was asked), ``status``
    (``pending``, ``approved``, ``denied``, ``undone``), ``reason``, ``roll`` (`roll_json`, or
    null before it is carried out)."""
    return {
        "number": request.number,
        "time": request.time,
        "act": dict(request.act),
        "status": request.status,
        "reason": request.reason,
        "roll": None if request.roll is None else roll_json(request.roll),
    }


def seat_page_json(page: SeatPage) -> JsonObject:
    """``/seat/TOKEN/view.json``: the players' view as ``/view.json`` gives it (``readable``
    true), plus ``seat`` (`creature_json`), ``requests`` (`request_json`, oldest first) and
    ``mode`` (``approve`` or ``auto``)."""
    return {
        **public_view_json(page.view),
        "readable": True,
        "seat": creature_json(page.creature, page.view.counts_from),
        "requests": [request_json(request) for request in page.requests],
        "mode": page.mode,
    }


def preview_json(preview: SeatPlan, odds: PoolOdds | None) -> JsonObject:
    """``/seat/TOKEN/preview``: ``allowed`` (the gate, R2, and not down, R18), ``down``,
    ``headroom``, ``cost``, ``shortfall``, ``net_advantage`` (R4), ``advantage`` and
    ``disadvantage`` (the sources counted), ``pool_size`` (R5, null when refused), ``faces``
    (the sides of each die to enter, in order), ``steps`` (gate to pool) and ``odds`` (the
    ``odds`` object of ``roll pool --odds``, null when refused)."""
    plan = preview.plan
    gate = plan.gate
    allowed = gate.allowed and not preview.down
    return {
        "allowed": allowed,
        "down": preview.down,
        "headroom": gate.headroom,
        "cost": gate.cost,
        "shortfall": gate.shortfall,
        "net_advantage": plan.net_advantage,
        "advantage": list(plan.advantage),
        "disadvantage": list(plan.disadvantage),
        "pool_size": plan.size.size if allowed else None,
        "faces": list(preview.faces),
        "steps": steps_json(pool_plan_steps(plan)),
        "odds": None if odds is None else odds_json(odds),
    }
