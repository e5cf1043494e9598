"""The player view as JSON: ``/view.json``, ``board --players --json`` (`d4cli.fight.players_view`).

Made from the `PublicView` record alone, which holds nothing the GM hides.
"""

from __future__ import annotations

from collections.abc import Sequence

from d4cli.fight.players_view import PublicEffect, PublicRoll, PublicView
from d4cli.journal.heads import fight_over_json
from d4cli.output.effecttext import lasts
from d4cli.output.rolltext import roll_steps
from d4cli.output.serialize import JsonObject
from d4cli.sim.side_odds import SideOdds


def effect_left(effect: PublicEffect, counts_from: int) -> str:
    """What is left of a public effect, in words (`d4cli.output.effecttext.lasts`): ``2 rounds left
    (until the end of round 3)``, ``until the start of Goblin 2's turn`` (R20)."""
    ends = {
        "kind": effect.ends,
        "creature": effect.creature,
        "last_round": effect.last_round,
        "uses": effect.uses,
    }
    return lasts({"ends": ends}, counts_from)


def roll_json(roll: PublicRoll) -> JsonObject:
    """One roll of the feed: ``{kind, round, actor, party, using, dice, extra: [{notation,
    dice}], total, target, evasion, dc, outcome, damage, critical, steps}`` (null where not
    shown; ``steps``: the words the board and the page show). No journal number: its gaps
    would count the changes the players do not see."""
    return {
        "kind": roll.kind,
        "round": roll.round,
        "actor": roll.actor,
        "party": roll.party,
        "using": list(roll.using),
        "dice": None if roll.dice is None else list(roll.dice),
        "extra": None
        if roll.extra is None
        else [{"notation": notation, "dice": list(dice)} for notation, dice in roll.extra],
        "total": roll.total,
        "target": roll.target,
        "evasion": roll.evasion,
        "dc": roll.dc,
        "outcome": roll.outcome,
        "damage": roll.damage,
        "critical": roll.critical,
        "steps": list(roll_steps(roll)),
    }


def odds_json(line: Sequence[SideOdds] | None, computing: bool) -> JsonObject:
    """The odds line: ``{computing, sides: [{side, percent, move}]}``; ``sides`` null before the
    first odds or when the fight cannot be simulated, ``move`` null with no odds before the last
    change (side-level figures only, `d4cli.sim.side_odds`)."""
    sides = None if line is None else [o._asdict() for o in line]
    return {"computing": computing, "sides": sides}


def public_view_json(view: PublicView, odds: JsonObject | None = None) -> JsonObject:
    """The player view: ``kind`` = "player-view", ``name``, ``round``, ``turn`` (a visible name or
    null), ``next`` (the next visible creature to go, or null), ``creatures`` in turn order, each
    ``{name, party, current, had_turn, down, hp, max_hp, hp_label, evasion, effects: [{source,
    grant, on, left}], headroom: {Aspect: Aspect - Load} or null}`` (null where not shown);
    ``fight_over``: ``{"winner": SIDE}`` once one side is left standing, ``{"winner": null}``
    with every creature down (R21), else null (`fight_over_json`);
    ``rolls``: the roll feed, oldest first (`roll_json`); ``odds``: the players' odds line
    (`odds_json`) with ``[player_view] odds_shown``, else null."""
    return {
        "kind": "player-view",
        "name": view.name,
        "round": view.round,
        "turn": view.turn,
        "next": view.next_turn,
        "fight_over": fight_over_json(view.fight_over),
        "creatures": [
            {
                "name": creature.name,
                "party": creature.party,
                "current": creature.current,
                "had_turn": creature.had_turn,
                "down": creature.down,
                "hp": creature.hp,
                "max_hp": creature.max_hp,
                "hp_label": creature.hp_label,
                "evasion": creature.evasion,
                "effects": [
                    {
                        "source": effect.source,
                        "grant": effect.grant,
                        "on": effect.on,
                        "left": effect_left(effect, view.counts_from),
                    }
                    for effect in creature.effects
                ],
                "headroom": None if creature.headroom is None else dict(creature.headroom),
            }
            for creature in view.creatures
        ],
        "rolls": [roll_json(roll) for roll in view.rolls],
        "odds": odds,
    }


def not_ready_json() -> JsonObject:
    """The player view while the encounter file cannot be read: ``kind`` = "player-view" alone
    (no name, no creature: the reason may name a hidden one)."""
    return {"kind": "player-view"}
