"""Hit points outside a roll: damage and healing (R16, R18).

Pure, like `d4cli.fight.turns`: each takes an `Encounter` and returns ``(new_encounter, event)``.
A creature at 0 hp is down (R18): the default turn order passes it by, it
cannot act or give Team Actions, and healing above 0 brings it back.
"""

from __future__ import annotations

from typing import TypeVar

from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.events import DamageEvent, HealEvent
from d4cli.fight.sides import ended_fight
from d4cli.rules.errors import InputError
from d4cli.rules.limits import HP

E = TypeVar("E", DamageEvent, HealEvent)


def damage(encounter: Encounter, name: str, amount: int) -> tuple[Encounter, DamageEvent]:
    """Take *amount* (>= 0) off a creature's hp, never below 0 (R16); at 0 it is down (R18).

    A creature without hp only has the damage reported (R16): nothing changes.

    Raises:
        InputError: no such creature; a negative *amount*.
    """
    _check_amount(amount)
    position = encounter.position_of(name)
    creature = encounter.creatures[position]
    new = encounter
    if creature.hp is not None:
        hp_after = max(0, creature.hp - amount)
        new = encounter.with_creature(position, creature._replace(hp=hp_after))
    event = _event(DamageEvent, new, creature, new.creatures[position], amount)
    if event.down_after and not event.down_before:
        event = event._replace(fight_over=ended_fight(encounter, new))
    return new, event


def heal(encounter: Encounter, name: str, amount: int) -> tuple[Encounter, HealEvent]:
    """Add *amount* (>= 0) to a creature's hp, never past its ``max_hp`` (R18).

    Healing a down creature above 0 brings it back into the turn order (R18);
    it has its turn this round unless it already had it, or the turn end that
    ended the round skipped it (then its turn comes in the next round, R19).

    Raises:
        InputError: no such creature; a negative *amount*; a creature without
            hp (R16); hp that would pass 100,000 (L1).
    """
    _check_amount(amount)
    position = encounter.position_of(name)
    creature = encounter.creatures[position]
    if creature.hp is None:
        raise InputError(
            "NAME",
            creature.name,
            "has no hp to heal (R16): give it hp with 'add {hp}' or in the file",
            mentions=("hp",),
        )
    hp_after = creature.hp + amount
    if creature.max_hp is not None:
        hp_after = min(hp_after, max(creature.max_hp, creature.hp))
    if hp_after > HP[1]:
        raise InputError("N", amount, f"would take {creature.name}'s hp past {HP[1]:,} (L1)")
    new = encounter.with_creature(position, creature._replace(hp=hp_after))
    event = _event(HealEvent, new, creature, new.creatures[position], amount)
    if (
        creature.down and hp_after > 0 and creature.had_turn
    ):  # its next turn is in the next round (R19)
        event = event._replace(next_round=True)
    return new, event


def _event(kind: type[E], new: Encounter, before: Creature, after: Creature, amount: int) -> E:
    """The `DamageEvent` or `HealEvent` of a change of *before* into *after* (R16, R18)."""
    return kind(
        new.round,
        new.current,
        before.name,
        amount=amount,
        hp_before=before.hp,
        hp_after=after.hp,
        max_hp=before.max_hp,
        down_before=before.down,
        down_after=after.down,
    )


def _check_amount(amount: int) -> None:
    if amount < 0:
        raise InputError("N", amount, "must be 0 or more")
