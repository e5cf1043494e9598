"""A past state as the players may see it now: hidden by what the GM hid then or since.

A replay for the players (``board --players --at SEQ``) shows the encounter as it stood after
an old journal entry. What the GM concealed or aliased after that entry is still a secret
now, so the past state is first given every later state's hiding (`with_later_hiding`), and
only then projected (`d4cli.fight.public_view.public_view`). Pure: encounters in, one out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.view_settings import HP_SHOWN, PlayerView
from d4cli.rules.names import fold_name


@dataclass
class _Hiding:
    """What any state hides of one creature (found by its N1-folded name)."""

    hidden: bool = False
    alias: str = ""
    evasion_hidden: bool = False
    hp_shown: str = HP_SHOWN[0]
    private_effects: set[str] = field(default_factory=set)

    def take(self, creature: Creature, settings: PlayerView) -> None:
        self.hidden = self.hidden or creature.hidden
        self.alias = creature.alias or self.alias  # the newest alias it has had
        self.evasion_hidden = self.evasion_hidden or not creature.evasion_shown
        self.hp_shown = _strictest(
            self.hp_shown, settings.hp_shown(creature.side, creature.hp_shown)
        )
        self.private_effects.update(effect.key for effect in creature.effects if not effect.public)


def _strictest(a: str, b: str) -> str:
    """Of two HP displays, the one that shows less (``exact`` < ``label`` < ``none``)."""
    return max(a, b, key=HP_SHOWN.index)


def with_later_hiding(past: Encounter, later: Iterable[Encounter]) -> Encounter:
    """*past* hiding whatever it or any of the *later* states hides from the players (R20).

    A creature (matched by its N1-folded name) hidden in any of them is hidden; one that
    has an alias in any later state and none in *past* takes the newest such alias; its
    Evasion is shown only if every state shows it; its HP display is the strictest of all
    (``none`` over ``label`` over ``exact``); an effect private in any of them (by its
    source, R4 folding, on that creature) is private. What *past* shows that no later
    state knows (a creature removed since) is left as *past* has it.

    Args:
        past: the encounter as it stood after an old journal entry.
        later: the states after it, oldest first, the file as it is now among them.

    Returns:
        A copy of *past* with those marks; its numbers and turn order unchanged.
    """
    hiding: dict[str, _Hiding] = {}
    for state in (past, *later):
        settings = state.player_view or PlayerView()
        for creature in state.creatures:
            hiding.setdefault(fold_name(creature.name), _Hiding()).take(creature, settings)
    settings = past.player_view or PlayerView()
    creatures = tuple(
        _hidden_as(creature, hiding[fold_name(creature.name)], settings)
        for creature in past.creatures
    )
    return past._replace(creatures=creatures)


def _hidden_as(creature: Creature, hiding: _Hiding, settings: PlayerView) -> Creature:
    effects = tuple(
        effect._replace(public=False) if effect.key in hiding.private_effects else effect
        for effect in creature.effects
    )
    return creature._replace(
        hidden=hiding.hidden,
        alias=creature.alias or hiding.alias,
        evasion_shown=not hiding.evasion_hidden,
        hp_shown=_strictest(hiding.hp_shown, settings.hp_shown(creature.side, creature.hp_shown)),
        effects=effects,
    )
