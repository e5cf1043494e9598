"""A hidden creature's turn on the players' screens: they keep the last visible state.

While a hidden creature acts, anything its turn changes (the current creature, a new
round, Loads reset in ``round`` mode, effects that end at its turn's start or end, what
it does to others) would tell the players a hidden creature acts; so would a change
between its turn's end and the next turn's start (the round it closed, the round it
opened). So from the start of a hidden creature's turn until a visible creature's turn
starts, the players' screens show the encounter as it stood before that hidden turn
began, hidden as it and the file as it stands hide
(`d4cli.fight.later_hiding.with_later_hiding`): a creature hidden since then is left
out, an alias set since then is used. The library finds that state in the journal
(`d4cli.api.Reader.view`); this module says when a hidden turn runs.
"""

from __future__ import annotations

from d4cli.fight.encounter_state import Encounter
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
