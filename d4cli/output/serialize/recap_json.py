"""``d4cli recap --json``: the recap, its luck and its placement among simulated fights (docs/cli.md "Recap")."""

from __future__ import annotations

from collections.abc import Sequence

from d4cli.fight.recap_figures import CreatureFigures, Recap
from d4cli.odds.luck import CreatureLuck, RollLuck
from d4cli.output.serialize import JsonObject
from d4cli.sim.placement import Placement


def creature_json(figures: CreatureFigures, luck: CreatureLuck | None) -> JsonObject:
    """One creature's figures: damage, actions, Team Actions, Load, turns, downs and luck (null without rolls)."""
    return {
        "name": figures.name,
        "side": figures.side,
        "damage_dealt": figures.damage_dealt,
        "damage_taken": figures.damage_taken,
        "actions_on_turn": figures.actions_on_turn,
        "actions_off_turn": figures.actions_off_turn,
        "gm_called": figures.gm_called,
        "team_actions": figures.team_actions,
        "load_spent": figures.load_spent,
        "turns": figures.turns,
        "turns_unable": figures.turns_unable,
        "longest_unable": figures.longest_unable,
        "downs": [{"round": r, "event": event, "seq": seq} for r, event, seq in figures.downs],
        "luck": None
        if luck is None
        else {"rolls": luck.rolls, "mean": luck.mean, "verdict": luck.verdict},
    }


def roll_json(roll: RollLuck) -> JsonObject:
    """``{seq, creature, kind, round, total, percentile}``: percentile 0..1, the exact mid-rank as a float."""
    return {
        "seq": roll.seq,
        "creature": roll.creature,
        "kind": roll.kind,
        "round": roll.round,
        "total": roll.total,
        "percentile": float(roll.percentile),
    }


def placement_json(placement: Placement | None, why_not: str | None) -> JsonObject | None:
    """``{mode, runs, seed, rounds: {real, percentile}, damage: {SIDE: {real, percentile}}, wins: {SIDE: share}}``."""
    if placement is None:
        return None
    real, share = placement.rounds
    return {
        "mode": placement.mode,
        "runs": placement.runs,
        "seed": placement.seed,
        "rounds": {"real": real, "percentile": share},
        "damage": {
            side: {"real": value, "percentile": p} for side, (value, p) in placement.damage.items()
        },
        "wins": dict(placement.wins),
    }


def recap_json(
    recap: Recap,
    rolls: Sequence[RollLuck],
    luck: Sequence[CreatureLuck],
    placement: Placement | None,
    why_not: str | None,
) -> JsonObject:
    """The ``recap --json`` object (docs/cli.md "Recap")."""
    by_name = {item.creature: item for item in luck}
    return {
        "kind": "recap",
        "encounter": recap.encounter,
        "from_seq": recap.from_seq,
        "to_seq": recap.to_seq,
        "rounds": recap.rounds,
        "sides": list(recap.sides),
        "winner": recap.winner,
        "creatures": [creature_json(f, by_name.get(f.name)) for f in recap.creatures],
        "damage_per_round": [
            {"round": d.round, "sides": dict(d.sides), "other": d.other}
            for d in recap.damage_per_round
        ],
        "damage_by_side": dict(recap.damage_by_side),
        "longest_refusal": None
        if recap.longest_refusal is None
        else {"creature": recap.longest_refusal[0], "turns": recap.longest_refusal[1]},
        "rolls": [roll_json(roll) for roll in rolls],
        "simulated": placement_json(placement, why_not),
        "simulated_note": why_not,
    }
