"""The transitions `d4cli.api.encounter.Tracker` hands the door (`d4cli.api.change.Door`) where one takes more
than a call of `d4cli.fight`: an act built from what was asked (one builder for the CLI, ``play``
and a seat alike), and the changes that take one creature or several.

A name as written is the one-creature change and its record (a `DamageEvent`, ...); a sequence
of names and shell-style patterns (``["Goblin 2", "Goblin 3"]``, ``["Goblin*"]``; N1 folding,
`d4cli.fight.several`) is one change of every creature it means, recorded as a `SeveralEvent`:
one journal entry, one ``undo``, all or nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from d4cli.api.add_sheets import AddSpec, added_creatures, sheet_of
from d4cli.fight import hitpoints, several, turns
from d4cli.fight.actions import ActRecord, ActRequest, act, act_entered
from d4cli.fight.effect_transitions import add_effect, make_effect
from d4cli.fight.encounter_state import Encounter
from d4cli.fight.events import AddEvent, DamageEvent, EffectEvent, ExhaustEvent, HealEvent
from d4cli.fight.several import SeveralEvent, effect_several, single
from d4cli.fight.sheets import apply_named_action
from d4cli.rules.dice import (
    DiceRoll,
    DiceSource,
    ExtraDice,
    parse_expression,
    parse_extra,
    roll_expression,
)
from d4cli.rules.limits import HP, check_range

Names = str | Sequence[str]
One = TypeVar("One")
Record = TypeVar("Record")
Transition = Callable[[Encounter], tuple[Encounter, Record]]


def act_transition(
    actor: str,
    aspect: str,
    *,
    rng: DiceSource,
    cost: int | None = None,
    advantage: Iterable[str] | None = None,
    disadvantage: Iterable[str] | None = None,
    extra: Iterable[ExtraDice | str] | None = None,
    dc: int | None = None,
    target: str | None = None,
    evasion: int | None = None,
    gm: bool = False,
    ignore_load: bool = False,
    faces: Sequence[int] | None = None,
) -> Transition[ActRecord]:
    """The act *actor* asks for (R2-R11, R16): *aspect* names an Aspect or a named action, whose
    Cost, extra dice, DC and sources fill what is not given (None: not given; C8); rolled with
    *rng*, or with the *faces* of real dice (the pool's d4s, then the extra dice). Extra dice
    may be given as notation (``"1d4"``, R6, L3).

    Raises:
        InputError: extra dice that are not ``NdX`` notation (field ``extra``).
    """
    if extra is not None:
        extra = [parse_extra(e, "extra") if isinstance(e, str) else e for e in extra]
    request = ActRequest(
        actor=actor,
        aspect=aspect,
        cost=1 if cost is None else cost,
        advantage=tuple(advantage or ()),
        disadvantage=tuple(disadvantage or ()),
        extra=tuple(e for e in extra or () if isinstance(e, ExtraDice)),
        dc=dc,
        target=target,
        evasion=evasion,
        gm=gm,
        ignore_load=ignore_load,
    )
    named = {"cost": cost, "extra": extra, "dc": dc, "adv": advantage, "dis": disadvantage}
    given = frozenset(key for key, value in named.items() if value is not None)

    def transition(encounter: Encounter) -> tuple[Encounter, ActRecord]:
        named_request = apply_named_action(encounter, request, given)
        if faces is not None:
            return act_entered(encounter, named_request, faces)
        return act(encounter, named_request, rng)

    return transition


def listed(names: Names) -> tuple[str, ...]:
    """*names* as a tuple (one name as written: a tuple of it)."""
    return (names,) if isinstance(names, str) else tuple(names)


def one_or_several(
    name: Names,
    one: Callable[[Encounter, str], tuple[Encounter, One]],
    several: Callable[[Encounter, tuple[str, ...]], tuple[Encounter, SeveralEvent]],
) -> Transition[One | SeveralEvent]:
    """The transition of *name*: *one*'s when it is one name as written, else *several*'s."""

    def transition(encounter: Encounter) -> tuple[Encounter, One | SeveralEvent]:
        found = single(encounter, name)
        if found is not None:
            return one(encounter, found)
        return several(encounter, listed(name))

    return transition


def effect_transition(
    name: Names,
    source: str,
    grant: str,
    *,
    against: bool,
    start_of: str | None,
    end_of: str | None,
    rounds: int | None,
    uses: int | None,
    level: int,
    public: bool,
    side: str | None,
) -> Transition[EffectEvent | SeveralEvent]:
    """A lasting effect on a creature, or the same on several and on every creature of *side*
    (N1, R4, R20, C8); its duration is one for all."""

    def transition(encounter: Encounter) -> tuple[Encounter, EffectEvent | SeveralEvent]:
        effect = make_effect(
            encounter,
            source,
            grant,
            against=against,
            start_of=start_of,
            end_of=end_of,
            rounds=rounds,
            uses=uses,
            level=level,
        )
        if not public:
            effect = effect._replace(public=False)
        one = None if side is not None else single(encounter, name)
        if one is not None:
            return add_effect(encounter, one, effect)
        return effect_several(encounter, listed(name), effect, side)

    return transition


def add_transition(spec: AddSpec, before: str | None, after: str | None) -> Transition[AddEvent]:
    """Add the creature(s) *spec* describes, before/after another or last (R1, R13, R19); a sheet
    that copies no other is checked now, before any file is read.

    Raises:
        InputError: a sheet the rules refuse.
    """
    copying = spec.like is not None or spec.sheet is not None
    checked = None if copying else sheet_of(spec, spec.name, None)

    def transition(encounter: Encounter) -> tuple[Encounter, AddEvent]:
        added, like = added_creatures(spec, encounter, checked)
        return turns.add_creatures(encounter, added, before=before, after=after, like=like)

    return transition


def exhaust_transition(name: str, level: int | Callable[[int], int]) -> Transition[ExhaustEvent]:
    """Set a creature's Exhaustion (R15); *level* may be a function of the current level."""

    def transition(encounter: Encounter) -> tuple[Encounter, ExhaustEvent]:
        value = level
        if callable(value):
            value = value(encounter.find(name).exhaustion)
        return turns.set_exhaustion(encounter, name, value)

    return transition


def rolled_amount(amount: int | str, rng: DiceSource) -> tuple[int, DiceRoll | None]:
    """An amount of hp: a whole number as it is, or dice (``"2d6+1"``, R6, L2, L3) rolled once
    with *rng*, a total below 0 taking nothing; with the roll (None for a number).

    Raises:
        InputError: a number outside 0..100,000 (L1), or dice that are not ``NdX`` terms and
            numbers joined by ``+`` and ``-``, naming ``amount``.
    """
    if not isinstance(amount, str):
        return check_range(amount, "amount", HP), None
    roll = roll_expression(parse_expression(amount, "amount"), rng)
    return max(0, roll.total), roll


def damage_transition(
    name: Names, value: int, roll: DiceRoll | None
) -> Transition[DamageEvent | SeveralEvent]:
    """Take *value* hp off a creature or each of several (R16, R18); the record keeps *roll*."""
    return one_or_several(
        name,
        lambda encounter, one: several.with_roll(hitpoints.damage(encounter, one, value), roll),
        lambda encounter, names: several.with_roll(
            several.damage_several(encounter, names, value), roll
        ),
    )


def heal_transition(
    name: Names, value: int, roll: DiceRoll | None
) -> Transition[HealEvent | SeveralEvent]:
    """Give *value* hp back to a creature or each of several, up to ``max_hp`` (R18); the
    record keeps *roll*."""
    return one_or_several(
        name,
        lambda encounter, one: several.with_roll(hitpoints.heal(encounter, one, value), roll),
        lambda encounter, names: several.with_roll(
            several.heal_several(encounter, names, value), roll
        ),
    )
