"""The changes a `d4cli.api.Tracker` makes to one creature or to several at once: hit points
(R16, R18), lasting effects (R20) and what the players see (R20).

Each method takes one name, as it always has, or a sequence of names and shell-style
patterns (``["Goblin 2", "Goblin 3"]``, ``["Goblin*"]``; N1 folding, `d4cli.fight.several`).
One name as written is the one-creature change and its record (a `DamageEvent`, ...);
anything else is one change of every creature it means, recorded as a `SeveralEvent`:
one journal entry, one ``undo``, all or nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from d4cli.api.change import Change, Writer
from d4cli.fight.closed_sets import GrantKind
from d4cli.fight.effect_transitions import add_effect, make_effect
from d4cli.fight.encounter import Encounter
from d4cli.fight.events import DamageEvent, EffectEvent, HealEvent
from d4cli.fight.hitpoints import damage, heal
from d4cli.fight.several import (
    SeveralEvent,
    conceal_several,
    damage_several,
    effect_several,
    heal_several,
    reveal_several,
    single,
    with_roll,
)
from d4cli.fight.visibility import ConcealEvent, RevealEvent, conceal, reveal
from d4cli.rules.dice import DiceRoll, parse_expression, roll_expression

Names = str | Sequence[str]


One = TypeVar("One")


def _listed(names: Names) -> tuple[str, ...]:
    return (names,) if isinstance(names, str) else tuple(names)


def _one_or_several(
    name: Names,
    one: Callable[[Encounter, str], tuple[Encounter, One]],
    several: Callable[[Encounter, tuple[str, ...]], tuple[Encounter, SeveralEvent]],
) -> Callable[[Encounter], tuple[Encounter, One | SeveralEvent]]:
    """The transition of *name*: *one*'s when it is one name as written, else *several*'s."""

    def transition(encounter: Encounter) -> tuple[Encounter, One | SeveralEvent]:
        found = single(encounter, name)
        if found is not None:
            return one(encounter, found)
        return several(encounter, _listed(name))

    return transition


class CreatureChanges(Writer):
    """The changes of `Tracker` that take one creature or several (see the module)."""

    def damage(
        self, name: Names, amount: int | str, *, note: str | None = None
    ) -> Change[DamageEvent | SeveralEvent]:
        """Take *amount* hp off a creature, or off each of several; at 0 one is down (R16, R18).
        *amount* is a whole number, or dice to roll with the tracker's dice (``"2d6+1"``, R6,
        L2, L3), rolled once: every creature named takes that total. The record's ``roll``
        says what they showed, and a roll is logged even when it changes nothing; a total
        below 0 takes nothing off.

        Raises:
            InputError: no such creature, a pattern matching nobody, a creature named twice;
                a negative number; dice that are not ``NdX`` terms and numbers joined by
                ``+`` and ``-``.
        """
        value, roll = self._amount(amount)
        transition = _one_or_several(
            name,
            lambda encounter, one: with_roll(damage(encounter, one, value), roll),
            lambda encounter, names: with_roll(damage_several(encounter, names, value), roll),
        )
        # a roll is kept, whatever it took off
        return self.change(transition, note=note, always_logged=roll is not None)

    def heal(
        self, name: Names, amount: int | str, *, note: str | None = None
    ) -> Change[HealEvent | SeveralEvent]:
        """Give a creature, or each of several, *amount* hp back, up to its ``max_hp`` (R18);
        *amount* as `damage`'s (dice rolled once for all)."""
        value, roll = self._amount(amount)
        transition = _one_or_several(
            name,
            lambda encounter, one: with_roll(heal(encounter, one, value), roll),
            lambda encounter, names: with_roll(heal_several(encounter, names, value), roll),
        )
        return self.change(transition, note=note, always_logged=roll is not None)

    def _amount(self, amount: int | str) -> tuple[int, DiceRoll | None]:
        if not isinstance(amount, str):
            return amount, None
        roll = roll_expression(parse_expression(amount, "amount"), self.rng)
        return max(0, roll.total), roll

    def reveal(self, name: Names, *, note: str | None = None) -> Change[RevealEvent | SeveralEvent]:
        """Show a hidden creature, or several, on the players' view (R20)."""
        return self.change(_one_or_several(name, reveal, reveal_several), note=note)

    def conceal(
        self, name: Names, *, note: str | None = None
    ) -> Change[ConcealEvent | SeveralEvent]:
        """Hide a creature, or several, from the players' view (R20)."""
        return self.change(_one_or_several(name, conceal, conceal_several), note=note)

    def effect_add(
        self,
        name: Names,
        source: str,
        grant: GrantKind | str,
        *,
        against: bool = False,
        start_of: str | None = None,
        end_of: str | None = None,
        rounds: int | None = None,
        uses: int | None = None,
        level: int = 1,
        public: bool = True,
        side: str | None = None,
        note: str | None = None,
    ) -> Change[EffectEvent | SeveralEvent]:
        """Put a lasting effect on a creature, or the same effect on several and on every
        creature of *side* (N1); the same source and grant again replaces it, the other grant
        is bad input (R4, R20, C8). Its duration is one for all: ``end_of`` names one creature.
        """

        def transition(encounter: Encounter) -> tuple[Encounter, EffectEvent | SeveralEvent]:
            effect = make_effect(
                encounter,
                source,
                str(grant),
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
            return effect_several(encounter, _listed(name), effect, side)

        return self.change(transition, note=note)
