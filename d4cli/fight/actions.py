"""What a creature does when it acts (`act`): its request and record (R2-R10, R16); a Team
Action (R11) is `d4cli.fight.team`.

Pure: dice come from an injected `DiceSource`; each transition returns
``(new_encounter, record)`` and changes nothing when the gate refuses (R2).
"""

# No `from __future__ import annotations`: a NamedTuple reads its field types as objects,
# and string annotations cost a compile each.

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from d4cli.fight import effect_transitions as lasting
from d4cli.fight.closed_sets import ACT, ActOutcome
from d4cli.fight.effects import Ended, Pending, team_grants
from d4cli.fight.encounter_state import (
    Creature,
    Encounter,
    same_name,
)
from d4cli.fight.sides import FightEnd, ended_fight
from d4cli.rules.dice import DiceSource, EnteredDice, ExtraDice
from d4cli.rules.errors import InputError
from d4cli.rules.pool import (
    PoolPlan,
    PoolRequest,
    PoolResult,
    plan_pool,
    roll_pool,
)
from d4cli.rules.records import notebook

Source = tuple[str, str, str]  # (source, grant, origin) of a roll, as given (R4, R11, R20)
_NOTHING_ENDED: tuple[Ended, ...] = ()


@notebook
class ActRecord(NamedTuple):
    """An action of a creature of the encounter (R2-R11, R16).

    Attributes:
        round / turn: when it happened.
        actor / aspect: who acted and the Aspect used (names as written).
        result: the rolled (or refused) pool.
        target: the creature attacked, if any (its Evasion was used, R7).
        load_before / load_after: the actor's Load around the action (R8).
        off_turn: not the actor's own turn: a reaction (R10); never a GM-called roll (R9).
        grants_used: Team Action grants the roll used up (R11).
        sources: every source named, in order: ``(source, grant, origin)``, origin
            ``command``, ``effect`` or ``team`` (R4, R11, R20).
        effects_ended: effects the roll used up (R20).
        hp_before / hp_after: the target's hit points around the damage (R16), None without hp.
        actor_down: the actor is down (R18): refused, nothing rolled.
        target_down: the target was already down before the attack (R18).
        action: the named action used (as written on the sheet), None when an Aspect was named.
        fight_over: how this action ended the fight when it took the last foe down (R21,
            `d4cli.fight.sides.ended_fight`), else None.
        entered: the dice are faces entered by hand (real dice at the table), not rolled.
    """

    round: int
    turn: str | None
    actor: str
    aspect: str
    result: PoolResult
    target: str | None
    load_before: int
    load_after: int
    off_turn: bool
    grants_used: Pending
    hp_before: int | None
    hp_after: int | None
    sources: tuple[Source, ...] = ()  # (source, grant, origin) as given, R4, R20
    effects_ended: tuple[Ended, ...] = ()  # R20
    actor_down: bool = False
    target_down: bool = False
    action: str | None = None  # the named action used, None when an Aspect was named
    fight_over: FightEnd[str] | None = None  # when this action ended the fight (R21)
    entered: bool = False  # the faces were entered by hand (`d4cli.rules.dice.EnteredDice`)

    @property
    def kind(self) -> str:
        return ACT

    @property
    def allowed(self) -> bool:
        return self.result.allowed and not self.actor_down

    @property
    def hp_zero(self) -> bool:
        """The target's hp is at 0 after this action (R16)."""
        return self.allowed and self.hp_after == 0

    @property
    def outcome(self) -> ActOutcome | None:
        """``success``/``failure`` (DC), ``damage``/``no-damage`` (Evasion), ``refused``, or None."""
        result = self.result
        if not self.allowed:
            return ActOutcome.REFUSED
        if result.success is not None:
            return ActOutcome.SUCCESS if result.success else ActOutcome.FAILURE
        if result.damage is not None:
            return ActOutcome.DAMAGE if result.damage > 0 else ActOutcome.NO_DAMAGE
        return None


class ActRequest(NamedTuple):
    """What ``d4cli act`` asks for.

    Attributes:
        actor / aspect: names as typed (N1).
        cost: the Cost (R3), default 1.
        advantage / disadvantage: sources named on the command line (R4).
        extra: extra dice (R6).
        dc / target / evasion: at most one: a DC, a creature whose Evasion
            (and hp, R16) is used, or a bare Evasion (R7).
        gm / ignore_load: a GM-called roll for the creature: no gate, its Load
            unchanged, the pool sized as if Load were 0 with *ignore_load* (R9).
        action: the named action that filled this request, None when an Aspect was named.
    """

    actor: str
    aspect: str
    cost: int = 1
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    extra: tuple[ExtraDice, ...] = ()
    dc: int | None = None
    target: str | None = None
    evasion: int | None = None
    gm: bool = False
    ignore_load: bool = False
    action: str | None = None  # the named action used (C8, `d4cli.fight.sheets.apply_named_action`)


def act(encounter: Encounter, request: ActRequest, rng: DiceSource) -> tuple[Encounter, ActRecord]:
    """A creature acts: gate, pool, roll, Load, damage (R2-R11, R16).

    The actor's pending Team Action grants join the sources (R11, counted once
    by name, R4) and are used up. Acting while another creature's turn runs (or
    between turns) is off-turn (R10): same gate, same Cost. A refused action
    (R2) rolls nothing and returns the encounter unchanged; so does an action
    of a down creature (R18, ``actor_down``) unless the GM called for it (R9: no
    Cost, not off-turn). Attacking a down creature is allowed (hp stays 0).

    Args:
        encounter: the encounter before the action.
        request: the action.
        rng: the dice.

    Returns:
        The new encounter and the `ActRecord`.

    Raises:
        InputError: unknown actor, Aspect or target; more than one of DC,
            target and Evasion; too many dice (L2).
    """
    _check_one_resolution(request)
    position = encounter.position_of(request.actor)
    actor = encounter.creatures[position]
    aspect_name, aspect_value = actor.aspect(request.aspect)
    target_position = None
    target = None
    if request.target is not None:
        target_position = encounter.position_of(request.target, "target")
        target = encounter.creatures[target_position]
    # Effects sit on the actor (own) and the target (against), R20: none there, none to name or count.
    with_effects = bool(actor.effects or (target is not None and target.effects))
    sources = _roll_sources(request, actor, target, with_effects)
    evasion = target.evasion if target is not None else request.evasion
    plan = _plan(request, aspect_value, actor.load, sources, evasion)
    down = actor.down and not request.gm  # R9, R18
    result = PoolResult(plan) if down else roll_pool(plan, rng)
    allowed = result.allowed and not down
    hp_before = None if target is None else target.hp
    hp_after = _hp_after(hp_before, result) if allowed else hp_before
    new, ended = encounter, _NOTHING_ENDED
    if allowed and target_position == position:
        new, ended = _act_on_itself(encounter, position, plan.load_after, hp_after, with_effects)
    elif allowed:
        new, ended = _act_on_others(
            encounter, position, target_position, plan.load_after, hp_after, with_effects
        )
    record = ActRecord(
        round=encounter.round,
        turn=encounter.current,
        actor=actor.name,
        aspect=aspect_name,
        result=result,
        target=None if target is None else target.name,
        load_before=actor.load,
        load_after=plan.load_after if allowed else actor.load,
        off_turn=not request.gm and not same_name(encounter.current, actor.name),
        grants_used=team_grants(ended),
        hp_before=hp_before,
        hp_after=hp_after,
        sources=tuple(sources),
        effects_ended=ended,
        actor_down=down,
        target_down=target is not None and target.down,
        action=request.action,
        fight_over=ended_fight(encounter, new) if hp_after == 0 and hp_before else None,
    )
    return new, record


def act_entered(
    encounter: Encounter, request: ActRequest, faces: Sequence[int]
) -> tuple[Encounter, ActRecord]:
    """`act` with real dice: *faces* entered by hand, the pool's d4s then each extra group's (R5,
    R6); the record says ``entered``. A refusal (R2, R18) rolls nothing, whatever the faces.

    Raises:
        InputError: as `act`; field ``faces``: not exactly as many faces as the roll takes (the
            message says how many), or a face outside its die.
    """
    dice = EnteredDice(faces)
    try:
        new, record = act(encounter, request, dice)
    except InputError as error:
        if error.field != dice.field or dice.used < len(dice.faces):
            raise  # not a shortage of faces (a face outside its die, another field)
        needed = act(encounter, request, _Counted())[1].result.plan.dice_count
        shown = ",".join(str(face) for face in dice.faces)
        problem = f"{len(dice.faces)} faces entered; the roll takes exactly {needed}"
        raise InputError(dice.field, shown, problem) from None
    if record.allowed:
        dice.finish()
    return new, record._replace(entered=True)


class _Counted:
    """Ones for every die: `act_entered` learns how many dice a pool takes (its plan's count)."""

    def randint(self, a: int, b: int) -> int:
        return a


def _check_one_resolution(request: ActRequest) -> None:
    """An action resolves against at most one of a DC, a target and an Evasion (R7).

    Raises:
        InputError: naming the fields given together.
    """
    choices = (("dc", request.dc), ("target", request.target), ("evasion", request.evasion))
    if len(given := [field for field, value in choices if value is not None]) > 1:
        problem = "give at most one of {dc}, {target} and {evasion}"
        raise InputError("/".join(given), None, problem, mentions=("dc", "target", "evasion"))


def _roll_sources(
    request: ActRequest, actor: Creature, target: Creature | None, with_effects: bool
) -> list[Source]:
    """Every source of the roll, in order: the command's Advantage, its Disadvantage, then the
    actor's own effects and the target's effects against it (R4, R11, R20)."""
    sources = [(s, "advantage", "command") for s in request.advantage]
    sources += [(s, "disadvantage", "command") for s in request.disadvantage]
    if with_effects:
        sources += lasting.roll_sources(actor, target)
    return sources


def _plan(
    request: ActRequest, aspect: int, load: int, sources: list[Source], evasion: int | None
) -> PoolPlan:
    """The pool plan of the action: the actor's gate, the sources counted, the pool size (R2-R6)."""
    return _planned(
        PoolRequest(
            aspect=aspect,
            load=load,
            cost=0 if request.gm else request.cost,  # a GM-called roll has no Cost (R9)
            advantage=tuple([source for source, grant, _ in sources if grant == "advantage"]),
            disadvantage=tuple([source for source, grant, _ in sources if grant == "disadvantage"]),
            extra=request.extra,
            dc=request.dc,
            evasion=evasion,
            gm=request.gm,
            ignore_load=request.ignore_load,
        )
    )


# A plan is pure in its request; the simulator plans the same few pools over and over
# (uncached, planning was about an eighth of a simulated fight's time).
_planned = lru_cache(maxsize=4096)(plan_pool)


def _hp_after(hp_before: int | None, result: PoolResult) -> int | None:
    """The target's hp after the roll's damage, never below 0 (R16); None for a target without hp."""
    return None if hp_before is None else max(0, hp_before - (result.damage or 0))


def _act_on_itself(
    encounter: Encounter, position: int, load_after: int, hp_after: int | None, with_effects: bool
) -> tuple[Encounter, tuple[Ended, ...]]:
    """A creature that targets itself: its effects used as the roller's and then as the
    target's (R11, R20), then its Load (R8) and hp (R16)."""
    base, ended = encounter, _NOTHING_ENDED
    if with_effects:
        name = encounter.creatures[position].name
        base, ended = lasting.use_effects(encounter, name, name)
    changes: dict[str, Any] = {"load": load_after}
    if hp_after is not None:
        changes["hp"] = hp_after
    return base.with_creature(position, base.creatures[position]._replace(**changes)), ended


def _act_on_others(
    encounter: Encounter,
    position: int,
    target_position: int | None,
    load_after: int,
    hp_after: int | None,
    with_effects: bool,
) -> tuple[Encounter, tuple[Ended, ...]]:
    """The actor's new Load (R8) and used effects, the target's used effects and hp (R11, R16,
    R20), as `d4cli.fight.effect_transitions.use_effects` counts them: each creature changes once."""
    creatures = list(encounter.creatures)
    actor = creatures[position]
    target = None if target_position is None else creatures[target_position]
    changes: dict[str, Any] = {"load": load_after}
    target_changes: dict[str, Any] = {}
    gone: list[Ended] = []
    if with_effects:
        effects = lasting.roll_used(actor, "own", gone)
        if effects is not None:
            changes["effects"] = effects
        effects = None if target is None else lasting.roll_used(target, "against", gone)
        if effects is not None:
            target_changes["effects"] = effects
    if target is not None and hp_after != target.hp:  # no damage: the creature stays as it is
        target_changes["hp"] = hp_after
    creatures[position] = actor._replace(**changes)
    if target_position is not None and target_changes:
        creatures[target_position] = creatures[target_position]._replace(**target_changes)
    return encounter._replace(creatures=tuple(creatures)), tuple(gone)
