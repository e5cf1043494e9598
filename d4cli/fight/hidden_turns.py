"""A hidden creature's turn on the players' screens: they keep the last visible state.

While a hidden creature acts, anything its turn changes (the current creature, a new
round, Loads reset in ``round`` mode, effects that end at its turn's start or end, what
it does to others) would tell the players a hidden creature acts; so would a change
between its turn's end and the next turn's start (the round it closed, the round it
opened). So from the start of a hidden creature's turn until a visible creature's turn
starts, the players' screens show the encounter as it stood before that hidden turn
began, seen with today's view settings (`seen_now`): a creature hidden since then is
left out, an alias set since then is used. The library finds that state in the journal
(`d4cli.api.Reader.view`); this module holds the pure parts.
"""

from __future__ import annotations

from d4cli.fight.encounter import Creature, Encounter
from d4cli.rules.names import fold_name


def hidden_turn(encounter: Encounter) -> bool:
    """A hidden creature's turn runs in *encounter*, or was the last to run (between turns)."""
    newest = encounter.current if encounter.current is not None else encounter.last_turn
    if newest is None:
        return False
    key = fold_name(newest)
    return any(
        creature.hidden for creature in encounter.creatures if fold_name(creature.name) == key
    )


def seen_now(before: Encounter, now: Encounter) -> Encounter:
    """*before* with *now*'s view settings: each creature's ``hidden``, ``alias``,
    ``hp_shown`` and ``evasion_shown`` as *now* has them (hidden when *now* no longer has
    it), an effect GM-only when *now* makes it so, and *now*'s ``[player_view]``.

    Pure: what the players saw before may only lose what the GM hides since.
    """
    by_key = {fold_name(creature.name): creature for creature in now.creatures}
    creatures = tuple(
        _seen(creature, by_key.get(fold_name(creature.name))) for creature in before.creatures
    )
    return before._replace(creatures=creatures, player_view=now.player_view)


def _seen(then: Creature, now: Creature | None) -> Creature:
    if now is None:
        return then._replace(hidden=True)
    secret = {fold_name(effect.source) for effect in now.effects if not effect.public}
    effects = tuple(
        effect._replace(public=False) if fold_name(effect.source) in secret else effect
        for effect in then.effects
    )
    return then._replace(
        hidden=now.hidden,
        alias=now.alias,
        hp_shown=now.hp_shown,
        evasion_shown=now.evasion_shown,
        effects=effects,
    )
