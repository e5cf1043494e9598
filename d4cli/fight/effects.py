"""Lasting effects (R20): named Advantage and Disadvantage sources that end on the right turn.

Pure functions on plain data. An `Effect` sits on one creature and applies to
its own rolls (``own``) or to the rolls that target it (``against``). Its
duration (``ends``) is one of:

- ``start``: at the start of ``creature``'s next turn;
- ``end``: at the end of ``creature``'s turn (the running one, else its next);
- ``rounds``: when round ``last_round`` ends (``applied + N - 1``);
- ``uses``: after ``uses`` more rolls it applied to;
- ``removed``: until removed.

A transition asks `ended_at` which effects a boundary ends (`TurnStart`,
`TurnEnd`, `RoundEnd`) and `use_effects` which a roll used up; the encounter
helpers (`end_effects`, `turn_start_ends`, `turn_end_ends`, `retime_removed`)
wrap them so that `d4cli.fight.turns` and `d4cli.fight.actions` call one line each.
A Team Action grant (R11) is an effect with ``uses = 1`` on the receiver's own
rolls and origin ``team``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from d4cli.fight.frozen import replace
from d4cli.rules.errors import InputError
from d4cli.rules.names import fold_name

if TYPE_CHECKING:
    from d4cli.fight.encounter import Creature, Encounter, Pending
    from d4cli.fight.events import EffectEvent

GRANTS: tuple[str, ...] = ("advantage", "disadvantage")
ONS: tuple[str, ...] = ("own", "against")
ENDS: tuple[str, ...] = ("start", "end", "rounds", "uses", "removed")
ORIGINS: tuple[str, ...] = ("effect", "team")


@dataclass(frozen=True)
class Effect:
    """One lasting effect (R20).

    Attributes:
        source: the source name, shown as written; compared folded (R4, N1).
        grant: ``advantage`` or ``disadvantage``.
        on: ``own`` (the creature's rolls) or ``against`` (rolls that target it).
        ends: ``start``, ``end``, ``rounds``, ``uses`` or ``removed`` (see the module).
        creature: whose turn ends it (``start``/``end``), else None.
        last_round: the round at whose end it ends (``rounds``), else None.
        uses: rolls left (``uses``), else None.
        origin: ``effect`` (``d4cli effect add``) or ``team`` (a Team Action grant, R11).
        level: how much an Advantage effect raises a check's Advantage Level (C8,
            1..5, default 1); a pool roll counts it once whatever its level (R4).
        from_round: for ``start``/``end`` added after a round was over, the round it
            counts from: a round that ends before it never ends it (R20); else None.
    """

    source: str
    grant: str = "advantage"
    on: str = "own"
    ends: str = "removed"
    creature: str | None = None
    last_round: int | None = None
    uses: int | None = None
    origin: str = "effect"
    level: int = 1
    from_round: int | None = None

    @property
    def key(self) -> str:
        return fold_name(self.source)


class TurnStart(NamedTuple):
    """The start of *name*'s turn in *round*."""

    name: str
    round: int


class TurnEnd(NamedTuple):
    """The end of *name*'s turn in *round*."""

    name: str
    round: int


class RoundEnd(NamedTuple):
    """The end of round *round*; *skipped*: the creatures down at its end that had no turn in it (R18)."""

    round: int
    skipped: tuple[str, ...] = ()


class Used(NamedTuple):
    """A roll that the *role* effects (``own`` or ``against``) applied to: it counts down their uses."""

    role: str = "own"


# Plain named tuples (cheap to define: reading a file loads this module); told apart by type.
Boundary = TurnStart | TurnEnd | RoundEnd


class Ended(NamedTuple):
    """An effect that ended, on which creature, and why (``reason``: plain words)."""

    creature: str
    effect: Effect
    reason: str


def _same(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and (a == b or fold_name(a) == fold_name(b))


def reason(boundary: Boundary, effect: Effect | None = None) -> str:
    """The words for *boundary*: ``start of Goblin Archer's turn``, ``end of round 2``;
    ``end of round 2, Bram is down and his turn was skipped (R18)`` for *effect* timed to a skipped turn."""
    if isinstance(boundary, TurnStart):
        return f"start of {boundary.name}'s turn"
    if isinstance(boundary, TurnEnd):
        return f"end of {boundary.name}'s turn"
    if effect is not None and effect.ends in ("start", "end"):
        return f"end of round {boundary.round}, {effect.creature} is down and its turn was skipped (R18)"
    return f"end of round {boundary.round}"


def ends_at(effect: Effect, boundary: Boundary) -> bool:
    """Whether *boundary* ends *effect* (R20)."""
    if isinstance(boundary, TurnStart):
        return effect.ends == "start" and _same(effect.creature, boundary.name)
    if isinstance(boundary, TurnEnd):
        return effect.ends == "end" and _same(effect.creature, boundary.name)
    if effect.ends in ("start", "end"):  # its creature's turn was skipped (R18) in a round it was in force
        return (effect.from_round or 0) <= boundary.round and any(_same(effect.creature, n) for n in boundary.skipped)
    return effect.ends == "rounds" and effect.last_round is not None and effect.last_round <= boundary.round


def ended_at(effects: tuple[Effect, ...], boundary: Boundary | Used) -> tuple[tuple[Effect, ...], tuple[Effect, ...]]:
    """Split *effects* into ``(kept, ended)`` at *boundary*, each in its order (R20).

    At `Used` the kept effects of that role have one use fewer (`used`).
    """
    if isinstance(boundary, Used):
        return used(effects, boundary.role)
    kept = tuple(effect for effect in effects if not ends_at(effect, boundary))
    ended = tuple(effect for effect in effects if ends_at(effect, boundary))
    return kept, ended


def applies(effect: Effect, role: str) -> bool:
    """Whether *effect* applies to a roll where its creature is the ``own`` roller or the ``against`` target."""
    return effect.on == role


def used(effects: tuple[Effect, ...], role: str) -> tuple[tuple[Effect, ...], tuple[Effect, ...]]:
    """One roll applied the *role* effects: count down their uses; ``(kept, used up)`` (R11, R20)."""
    kept: list[Effect] = []
    gone: list[Effect] = []
    for effect in effects:
        if applies(effect, role) and effect.ends == "uses" and effect.uses is not None:
            if effect.uses <= 1:
                gone.append(effect)
                continue
            effect = replace(effect, uses=effect.uses - 1)
        kept.append(effect)
    return tuple(kept), tuple(gone)


def applied_round(encounter: Encounter) -> int:
    """The round an effect applied now counts from: round 1 before the first round, the
    next round when the round is over (`Encounter.round_over`), else the running round (R20)."""
    if encounter.round_over:
        return encounter.round + 1
    return max(encounter.round, 1)


# --- the encounter -----------------------------------------------------------------------------


def sources_for(encounter: Encounter, actor: str, target: str | None = None) -> list[tuple[str, str, str]]:
    """The effect sources of a roll by *actor* (against *target*): ``(source, grant, origin)``.

    The actor's ``own`` effects, then the target's ``against`` effects (R20,
    C8); origin is ``effect`` or ``team`` (R11). Names are as written; R4
    folds repeats when the roll counts them.

    Raises:
        InputError: an unknown actor or target.
    """
    return roll_sources(encounter.find(actor), None if target is None else encounter.find(target, "--target"))


def roll_sources(actor: Creature, target: Creature | None) -> list[tuple[str, str, str]]:
    """`sources_for` of the creatures themselves: *actor*'s ``own`` effects, then *target*'s ``against`` ones."""
    found = [(e.source, e.grant, e.origin) for e in actor.effects if e.on == "own"] if actor.effects else []
    if target is not None and target.effects:
        found += [(e.source, e.grant, e.origin) for e in target.effects if e.on == "against"]
    return found


def end_effects(encounter: Encounter, boundaries: list[Boundary]) -> tuple[Encounter, tuple[Ended, ...]]:
    """End every effect of every creature that *boundaries* end, in order (R20)."""
    if not any(creature.effects for creature in encounter.creatures):
        return encounter, ()
    ended: list[Ended] = []
    creatures = []
    for creature in encounter.creatures:
        effects = creature.effects
        for boundary in boundaries:
            effects, gone = ended_at(effects, boundary)
            ended += [Ended(creature.name, effect, reason(boundary, effect)) for effect in gone]
        creatures.append(creature if effects == creature.effects else replace(creature, effects=effects))
    return replace(encounter, creatures=tuple(creatures)), tuple(ended)


def skipped_down(encounter: Encounter) -> tuple[str, ...]:
    """The creatures down (R18) that have had no turn this round: their turn was skipped (R20)."""
    return tuple(c.name for c in encounter.creatures if c.down and not c.had_turn)


def turn_start_ends(before: Encounter, after: Encounter) -> tuple[Encounter, tuple[Ended, ...]]:
    """Effects a turn start ends: the end of the turn that ran (R14), the end of the round
    when a new one begins, the start of the new turn (R20)."""
    if not any(creature.effects for creature in after.creatures):
        return after, ()  # nothing to end (as `end_effects` finds)
    boundaries: list[Boundary] = []
    if before.current is not None:
        boundaries.append(TurnEnd(before.current, before.round))
    if after.round > before.round and before.round > 0:
        boundaries.append(RoundEnd(before.round, skipped_down(before)))
    if after.current is not None:
        boundaries.append(TurnStart(after.current, after.round))
    return end_effects(after, boundaries)


def turn_end_ends(before: Encounter, after: Encounter) -> tuple[Encounter, tuple[Ended, ...]]:
    """Effects a turn end ends: the end of that turn, and of the round when it is over (R20)."""
    if not any(creature.effects for creature in after.creatures):
        return after, ()  # nothing to end (as `end_effects` finds)
    boundaries: list[Boundary] = []
    if before.current is not None:
        boundaries.append(TurnEnd(before.current, before.round))
    if after.current is None and after.next_turn is None and after.round > 0:
        boundaries.append(RoundEnd(after.round, skipped_down(after)))
    return end_effects(after, boundaries)


def retime_removed(encounter: Encounter, gone: str, its_effects: tuple[Effect, ...]) -> tuple[Encounter, tuple[Ended, ...]]:
    """After *gone* left (R17): its own effects went with it; effects timed to its turn
    now end at the end of this round (round 1 before the first round), R20."""
    last = max(encounter.round, 1)
    creatures = []
    for creature in encounter.creatures:
        effects = tuple(
            replace(e, ends="rounds", creature=None, last_round=max(last, e.from_round or 1), from_round=None) if e.ends in ("start", "end") and _same(e.creature, gone) else e
            for e in creature.effects
        )
        creatures.append(creature if effects == creature.effects else replace(creature, effects=effects))
    return replace(encounter, creatures=tuple(creatures)), tuple(Ended(gone, e, f"{gone} removed") for e in its_effects)


def use_effects(encounter: Encounter, actor: str, target: str | None) -> tuple[Encounter, tuple[Ended, ...]]:
    """A roll by *actor* (against *target*) was made: count down the uses of the effects that applied (R20)."""
    ended: list[Ended] = []
    creatures = list(encounter.creatures)  # changed in place, one new encounter at the end
    changed = False
    for name, role in ((actor, "own"), (target, "against")):
        position = None if name is None else encounter.index(name)
        effects = None if position is None else roll_used(creatures[position], role, ended)
        if position is not None and effects is not None:
            creatures[position] = replace(creatures[position], effects=effects)
            changed = True
    return (replace(encounter, creatures=tuple(creatures)) if changed else encounter), tuple(ended)


def roll_used(creature: Creature, role: str, ended: list[Ended]) -> tuple[Effect, ...] | None:
    """A roll applied *creature*'s *role* effects (`use_effects`): its effects now, None when
    they stay as they are; the effects used up are added to *ended* (R11, R20)."""
    if not creature.effects:
        return None
    effects, gone = used(creature.effects, role)  # `ended_at` of ``Used(role)``
    ended += [Ended(creature.name, effect, "used up") for effect in gone]
    return effects if gone or effects != creature.effects else None


_NO_GRANTS: list[Pending] = []  # `team_grants` of no effect


def team_grants(ended: tuple[Ended, ...]) -> Pending:
    """The Team Action grants (R11) among the effects a roll used up (``grants_used`` of a roll)."""
    if not ended and _NO_GRANTS:  # no grant used: the one empty value, made once
        return _NO_GRANTS[0]
    import d4cli.fight.encounter as model  # a plain module import costs less per call than a from-import

    if not ended:
        _NO_GRANTS.append(model.Pending())
        return _NO_GRANTS[0]
    advantage: list[str] = []
    disadvantage: list[str] = []
    for gone in ended:
        effect = gone.effect
        if effect.origin == "team":
            (advantage if effect.grant == "advantage" else disadvantage).append(effect.source)
    return model.Pending(tuple(advantage), tuple(disadvantage))


def put_effect(effects: tuple[Effect, ...], effect: Effect, *, keep: bool = False) -> tuple[tuple[Effect, ...], Effect | None]:
    """*effects* with *effect*: one of the same folded source is replaced in place;
    with *keep* (a Team Action grant, R11) one of the same source and grant is kept
    instead, as two grants of one name count once (R4); ``(effects, the one it met)``."""
    for index, old in enumerate(effects):
        if keep:
            if old.key == effect.key and old.grant == effect.grant:
                return effects, old
        elif old.key == effect.key:
            return effects[:index] + (effect,) + effects[index + 1 :], old
    return effects + (effect,), None


def team_grant_effects(effects: tuple[Effect, ...], pending: object) -> tuple[Effect, ...]:
    """*effects* with the Team Action grants of a `d4cli.fight.encounter.Pending` as one-roll effects (R11, R20)."""
    for grant in GRANTS:
        for source in getattr(pending, grant):
            effects, _ = put_effect(effects, Effect(source, grant, "own", "uses", uses=1, origin="team"), keep=True)
    return effects


def make_effect(
    encounter: Encounter,
    source: str,
    grant: str,
    *,
    against: bool = False,
    start_of: str | None = None,
    end_of: str | None = None,
    rounds: int | None = None,
    uses: int | None = None,
    level: int = 1,
) -> Effect:
    """An `Effect` from ``effect add``'s options; creature names as written in the file.

    *level* (``--level``, 1..5, checked by the caller) is its Advantage level on checks (C8).

    Raises:
        InputError: two durations, a duration of 0 or less, an unknown creature,
            a blank source or one with control characters (N1).
    """
    from d4cli.fight.encounter import check_new_name

    check_new_name(source, "SOURCE")
    given = [flag for flag, value in (("--until-start-of", start_of), ("--until-end-of", end_of), ("--rounds", rounds), ("--uses", uses)) if value is not None]
    if len(given) > 1:
        raise InputError("/".join(given), None, "give at most one duration")
    on = "against" if against else "own"
    first = applied_round(encounter)
    since = first if encounter.round and first > encounter.round else None  # added after the round was over (R20)
    if start_of is not None:
        return Effect(source, grant, on, "start", creature=encounter.find(start_of, "--until-start-of").name, level=level, from_round=since)
    if end_of is not None:
        return Effect(source, grant, on, "end", creature=encounter.find(end_of, "--until-end-of").name, level=level, from_round=since)
    if rounds is not None:
        if rounds < 1:
            raise InputError("--rounds", rounds, "must be 1 or more")
        return Effect(source, grant, on, "rounds", last_round=first + rounds - 1, level=level)
    if uses is not None:
        if uses < 1:
            raise InputError("--uses", uses, "must be 1 or more")
        return Effect(source, grant, on, "uses", uses=uses, level=level)
    return Effect(source, grant, on, level=level)


# --- transitions -------------------------------------------------------------------------------


def add_effect(encounter: Encounter, name: str, effect: Effect) -> tuple[Encounter, EffectEvent]:
    """Put *effect* on the creature *name* (R20); one of the same folded source (R4) is replaced.

    Raises:
        InputError: no such creature.
    """
    from d4cli.fight.events import EffectEvent

    position = encounter.index(name)
    creature = encounter.creatures[position]
    effects, replaced = put_effect(creature.effects, effect)
    new = encounter.with_creature(position, replace(creature, effects=effects))
    return new, EffectEvent(
        new.round, new.current, creature.name, action="add", effect=effect, replaced=replaced,
        counts_from=applied_round(new),
    )


def remove_effect(encounter: Encounter, name: str, source: str) -> tuple[Encounter, EffectEvent]:
    """Take the effect *source* (R4 folding) off the creature *name* (R20).

    Raises:
        InputError: no such creature, or it has no effect of that source.
    """
    from d4cli.fight.events import EffectEvent

    position = encounter.index(name)
    creature = encounter.creatures[position]
    key = fold_name(source)
    for effect in creature.effects:
        if effect.key == key:
            effects = tuple(other for other in creature.effects if other is not effect)
            new = encounter.with_creature(position, replace(creature, effects=effects))
            return new, EffectEvent(new.round, new.current, creature.name, action="remove", effect=effect)
    have = ", ".join(effect.source for effect in creature.effects) or "none"
    raise InputError("SOURCE", source, f"{creature.name} has no such effect (it has: {have})")
