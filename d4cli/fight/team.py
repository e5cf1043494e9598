"""A Team Action (`team`, R11): the actor pays through its gate; the target's next roll gets
a named grant of Advantage or Disadvantage. Its request and record.

Pure, like `d4cli.fight.actions.act`: the transition returns ``(new_encounter, record)`` and
changes nothing when the gate refuses (R2) or the actor is down (R18).
"""

# No `from __future__ import annotations`: a NamedTuple reads its field types as objects,
# and string annotations cost a compile each.

from typing import NamedTuple

from d4cli.fight import effect_transitions as lasting
from d4cli.fight.closed_sets import TEAM, GrantKind
from d4cli.fight.effects import Effect, put_effect
from d4cli.fight.encounter_state import (
    GRANT_KINDS,
    TEAM_SOURCE,
    Creature,
    Encounter,
    check_new_name,
    same_name,
)
from d4cli.rules.errors import InputError
from d4cli.rules.pool import Gate, check_gate
from d4cli.rules.records import notebook


@notebook
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
    gate: Gate
    grant: GrantKind
    source: str
    load_before: int
    load_after: int
    off_turn: bool
    actor_down: bool = False

    @property
    def kind(self) -> str:
        return TEAM

    @property
    def allowed(self) -> bool:
        return self.gate.allowed and not self.actor_down


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
    grant: GrantKind
    aspect: str | None = None
    cost: int = 1
    source: str = TEAM_SOURCE


def team(encounter: Encounter, request: TeamRequest) -> tuple[Encounter, TeamRecord]:
    """A Team Action (R11): the actor pays through its gate; the target's next roll gets a grant.

    The grant is a named source on the target, used up by its next ``act``;
    two grants of one name and kind count once (R4). A refused Team Action (R2)
    changes nothing; nor does one of a down actor (R18, ``actor_down``).

    Raises:
        InputError: unknown actor, target or Aspect; the actor granting itself;
            several Aspects and no *aspect*; an empty source name; a source named (R4) as a
            lasting effect of the same kind, or as any effect of the other (R11, R20).
    """
    if request.grant not in GRANT_KINDS:
        raise InputError("grant", request.grant, "a grant is advantage or disadvantage")
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
    check_new_name(request.source, "source")
    _check_grant_adds(target, request.source, str(request.grant))
    aspect_name, aspect_value = _paying_aspect(actor, request.aspect)
    gate = check_gate(aspect_value, actor.load, request.cost)
    allowed = gate.allowed and not actor.down
    load_after = actor.load + request.cost if allowed else actor.load
    record = TeamRecord(
        round=encounter.round,
        turn=encounter.current,
        actor=actor.name,
        aspect=aspect_name,
        target=target.name,
        gate=gate,
        grant=GrantKind(request.grant),
        source=request.source,
        load_before=actor.load,
        load_after=load_after,
        off_turn=not same_name(encounter.current, actor.name),
        actor_down=actor.down,
    )
    if not allowed:
        return encounter, record
    # The grant is a one-roll effect on the target's own rolls (R11 as R20).
    grant = Effect(request.source, str(request.grant), "own", "uses", uses=1, origin="team")
    effects, _ = put_effect(target.effects, grant, keep=True)
    creatures = list(encounter.creatures)
    creatures[position] = actor._replace(load=load_after)
    creatures[target_position] = target._replace(effects=effects)
    return encounter._replace(creatures=tuple(creatures)), record


def _check_grant_adds(target: Creature, source: str, grant: str) -> None:
    """Refuse a grant named as one of *target*'s lasting effects of the same kind (R4, R11, R20),
    or as any of its effects of the other kind (`d4cli.fight.effect_transitions.check_source_free`).

    On its own rolls it would count once; an ``against`` effect of that name holds
    the name on the creature (one effect per source name), so the grant could not be kept.

    Raises:
        InputError: naming ``source`` and the source.
    """
    key = lasting.check_source_free(target, source, grant, "source")
    for effect in target.effects:
        if effect.origin == "effect" and effect.grant == grant and effect.key == key:
            if effect.on == "own":
                why = "a grant of the same name would count once (R4) and add nothing"
            else:
                why = "a creature holds one effect per source name (R20), so the grant could not be kept"
            problem = (
                f"{target.name} already has the lasting effect {effect.source!r} ({grant}"
                f"{'' if effect.on == 'own' else ', against'}); {why}: name the grant otherwise with {{source}}"
            )
            raise InputError("source", source, problem, mentions=("source",))


def _paying_aspect(actor: Creature, aspect: str | None) -> tuple[str, int]:
    """The Aspect that pays for a Team Action (R2, R11): the one named, else the actor's only one.

    Raises:
        InputError: naming ``aspect``: no such Aspect, or several and none named.
    """
    if aspect is not None:
        return actor.aspect(aspect, "aspect")
    if len(actor.aspects) == 1:
        return actor.aspects[0]
    names = ", ".join(name for name, _ in actor.aspects) or "none"
    problem = f"{actor.name} has several Aspects ({names}): say which one pays"
    raise InputError("aspect", None, problem)
