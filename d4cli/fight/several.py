"""Changes of several creatures at once: ``damage``, ``heal``, ``reveal``, ``conceal`` and
``effect add`` given several names, shell-style patterns or a side (R16, R18, R20, N1).

Pure, like every transition of the fight model. `resolve` turns what the GM typed into the
creatures it means; `each` applies a one-creature transition to every one of them in turn,
inside one transition, and collects their records in one `SeveralEvent`: one journal entry,
one ``undo``. A refusal of any part (bad input) raises before anything is returned, so the
change is all or nothing.

A single name as written, with no pattern, is not "several": the one-creature transition
runs as it always has (`single`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fnmatch import fnmatchcase
from typing import NamedTuple, TypeVar

from d4cli.fight.closed_sets import CONCEAL, DAMAGE, EFFECT, HEAL, REVEAL
from d4cli.fight.effect_transitions import add_effect
from d4cli.fight.effects import Effect
from d4cli.fight.encounter_state import Encounter, known_names
from d4cli.fight.events import DamageEvent, EffectEvent, HealEvent
from d4cli.fight.hitpoints import damage, heal
from d4cli.fight.sides import FightEnd, ended_fight
from d4cli.fight.visibility import ConcealEvent, RevealEvent, conceal, reveal
from d4cli.rules.dice import DiceRoll
from d4cli.rules.errors import InputError
from d4cli.rules.names import fold_name
from d4cli.rules.records import notebook

# The characters that make a name a shell-style pattern (`fnmatch`): any text, one character, a set.
PATTERN_CHARACTERS = frozenset("*?[")

# The kinds of change that may take several creatures: a `SeveralEvent`'s ``kind``.
SEVERAL_KINDS = frozenset({DAMAGE, HEAL, REVEAL, CONCEAL, EFFECT})

Part = DamageEvent | HealEvent | RevealEvent | ConcealEvent | EffectEvent
P = TypeVar("P", DamageEvent, HealEvent, RevealEvent, ConcealEvent, EffectEvent)


@notebook
class SeveralEvent(NamedTuple):
    """One change of several creatures: the record of each creature's part, in the order
    they were applied (the names as given, a pattern's or a side's creatures in turn order).

    Attributes:
        kind: the kind of every part (``damage``, ``heal``, ``reveal``, ``conceal``, ``effect``):
            the entry's ``kind``, so ``log --kind damage`` finds it.
        round / turn: the round and whose turn it was.
        changes: each creature's record, as the one-creature change makes it; a damage
            part's ``fight_over`` and ``roll`` are None (they are the whole change's).
        roll: the dice rolled once for the amount every creature took (``2d6+1``), else None.
        fight_over: how the change ended the fight (R21): the side left alone up, or none.
    """

    @property
    def allowed(self) -> bool:
        return True

    kind: str
    round: int
    turn: str | None
    changes: tuple[Part, ...]
    roll: DiceRoll | None = None
    fight_over: FightEnd[str] | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """The creatures changed, as written in the file."""
        return tuple(part.actor for part in self.changes)


def is_pattern(text: str) -> bool:
    """Whether *text* is a shell-style pattern (``Goblin*``, ``Goblin ?``, ``Goblin [23]``)."""
    return not PATTERN_CHARACTERS.isdisjoint(text)


def single(encounter: Encounter, names: str | Sequence[str]) -> str | None:
    """The one name *names* gives when it is one name and not a pattern, else None.

    A `str` is always one creature's name, never a pattern, so a caller's type checker knows
    the record it gets (one creature's event). In a sequence, a name that is a creature's
    (N1) is that creature even when it holds ``*``, ``?`` or ``[``.
    """
    if isinstance(names, str):
        return names
    if len(names) == 1:
        one = names[0]
    else:
        return None
    if not is_pattern(one) or _exact(encounter, one) is not None:
        return one
    return None


def _exact(encounter: Encounter, text: str) -> int | None:
    """The position of the creature whose name is *text* (N1), None when nobody's is."""
    key = fold_name(text)
    for position, creature in enumerate(encounter.creatures):
        if creature.name == text or fold_name(creature.name) == key:
            return position
    return None


def resolve(
    encounter: Encounter,
    names: Sequence[str],
    *,
    side: str | None = None,
    field_name: str = "names",
) -> tuple[str, ...]:
    """The creatures *names* and *side* mean, each once, as written in the file (N1).

    Each of *names* is a creature's name (N1 folding), or else, holding ``*``, ``?`` or
    ``[...]``, a pattern matched against every name folded (N1: case does not count),
    whose creatures come in turn order. *side* adds every creature of that side (N1).

    Raises:
        InputError: nothing given; an unknown name; a pattern or a side that matches
            nobody; a creature meant twice (by two names, a name and a pattern, ...).
    """
    if not names and side is None:
        raise InputError(field_name, None, "missing: give at least one creature")
    found = [
        (field_name, text, position)
        for text in names
        for position in _positions(encounter, text, field_name)
    ]
    if side is not None:
        found += [("side", side, position) for position in side_positions(encounter, side)]
    seen: dict[int, str] = {}
    for field, text, position in found:
        if position in seen:
            raise InputError(
                field,
                text,
                f"means {encounter.creatures[position].name} again ({seen[position]!r} means "
                "it already): name each creature once",
            )
        seen[position] = text
    return tuple(encounter.creatures[position].name for position in seen)


def _positions(encounter: Encounter, text: str, field_name: str) -> list[int]:
    """The creature *text* names, or the creatures the pattern *text* matches, in turn order."""
    if not is_pattern(text) or _exact(encounter, text) is not None:
        return [encounter.position_of(text, field_name)]
    pattern = fold_name(text)
    matched = [
        position
        for position, creature in enumerate(encounter.creatures)
        if fnmatchcase(fold_name(creature.name), pattern)
    ]
    if not matched:
        raise InputError(
            field_name, text, "matches no creature in the encounter" + known_names(encounter)
        )
    return matched


def side_positions(encounter: Encounter, side: str) -> list[int]:
    """The creatures whose ``side`` is *side* (N1 folding), in turn order.

    Raises:
        InputError: no creature is on that side (naming the sides there are).
    """
    key = fold_name(side)
    matched = [
        position
        for position, creature in enumerate(encounter.creatures)
        if creature.side and fold_name(creature.side) == key
    ]
    if not matched:
        sides = sorted({c.side for c in encounter.creatures if c.side})
        have = ", ".join(sides) if sides else "no creature has a side"
        raise InputError("side", side, f"no creature is on that side (sides: {have})")
    return matched


def each(
    encounter: Encounter,
    kind: str,
    names: Sequence[str],
    step: Callable[[Encounter, str], tuple[Encounter, P]],
) -> tuple[Encounter, SeveralEvent]:
    """*step* (a one-creature transition) for each creature of *names* (resolved), in turn,
    in one transition: the last encounter and a `SeveralEvent` of *kind* with every record."""
    parts: list[Part] = []
    new = encounter
    for name in names:
        new, part = step(new, name)
        parts.append(part)
    return new, SeveralEvent(kind, new.round, new.current, tuple(parts))


def damage_several(
    encounter: Encounter, names: Sequence[str], amount: int
) -> tuple[Encounter, SeveralEvent]:
    """`damage` of *amount* to each creature (R16, R18); ``fight_over`` is the whole change's:
    the side left alone up after every part (R18), not after the one that downed the last foe.

    Raises:
        InputError: as `resolve`; a negative *amount*.
    """
    new, event = each(encounter, DAMAGE, resolve(encounter, names), _damage_step(amount))
    return new, event._replace(fight_over=ended_fight(encounter, new))


def _damage_step(amount: int) -> Callable[[Encounter, str], tuple[Encounter, DamageEvent]]:
    def step(encounter: Encounter, name: str) -> tuple[Encounter, DamageEvent]:
        new, part = damage(encounter, name, amount)
        return new, part._replace(fight_over=None)

    return step


def heal_several(
    encounter: Encounter, names: Sequence[str], amount: int
) -> tuple[Encounter, SeveralEvent]:
    """`heal` of *amount* to each creature, up to its ``max_hp`` (R18, R19).

    Raises:
        InputError: as `resolve`; as `heal` for any one of them (no hp, past L1).
    """
    return each(
        encounter,
        HEAL,
        resolve(encounter, names),
        lambda state, name: heal(state, name, amount),
    )


def reveal_several(encounter: Encounter, names: Sequence[str]) -> tuple[Encounter, SeveralEvent]:
    """`reveal` each creature (R20); one not hidden stays as it is."""
    return each(encounter, REVEAL, resolve(encounter, names), reveal)


def conceal_several(encounter: Encounter, names: Sequence[str]) -> tuple[Encounter, SeveralEvent]:
    """`conceal` each creature (R20); its turns and rolls go on, the running one too (R13)."""
    return each(encounter, CONCEAL, resolve(encounter, names), conceal)


def effect_several(
    encounter: Encounter, names: Sequence[str], effect: Effect, side: str | None = None
) -> tuple[Encounter, SeveralEvent]:
    """`add_effect` of the one *effect* to each creature of *names* and of *side* (R4, R20):
    its timing is the same for all (the end of one named creature's turn, N rounds, ...).

    Raises:
        InputError: as `resolve`; as `add_effect` for any one of them (a source it holds
            with the other grant): then nothing is added to anyone.
    """
    return each(
        encounter,
        EFFECT,
        resolve(encounter, names, side=side),
        lambda state, name: add_effect(state, name, effect),
    )


Rolled = TypeVar("Rolled", DamageEvent, HealEvent, SeveralEvent)


def with_roll(changed: tuple[Encounter, Rolled], roll: DiceRoll | None) -> tuple[Encounter, Rolled]:
    """A damage or heal transition's result, its record saying which dice gave the amount."""
    new, event = changed
    if roll is None:
        return new, event
    return new, event._replace(roll=roll)
