"""A seat's web page (``/seat/TOKEN``): one HTML document, its style and script, no build step.

The document is a shell the script fills from ``/seat/TOKEN/view.json``: the seat's creature
(Aspects, headroom, Load, HP, effects, grants), the action being built (an Aspect or named
action, Cost, target, sources, extra dice) with its preview (pool, gate, exact odds), the
buttons **Roll** and **Enter my dice**, the seat's requests with their outcomes, and the
table. It holds no name and no token: every text the script shows is set as text
(``textContent``), never parsed as markup. Nothing is inline, for the page's
Content-Security-Policy ``default-src 'self'``; the assets are package data of
`d4cli.output`, served at ``/seat-assets/NAME``.

The page's JSON (``/seat/TOKEN/view.json``, the answers of ``/preview`` and ``/act``) is made
here too, from `d4cli.fight.players_view` records (`d4cli.api.seat_board` reads them), which hold
only what the seat may see. A roll's ``steps`` are the very steps ``act`` prints
(`d4cli.output.creature_steps`): ``[{name, detail, rule, tone}]``, each with the rule id that
decided it.
"""

from __future__ import annotations

from importlib.resources import files

from d4cli.fight.players_view import SeatCreature, SeatPage, SeatPlan, SeatRequest, SeatRoll
from d4cli.journal.roll_facts import extra_json
from d4cli.odds.roll_odds import PoolOdds
from d4cli.output.creature_steps import act_steps
from d4cli.output.headroom import headroom_text
from d4cli.output.page import RECONNECTING
from d4cli.output.rolltext import OUTCOME_WORDS
from d4cli.output.serialize import JsonObject
from d4cli.output.serialize.odds_json import odds_json
from d4cli.output.serialize.public_view_json import effect_left, public_view_json
from d4cli.output.steps import Step, entered_steps, pool_plan_steps

SEAT_ASSETS = ("seat.css", "seat.js")
ASSETS_PATH = "/seat-assets/"

_FORM = """
<form id="action" novalidate autocomplete="off">
 <label for="aspect">Aspect or action</label><select id="aspect" name="aspect"></select>
 <div class="pair">
  <div><label for="cost">Cost</label><input id="cost" name="cost" type="number" inputmode="numeric" min="0" step="1" value="1"></div>
  <div><label for="target">Target</label><select id="target" name="target"><option value="">no target</option></select></div>
 </div>
 <label for="advantage">Advantage from</label><input id="advantage" name="advantage" placeholder="high ground, torch">
 <label for="disadvantage">Disadvantage from</label><input id="disadvantage" name="disadvantage" placeholder="smoke">
 <label for="extra">Extra dice</label><input id="extra" name="extra" placeholder="1d6" autocapitalize="off">
 <div id="preview" class="preview" aria-live="polite"></div>
 <div id="faces" class="faces" hidden></div>
 <p id="error" class="error" role="alert" hidden></p>
 <div class="buttons">
  <button type="button" id="roll">Roll</button>
  <button type="button" id="enter" class="second">Enter my dice</button>
  <button type="button" id="send" hidden>Send my dice</button>
 </div>
</form>"""


def seat_page_html() -> str:
    """The seat's page: the shell (`_FORM` and its sections), linking ``seat.css`` and ``seat.js``."""
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f'<title>Your seat</title><link rel="stylesheet" href="{ASSETS_PATH}seat.css"></head>'
        f'<body><p id="offline" class="offline" role="status" hidden>{RECONNECTING}</p>'
        '<main id="seat">'
        '<header id="me"><p id="turn" class="turn" hidden>Your turn</p>'
        '<h1 id="me-name">Your seat</h1><p id="me-state" class="state"></p>'
        '<div id="me-aspects" class="aspects"></div><div id="me-effects" class="chips"></div></header>'
        f'<section id="build" aria-label="Build an action">{_FORM}</section>'
        '<section id="result" class="result" aria-live="polite" hidden></section>'
        '<section aria-label="Your requests"><h2>Your requests</h2><ol id="requests" class="requests"></ol></section>'
        '<section aria-label="The table"><h2 id="table-head">The table</h2><ol id="table" class="table"></ol></section>'
        f'</main><script src="{ASSETS_PATH}seat.js"></script></body></html>'
    )


def seat_asset(name: str) -> bytes:
    """The bytes of ``seat.css`` or ``seat.js`` (package data of `d4cli.output`).

    Raises:
        KeyError: any other *name* (the server answers 404; no name reaches the file system).
    """
    if name not in SEAT_ASSETS:
        raise KeyError(name)
    return files("d4cli.output").joinpath("assets", name).read_bytes()


# --- the page's JSON -------------------------------------------------------------------------


def steps_json(steps: list[Step]) -> list[JsonObject]:
    """Steps as ``[{name, detail, rule, tone}]`` (plain text: the page sets it as text)."""
    return [
        {"name": step.name, "detail": step.detail, "rule": step.rule, "tone": step.tone}
        for step in steps
    ]


def creature_json(creature: SeatCreature, counts_from: int) -> JsonObject:
    """The seat's creature: ``name``, ``aspects`` ``[{name, value, headroom, headroom_text}]``
    (R2: it can act at Cost N when ``headroom >= N``; the text as every screen words it), ``load``, ``load_buffer``, ``exhaustion``, ``hp``,
    ``max_hp``, ``evasion``, ``down``, ``current``, ``effects`` ``[{source, grant, on, left}]``,
    ``grants`` ``{advantage, disadvantage}`` (R11) and ``actions`` ``[{name, aspect, cost,
    extra, dc, advantage, disadvantage}]``."""
    return {
        "name": creature.name,
        "aspects": [
            {
                "name": a.name,
                "value": a.value,
                "headroom": a.headroom,
                "headroom_text": headroom_text(a.name, a.headroom),
            }
            for a in creature.aspects
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
    ``pool_size``, ``entered``, ``target`` (as the seat named it), ``load_after``, ``outcome``
    (``damage``, ``no-damage``, ``success``, ``failure`` or null, R7), ``outcome_text`` (it in the
    table feed's words: ``hit``, ``no damage``...) and ``damage`` (null where the target's
    Evasion is hidden from the players)."""
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
        "outcome": roll.outcome,
        "outcome_text": None if roll.outcome is None else OUTCOME_WORDS.get(roll.outcome),
        "damage": result.damage,
    }


def request_json(request: SeatRequest) -> JsonObject:
    """One of the seat's requests: ``id`` (its number), ``time``, ``act`` (what was asked),
    ``status`` (``pending``, ``approved``, ``denied``, ``undone``), ``reason``, ``roll``
    (`roll_json`, or null before it is carried out)."""
    return {
        "id": request.number,
        "time": request.time,
        "act": dict(request.act),
        "status": request.status,
        "reason": request.reason,
        "roll": None if request.roll is None else roll_json(request.roll),
    }


def seat_page_json(page: SeatPage) -> JsonObject:
    """``/seat/TOKEN/view.json``: the players' view as ``/view.json`` gives it (``readable``
    true), plus ``seat`` (`creature_json`), ``requests`` (`request_json`, oldest first) and
    ``mode`` (``approve`` or ``auto``) and ``fight`` (the fight's number in the evening)."""
    return {
        **public_view_json(page.view),
        "readable": True,
        "seat": creature_json(page.creature, page.view.counts_from),
        "requests": [request_json(request) for request in page.requests],
        "mode": page.mode,
        "fight": page.fight,
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
