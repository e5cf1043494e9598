"""Lasting effects on the encounter (R11, R20): adding and removing them, ending them at a
turn's start or end and at a round's end, counting down their uses, naming them as a roll's sources.

Each transition takes an `Encounter` and returns the new one with a record:
`add_effect` and `remove_effect` an `EffectEvent`; `turn_start_ends`, `turn_end_ends`,
`end_removed` and `use_effects` the effects that ended (`Ended`), which
`d4cli.fight.turns`, `d4cli.fight.actions` and `d4cli.fight.sheet_check` put in
their records. The effects themselves, and which boundary or roll ends one,
are values of `d4cli.fight.effects`.
"""

from __future__ import annotations

from d4cli.fight.effects import (
    REMOVED,
    TURN_REMOVED,
    USED_UP,
    Boundary,
    Effect,
    Ended,
    RoundEnd,
    TurnEnd,
    TurnStart,
    ended_at,
    ended_by,
    put_effect,
    used,
)
from d4cli.fight.encounter_state import Creature, Encounter, check_new_name, same_name
from d4cli.fight.events import EffectEvent
from d4cli.rules.errors import InputError
from d4cli.rules.names import source_key


def applied_round(encounter: Encounter) -> int:
    """The round an effect applied now counts from: round 1 before the first round, the
    next round when the round is over (`Encounter.round_over`), else the running round (R20)."""
    if encounter.round_over:
        return encounter.round + 1
    return max(encounter.round, 1)


def sources_for(
    encounter: Encounter, actor: str, target: str | None = None
) -> list[tuple[str, str, str]]:
    """The effect sources of a roll by *actor* (against *target*): ``(source, grant, origin)``.

    The actor's ``own`` effects, then the target's ``against`` effects (R20,
    C8); origin is ``effect`` or ``team`` (R11). Names are as written; R4
    folds repeats when the roll counts them.

    Raises:
        InputError: an unknown actor or target.
    """
    return roll_sources(
        encounter.find(actor), None if target is None else encounter.find(target, "target")
    )


def roll_sources(actor: Creature, target: Creature | None) -> list[tuple[str, str, str]]:
    """`sources_for` of the creatures themselves: *actor*'s ``own`` effects, then *target*'s ``against`` ones."""
    found = (
        [(e.source, e.grant, e.origin) for e in actor.effects if e.on == "own"]
        if actor.effects
        else []
    )
    if target is not None and target.effects:
        found += [(e.source, e.grant, e.origin) for e in target.effects if e.on == "against"]
    return found


def end_effects(
    encounter: Encounter, boundaries: list[Boundary]
) -> tuple[Encounter, tuple[Ended, ...]]:
    """End every effect of every creature that *boundaries* end, in order (R20)."""
    if not any(creature.effects for creature in encounter.creatures):
        return encounter, ()
    ended: list[Ended] = []
    creatures = []
    for creature in encounter.creatures:
        effects = creature.effects
        for boundary in boundaries:
            effects, gone = ended_at(effects, boundary)
            ended += [ended_by(creature.name, effect, boundary) for effect in gone]
        creatures.append(
            creature if effects == creature.effects else creature._replace(effects=effects)
        )
    return encounter._replace(creatures=tuple(creatures)), tuple(ended)


def turn_start_ends(before: Encounter, after: Encounter) -> tuple[Encounter, tuple[Ended, ...]]:
    """Effects a turn start ends: the end of the turn that ran (R14), the end of the round
    when a new one begins, the start of the new turn (R20)."""
    if not any(creature.effects for creature in after.creatures):
        return after, ()  # nothing to end (as `end_effects` finds)
    boundaries: list[Boundary] = []
    if before.current is not None:
        boundaries.append(TurnEnd(before.current, before.round))
    if after.round > before.round and before.round > 0:
        boundaries.append(RoundEnd(before.round))
    if after.current is not None:
        boundaries.append(TurnStart(after.current, after.round))
    return end_effects(after, boundaries)


def turn_end_ends(before: Encounter, after: Encounter) -> tuple[Encounter, tuple[Ended, ...]]:
    """Effects a turn end ends: the end of that turn (R20). The last turn end of a round closes
    nothing (R19): the round's end, and the effects lasting to it, come with the turn start
    that begins the next round (`turn_start_ends`)."""
    if before.current is None or not any(creature.effects for creature in after.creatures):
        return after, ()  # nothing to end (as `end_effects` finds)
    return end_effects(after, [TurnEnd(before.current, before.round)])


def end_removed(
    encounter: Encounter, gone: str, its_effects: tuple[Effect, ...]
) -> tuple[Encounter, tuple[Ended, ...]]:
    """After *gone* left (R17): its own effects went with it, and the effects on the others
    timed to the start or end of its turn end now, since that turn will not come (R20).

    Returns:
        The encounter without those effects, and every effect that ended: *gone*'s own
        first (``removed``), then the timed ones in turn order (``turn_removed``).
    """
    ended = [Ended(gone, effect, REMOVED, gone) for effect in its_effects]
    creatures = []
    for creature in encounter.creatures:
        kept = tuple(e for e in creature.effects if not _timed_to(e, gone))
        if len(kept) < len(creature.effects):
            ended += [
                Ended(creature.name, e, TURN_REMOVED, gone)
                for e in creature.effects
                if _timed_to(e, gone)
            ]
            creature = creature._replace(effects=kept)
        creatures.append(creature)
    return encounter._replace(creatures=tuple(creatures)), tuple(ended)


def _timed_to(effect: Effect, name: str) -> bool:
    """Whether *effect* ends at the start or end of *name*'s turn (R20)."""
    return effect.ends in ("start", "end") and same_name(effect.creature, name)


def use_effects(
    encounter: Encounter, actor: str, target: str | None
) -> tuple[Encounter, tuple[Ended, ...]]:
    """A roll by *actor* (against *target*) was made: count down the uses of the effects that applied (R20)."""
    ended: list[Ended] = []
    creatures = list(encounter.creatures)  # changed in place, one new encounter at the end
    changed = False
    for name, role in ((actor, "own"), (target, "against")):
        position = None if name is None else encounter.position_of(name)
        effects = None if position is None else roll_used(creatures[position], role, ended)
        if position is not None and effects is not None:
            creatures[position] = creatures[position]._replace(effects=effects)
            changed = True
    return (encounter._replace(creatures=tuple(creatures)) if changed else encounter), tuple(ended)


def roll_used(creature: Creature, role: str, ended: list[Ended]) -> tuple[Effect, ...] | None:
    """A roll applied *creature*'s *role* effects (`use_effects`): its effects now, None when
    they stay as they are; the effects used up are added to *ended* (R11, R20)."""
    if not creature.effects:
        return None
    effects, gone = used(creature.effects, role)  # `ended_at` of ``Used(role)``
    ended += [Ended(creature.name, effect, USED_UP) for effect in gone]
    return effects if gone or effects != creature.effects else None


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
    check_new_name(source, "SOURCE")
    given = [
        field
        for field, value in (
            ("start_of", start_of),
            ("end_of", end_of),
            ("rounds", rounds),
            ("uses", uses),
        )
        if value is not None
    ]
    if len(given) > 1:
        raise InputError("/".join(given), None, "give at most one duration")
    on = "against" if against else "own"
    first = applied_round(encounter)
    since = (
        first if encounter.round and first > encounter.round else None
    )  # added after the round was over (R20)
    if start_of is not None:
        return Effect(
            source,
            grant,
            on,
            "start",
            creature=encounter.find(start_of, "start_of").name,
            level=level,
            from_round=since,
        )
    if end_of is not None:
        return Effect(
            source,
            grant,
            on,
            "end",
            creature=encounter.find(end_of, "end_of").name,
            level=level,
            from_round=since,
        )
    if rounds is not None:
        if rounds < 1:
            raise InputError("rounds", rounds, "must be 1 or more")
        return Effect(source, grant, on, "rounds", last_round=first + rounds - 1, level=level)
    if uses is not None:
        if uses < 1:
            raise InputError("uses", uses, "must be 1 or more")
        return Effect(source, grant, on, "uses", uses=uses, level=level)
    return Effect(source, grant, on, level=level)


def add_effect(encounter: Encounter, name: str, effect: Effect) -> tuple[Encounter, EffectEvent]:
    """Put *effect* on the creature *name* (R20); one of the same folded source (R4) and the
    same grant is replaced, a Team Action grant (R11) too.

    Raises:
        InputError: no such creature; naming ``SOURCE``, the creature has an effect of that
            source with the other grant (`check_source_free`).
    """
    position = encounter.position_of(name)
    creature = encounter.creatures[position]
    check_source_free(creature, effect.source, effect.grant, "SOURCE")
    effects, replaced = put_effect(creature.effects, effect)
    new = encounter.with_creature(position, creature._replace(effects=effects))
    return new, EffectEvent(
        new.round,
        new.current,
        creature.name,
        action="add",
        effect=effect,
        replaced=replaced,
        counts_from=applied_round(new),
    )


def remove_effect(encounter: Encounter, name: str, source: str) -> tuple[Encounter, EffectEvent]:
    """Take the effect *source* (R4 folding) off the creature *name* (R20).

    Raises:
        InputError: no such creature, or it has no effect of that source.
    """
    position = encounter.position_of(name)
    creature = encounter.creatures[position]
    key = source_key(source)
    for effect in creature.effects:
        if effect.key == key:
            effects = tuple(other for other in creature.effects if other is not effect)
            new = encounter.with_creature(position, creature._replace(effects=effects))
            return new, EffectEvent(
                new.round, new.current, creature.name, action="remove", effect=effect
            )
    have = ", ".join(effect.source for effect in creature.effects) or "none"
    raise InputError("SOURCE", source, f"{creature.name} has no such effect (it has: {have})")


def effect_words(effect: Effect) -> str:
    """``'prone' (advantage, against)``, ``'team action' (disadvantage, a Team Action grant)``:
    an effect a message names (R11, R20)."""
    kinds = [effect.grant]
    if effect.on == "against":
        kinds.append("against")
    if effect.origin == "team":
        kinds.append("a Team Action grant")
    return f"{effect.source!r} ({', '.join(kinds)})"


def check_source_free(creature: Creature, source: str, grant: str, field_name: str) -> str:
    """A creature's effects have distinct source names (R4, R20): refuse *source* when
    *creature* holds an effect of that folded name with the other *grant*.

    Returns:
        The folded *source* (`d4cli.fight.effects.Effect.key`).

    Raises:
        InputError: naming *field_name* and *source*, and the effect it has.
    """
    key = source_key(source)
    for effect in creature.effects:
        if effect.key == key and effect.grant != grant:
            raise InputError(
                field_name,
                source,
                f"{creature.name} already has {effect_words(effect)}; a creature holds one "
                f"effect per source name (R4, R20), and this one grants {grant}: remove that "
                "one first, or give this one another name",
            )
    return key
