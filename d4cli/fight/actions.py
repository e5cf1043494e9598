"""What creatures do: an action (`act`) and a Team Action (`team`), and their records (R2-R11, R16).

Pure: dice come from an injected `DiceSource`; each transition returns
``(new_encounter, record)`` and changes nothing when the gate refuses (R2).
"""

# No `from __future__ import annotations`: a NamedTuple reads its field types as objects,
# and string annotations cost a compile each; names imported for type checking only are quoted.

from typing import TYPE_CHECKING, Any, NamedTuple

from d4cli.fight import effect_transitions as lasting
from d4cli.fight import kinds
from d4cli.fight.effects import Effect, Ended, Pending, put_effect, team_grants
from d4cli.fight.encounter import (
    GRANT_KINDS,
    TEAM_SOURCE,
    Encounter,
    check_new_name,
    same_name,
)
from d4cli.rules.errors import InputError

if TYPE_CHECKING:
    from d4cli.fight.closed_sets import ActOutcome, GrantKind
    from d4cli.fight.encounter import Creature
    from d4cli.rules.dice import DiceSource, ExtraDice
    from d4cli.rules.pool import Gate, PoolResult


class ActRecord(NamedTuple):
    """An action of a creature of the encounter (R2-R11, R16).

    Attributes:
        round / turn: when it happened.
        actor / aspect: who acted and the Aspect used (names as written).
        result: the rolled (or refused) pool.
        target: the creature attacked, if any (its Evasion was used, R7).
        load_before / load_after: the actor's Load around the action (R8).
        off_turn: not the actor's own turn: a reaction (R10).
        grants_used: Team Action grants the roll used up (R11).
        sources: every source named, in order: ``(source, grant, origin)``, origin
            ``command``, ``effect`` or ``team`` (R4, R11, R20).
        effects_ended: effects the roll used up (R20).
        hp_before / hp_after: the target's hit points around the damage (R16), None without hp.
        actor_down: the actor is down (R18): refused, nothing rolled.
        target_down: the target was already down before the attack (R18).
        action: the named action used (as written on the sheet), None when an Aspect was named.
        fight_over: the side left alone with a creature up when this action took the last
            foe down (R18, `d4cli.fight.sides`), else None.
    """

    round: int
    turn: str | None
    actor: str
    aspect: str
    result: "PoolResult"
    target: str | None
    load_before: int
    load_after: int
    off_turn: bool
    grants_used: Pending
    hp_before: int | None
    hp_after: int | None
    sources: tuple[tuple[str, str, str], ...] = ()  # (source, grant, origin) as given, R4, R20
    effects_ended: tuple[Ended, ...] = ()  # R20
    actor_down: bool = False
    target_down: bool = False
    action: str | None = None  # the named action used, None when an Aspect was named
    fight_over: str | None = None  # the winning side, when this action ended the fight (R18)

    @property
    def kind(self) -> str:
        return kinds.ACT

    @property
    def allowed(self) -> bool:
        return self.result.allowed and not self.actor_down

    @property
    def hp_zero(self) -> bool:
        """The target's hp is at 0 after this action (R16)."""
        return self.allowed and self.hp_after == 0

    @property
    def outcome(self) -> "ActOutcome | None":
        """``success``/``failure`` (DC), ``damage``/``no-damage`` (Evasion), ``refused``, or None."""
        from d4cli.fight.closed_sets import ActOutcome

        result = self.result
        if not self.allowed:
            return ActOutcome.REFUSED
        if result.success is not None:
            return ActOutcome.SUCCESS if result.success else ActOutcome.FAILURE
        if result.damage is not None:
            return ActOutcome.DAMAGE if result.damage > 0 else ActOutcome.NO_DAMAGE
        return None


class TeamRecord(NamedTuple):
    """A Team Action (R11): the actor pays through the gate, the target gets a named grant.

    Attributes:
        gate: the actor's gate (R2, R10).
        grant: ``advantage`` or ``disadvantage``.
        source: the grant's source name (default ``team action``).
        actor_down: the actor is down (R18): refused, nothing changed.
    """

    round: int
    turn: str | None
    actor: str
    aspect: str
    target: str
    gate: "Gate"
    grant: "GrantKind"
    source: str
    load_before: int
    load_after: int
    off_turn: bool
    actor_down: bool = False

    @property
    def kind(self) -> str:
        return kinds.TEAM

    @property
    def allowed(self) -> bool:
        return self.gate.allowed and not self.actor_down


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
    extra: "tuple[ExtraDice, ...]" = ()
    dc: int | None = None
    target: str | None = None
    evasion: int | None = None
    gm: bool = False
    ignore_load: bool = False
    action: str | None = (
        None  # the named action used (C8 sheets, `d4cli.fight.sheets.apply_named_action`)
    )


# Pool plans by the values that make them (`act`): a plan is a frozen value, pure in its key.
# The key holds the extra dice by identity; the plan holds them, so the identity stays theirs.
_PLANS: dict[tuple[object, ...], object] = {}  # PoolPlan values
_MAX_PLANS = 4096
# Gates by ``(aspect, load, cost)`` and Team Action grants by ``(source, grant)`` (`team`), as plans.
_GATES: dict[tuple[object, ...], object] = {}
_KINDS: "dict[str, GrantKind]" = {}  # `GrantKind` members by value: a dict look-up, not an enum call


def act(
    encounter: Encounter, request: ActRequest, rng: "DiceSource"
) -> tuple[Encounter, ActRecord]:
    """A creature acts: gate, pool, roll, Load, damage (R2-R11, R16).

    The actor's pending Team Action grants join the sources (R11, counted once
    by name, R4) and are used up. Acting while another creature's turn runs (or
    between turns) is off-turn (R10): same gate, same Cost. A refused action
    (R2) rolls nothing and returns the encounter unchanged; so does an action
    of a down creature (R18, ``actor_down``). Attacking a down creature is
    allowed (``target_down`` says it was down already; hp stays 0).

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
    import d4cli.rules.pool as pool  # a plain module import costs less per call than a from-import

    if (request.dc is not None or request.evasion is not None) and (
        (request.dc is not None) + (request.target is not None) + (request.evasion is not None) > 1
    ):
        choices = (
            ("--dc", request.dc),
            ("--target", request.target),
            ("--evasion", request.evasion),
        )
        given = [option for option, value in choices if value is not None]
        raise InputError("/".join(given), None, "give at most one of --dc, --target and --evasion")
    position = encounter.position_of(request.actor)
    actor = encounter.creatures[position]
    aspect_name, aspect_value = actor.aspect(request.aspect)
    target_position = None
    target = None
    if request.target is not None:
        target_position = encounter.position_of(request.target, "--target")
        target = encounter.creatures[target_position]
    evasion = target.evasion if target is not None else request.evasion
    sources = [(s, "advantage", "command") for s in request.advantage] if request.advantage else []
    if request.disadvantage:
        sources += [(s, "disadvantage", "command") for s in request.disadvantage]
    # Effects sit on the actor (own) and the target (against), R20: none there, none to name or count.
    with_effects = bool(actor.effects or (target is not None and target.effects))
    if with_effects:
        sources += lasting.roll_sources(
            actor, target
        )  # R20: `sources_for` of the creatures found above
    advantage = (
        tuple([source for source, grant, _ in sources if grant == "advantage"]) if sources else ()
    )
    disadvantage = (
        tuple([source for source, grant, _ in sources if grant == "disadvantage"])
        if sources
        else ()
    )
    # The plan is pure in these values: made once, then looked up (`_PLANS`).
    key = (
        aspect_value,
        actor.load,
        request.cost,
        advantage,
        disadvantage,
        id(request.extra),
        request.dc,
        evasion,
        request.gm,
        request.ignore_load,
    )
    plan = _PLANS.get(key)
    if not isinstance(plan, pool.PoolPlan) or plan.request.extra is not request.extra:
        plan = pool.plan_pool(
            pool.PoolRequest(
                aspect=aspect_value,
                load=actor.load,
                cost=request.cost,
                advantage=advantage,
                disadvantage=disadvantage,
                extra=request.extra,
                dc=request.dc,
                evasion=evasion,
                gm=request.gm,
                ignore_load=request.ignore_load,
            )
        )
        if len(_PLANS) >= _MAX_PLANS:
            _PLANS.clear()
        _PLANS[key] = plan
    down = actor.down
    load_after = plan.load_after
    result = pool.PoolResult(plan) if down else pool.roll_pool(plan, rng)
    allowed = result.allowed and not down
    hp_before = None if target is None else target.hp
    target_name = None if target is None else target.name
    new, hp_after = encounter, hp_before
    ended: tuple[Ended, ...] = ()
    if (
        allowed and target_position == position
    ):  # a creature targeting itself: one change after the other
        base = encounter
        if with_effects:
            base, ended = lasting.use_effects(
                encounter, actor.name, target_name
            )  # R11, R20 (effects only)
        creatures = list(base.creatures)
        creatures[position] = creatures[position]._replace(load=load_after)
        if hp_before is not None:
            hp_after = max(0, hp_before - (result.damage or 0))
            creatures[position] = creatures[position]._replace(hp=hp_after)
        new = base._replace(creatures=tuple(creatures))
    elif allowed:  # a refused action changes nothing (R2, R18); each creature changes once
        creatures = list(encounter.creatures)
        changes: dict[str, Any] = {"load": load_after}
        target_changes: dict[str, Any] = {}
        if (
            with_effects
        ):  # R11, R20: as `use_effects`, the actor's own effects, then the target's against
            gone: list[Ended] = []
            effects = lasting.roll_used(actor, "own", gone)
            if effects is not None:
                changes["effects"] = effects
            if target is not None:
                effects = lasting.roll_used(target, "against", gone)
                if effects is not None:
                    target_changes["effects"] = effects
            ended = tuple(gone)
        creatures[position] = actor._replace(**changes)
        if target_position is not None:
            if hp_before is not None:
                hp_after = max(0, hp_before - (result.damage or 0))
                if hp_after != hp_before:  # no damage: the creature stays as it is
                    target_changes["hp"] = hp_after
            if target_changes:
                creatures[target_position] = creatures[target_position]._replace(**target_changes)
        new = encounter._replace(creatures=tuple(creatures))
    record = ActRecord(
        round=encounter.round,
        turn=encounter.current,
        actor=actor.name,
        aspect=aspect_name,
        result=result,
        target=target_name,
        load_before=actor.load,
        load_after=load_after if allowed else actor.load,
        off_turn=encounter.current != actor.name and not same_name(encounter.current, actor.name),
        grants_used=team_grants(ended),
        hp_before=hp_before,
        hp_after=hp_after,
        sources=tuple(sources),
        effects_ended=ended,
        actor_down=down,
        target_down=target is not None and target.down,
        action=request.action,
        fight_over=_ended_fight(encounter, new) if hp_after == 0 and hp_before else None,
    )
    return new, record


def _ended_fight(before: Encounter, after: Encounter) -> str | None:
    from d4cli.fight.sides import ended_fight

    return ended_fight(before, after)


class TeamRequest(NamedTuple):
    """What ``d4cli team`` asks for (R11).

    Attributes:
        actor / target: names as typed (N1); they must differ.
        grant: ``advantage`` or ``disadvantage``.
        aspect: the Aspect that pays; None when the actor has exactly one.
        cost: the Cost, default 1.
        source: the grant's source name (R4).
    """

    actor: str
    target: str
    grant: "GrantKind"
    aspect: str | None = None
    cost: int = 1
    source: str = TEAM_SOURCE


def _check_grant_adds(target: "Creature", source: str, grant: str) -> None:
    """Refuse a grant named as one of *target*'s lasting effects of the same kind (R4, R11, R20).

    On its own rolls it would count once; an ``against`` effect of that name holds
    the name on the creature (one effect per source name), so the grant could not be kept.
    """
    from d4cli.rules.names import fold_name

    key = fold_name(source)
    for effect in target.effects:
        if effect.origin == "effect" and effect.grant == grant and effect.key == key:
            if effect.on == "own":
                why = "a grant of the same name would count once (R4) and add nothing"
            else:
                why = "a creature holds one effect per source name (R20), so the grant could not be kept"
            problem = (
                f"{target.name} already has the lasting effect {effect.source!r} ({grant}"
                f"{'' if effect.on == 'own' else ', against'}); {why}: name the grant otherwise with --source"
            )
            raise InputError("--source", source, problem)


def team(encounter: Encounter, request: TeamRequest) -> tuple[Encounter, TeamRecord]:
    """A Team Action (R11): the actor pays through its gate; the target's next roll gets a grant.

    The grant is a named source on the target, used up by its next ``act``;
    two grants of the same name count once (R4). A refused Team Action (R2)
    changes nothing; nor does one of a down actor (R18, ``actor_down``).

    Raises:
        InputError: unknown actor, target or Aspect; the actor granting itself;
            several Aspects and no ``--aspect``; an empty source name; a source
            named (R4) as a lasting effect of the same kind the target has (R11).
    """
    import d4cli.rules.pool as pool  # a plain module import costs less per call than a from-import

    if request.grant not in GRANT_KINDS:
        raise InputError("--adv/--dis", request.grant, "a grant is advantage or disadvantage")
    position = encounter.position_of(request.actor, "ACTOR")
    actor = encounter.creatures[position]
    target_position = encounter.position_of(request.target, "TARGET")
    target = encounter.creatures[target_position]
    if target_position == position:
        raise InputError(
            "TARGET",
            request.target,
            "a Team Action helps or hinders another creature, not the actor itself (R11)",
        )
    if request.source != TEAM_SOURCE:  # the default name is a legal one
        check_new_name(request.source, "--source")
    if target.effects:
        _check_grant_adds(target, request.source, str(request.grant))
    if request.aspect is not None:
        aspect_name, aspect_value = actor.aspect(request.aspect, "--aspect")
    elif len(actor.aspects) == 1:
        aspect_name, aspect_value = actor.aspects[0]
    else:
        names = ", ".join(name for name, _ in actor.aspects) or "none"
        problem = f"{actor.name} has several Aspects ({names}): say which one pays"
        raise InputError("--aspect", None, problem)
    key = (aspect_value, actor.load, request.cost)
    gate = _GATES.get(key)  # a frozen value, pure in its key: made once
    if not isinstance(gate, pool.Gate):
        if len(_GATES) >= _MAX_PLANS:
            _GATES.clear()
        gate = _GATES[key] = pool.check_gate(aspect_value, actor.load, request.cost)
    down = actor.down
    allowed = gate.allowed and not down
    load_after = actor.load + request.cost if allowed else actor.load
    record = TeamRecord(
        round=encounter.round,
        turn=encounter.current,
        actor=actor.name,
        aspect=aspect_name,
        target=target.name,
        gate=gate,
        grant=_KINDS.get(request.grant) or _grant_kind(request.grant),
        source=request.source,
        load_before=actor.load,
        load_after=load_after,
        off_turn=not same_name(encounter.current, actor.name),
        actor_down=down,
    )
    if not allowed:
        return encounter, record
    grant_key = (request.source, str(request.grant))
    grant = _GATES.get(
        grant_key
    )  # the grant: a frozen value, the same for the same source and kind
    if not isinstance(grant, Effect):
        if len(_GATES) >= _MAX_PLANS:
            _GATES.clear()
        grant = _GATES[grant_key] = Effect(
            request.source, str(request.grant), "own", "uses", uses=1, origin="team"
        )  # R11 as R20
    effects, _ = put_effect(target.effects, grant, keep=True)
    creatures = list(encounter.creatures)
    creatures[position] = actor._replace(load=load_after)
    creatures[target_position] = target._replace(effects=effects)
    return encounter._replace(creatures=tuple(creatures)), record


def _grant_kind(grant: str) -> "GrantKind":
    """The `GrantKind` of *grant*, kept in ``_KINDS``."""
    import d4cli.fight.closed_sets as records

    return _KINDS.setdefault(grant, records.GrantKind(grant))
