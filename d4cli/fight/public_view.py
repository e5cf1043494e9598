"""The player view: what the players may see of an encounter, computed on the GM's side.

Pure: `public_view` turns an `Encounter` into a `PublicView`, a plain record
that holds only what the players may see. Everything a player's screen shows
(``board --players``, ``serve``'s page, ``/view.json``, its event stream) is
made from this record alone, never from the encounter, so nothing the GM hides
can reach it:

- a creature with ``hidden = true`` is not in it at all, nor is its name
  anywhere else (an effect timed to its turn reads "a hidden creature's turn");
  while its turn runs the view names nobody as current and nothing says a turn
  runs (the library shows the last visible state instead: `d4cli.api.Reader.view`);
  the next turn (``next_turn``) is the next visible creature's, never a hidden one's;
- an ``alias`` replaces the creature's name everywhere (its effects' timings too);
- a creature's ``notes``, Load, Load Buffer, Exhaustion, stats and actions are
  never in it; nor its Evasion unless ``evasion_shown`` (R7);
- an effect with ``public = false`` is left out (R20);
- HP as the creature's display says (`d4cli.fight.view_settings`): ``exact``
  (hp and max_hp), ``label`` (Healthy at full, Hurt, Bloodied at or below
  half, Down at 0; without max_hp only Up or Down, never the number), ``none``;
- the party (its side is ``[player_view] party``) also sees its Aspects' headroom
  (``Aspect - Load``, R2): "can I act at Cost N?" is ``headroom >= N``;
- the roll feed is `d4cli.fight.public_rolls`' (what it shows of each roll, and why).
"""

from __future__ import annotations

from typing import NamedTuple

from d4cli.fight.effect_transitions import applied_round
from d4cli.fight.effects import Effect
from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.public_rolls import PublicRoll
from d4cli.fight.sides import FightEnd, encounter_end
from d4cli.fight.view_settings import PlayerView
from d4cli.rules.names import fold_name
from d4cli.rules.records import notebook

HEALTHY, HURT, BLOODIED, DOWN, UP = "Healthy", "Hurt", "Bloodied", "Down", "Up"
HP_LABELS: tuple[str, ...] = (HEALTHY, HURT, BLOODIED, DOWN, UP)
# How an effect timed to a hidden creature's turn names it.
HIDDEN_CREATURE = "a hidden creature"


@notebook
class PublicEffect(NamedTuple):
    """A public lasting effect (R20) as the players see it.

    Attributes:
        source: its source name.
        grant / on: ``advantage``/``disadvantage``, ``own``/``against``.
        ends: ``start``, ``end``, ``rounds``, ``uses`` or ``removed`` (`d4cli.fight.effects`).
        creature: for ``start``/``end``, the public name of the creature whose turn ends it
            (`HIDDEN_CREATURE` when it is hidden), else None.
        last_round / uses: for ``rounds`` / ``uses``, else None.
    """

    source: str
    grant: str
    on: str
    ends: str
    creature: str | None
    last_round: int | None
    uses: int | None


@notebook
class PublicCreature(NamedTuple):
    """One visible creature as the players see it.

    Attributes:
        name: its alias, else its name.
        party: it is of the party's side (its ``headroom`` is shown).
        current: its turn runs.
        had_turn: it has had its turn this round (R19).
        down: at 0 hp (R18).
        hp / max_hp: the numbers, only with the ``exact`` display (else None).
        hp_label: `HP_LABELS` (``exact`` and ``label`` displays; None with ``none`` or no hp).
        evasion: its Evasion when ``evasion_shown``, else None.
        effects: its public effects.
        headroom: ``(Aspect, Aspect - Load)`` pairs for the party (R2), else None.
    """

    name: str
    party: bool
    current: bool
    had_turn: bool
    down: bool
    hp: int | None
    max_hp: int | None
    hp_label: str | None
    evasion: int | None
    effects: tuple[PublicEffect, ...]
    headroom: tuple[tuple[str, int], ...] | None


@notebook
class PublicView(NamedTuple):
    """The whole player view.

    Attributes:
        name: the encounter's name.
        round: the round, from 1; 0 before the first turn (R13).
        turn: the visible name of the creature whose turn runs; None between turns
            or while a hidden creature acts.
        next_turn: the visible name of the creature a plain ``turn start`` would reach
            first among those the players see (R19; hidden creatures skipped; the first
            one up of the next round when this round has nobody visible left); None when
            nobody visible is up.
        creatures: the visible creatures in turn order (R13).
        counts_from: the round an effect's rounds are counted from (`d4cli.fight.effects.applied_round`).
        fight_over: the end of the fight (R21) when it is over and the players may know it:
            every creature down, or a side with a creature they see on it has won; else None
            (the fight goes on, or only hidden creatures are left standing).
        rolls: the roll feed, oldest first (`d4cli.fight.public_rolls`); empty unless given.
    """

    name: str
    round: int
    turn: str | None
    next_turn: str | None
    creatures: tuple[PublicCreature, ...]
    counts_from: int = 1
    fight_over: FightEnd[str] | None = None
    rolls: tuple[PublicRoll, ...] = ()


def hp_label(hp: int | None, max_hp: int | None) -> str | None:
    """The HP label of *hp* of *max_hp*: Healthy (full), Hurt, Bloodied (at or below half), Down (0);
    without *max_hp* only Up or Down; None without hp (R16, R18)."""
    if hp is None:
        return None
    if hp <= 0:
        return DOWN
    if max_hp is None:
        return UP
    if hp >= max_hp:
        return HEALTHY
    return BLOODIED if 2 * hp <= max_hp else HURT


def public_name(creature: Creature) -> str:
    """The name the players see: its alias, else its name."""
    return creature.alias or creature.name


def next_visible(encounter: Encounter) -> str | None:
    """The public name of the next creature to go that the players see (R19), or None.

    From the default next turn on, in turn order, the first visible creature that has not
    had its turn and is not down (R18); when this round has none, the first visible one up
    of the next round. A hidden creature is passed over like one that has had its turn,
    so the answer is the same whether hidden creatures go before it or not.
    """
    creatures = encounter.creatures
    position = encounter.next_position()
    if position is not None:
        count = len(creatures)
        for step in range(count):
            creature = creatures[(position + step) % count]
            running = creature.name == encounter.current
            if not (creature.hidden or creature.had_turn or creature.down or running):
                return public_name(creature)
    for creature in creatures:
        if not (creature.hidden or creature.down):
            return public_name(creature)
    return None


def public_view(encounter: Encounter, rolls: tuple[PublicRoll, ...] = ()) -> PublicView:
    """The player view of *encounter* (see the module for what is left out and why), with the
    roll feed *rolls* (`d4cli.fight.public_rolls.public_rolls` of the same encounter).

    Returns:
        A `PublicView`; pure and total: every valid encounter has one.
    """
    names = {
        creature.name: (HIDDEN_CREATURE if creature.hidden else public_name(creature))
        for creature in encounter.creatures
    }
    settings = encounter.player_view or PlayerView()
    visible = []
    current = None
    for creature in encounter.creatures:
        is_current = encounter.current == creature.name
        if creature.hidden:
            continue
        if is_current:
            current = names[creature.name]
        party = settings.is_party(creature.side)
        shown = settings.hp_shown(creature.side, creature.hp_shown)
        exact = shown == "exact"
        visible.append(
            PublicCreature(
                name=names[creature.name],
                party=party,
                current=is_current,
                had_turn=creature.had_turn,
                down=creature.down,
                hp=creature.hp if exact else None,
                max_hp=creature.max_hp if exact and creature.hp is not None else None,
                hp_label=None if shown == "none" else hp_label(creature.hp, creature.max_hp),
                evasion=creature.evasion if creature.evasion_shown else None,
                effects=tuple(
                    _effect(effect, names) for effect in creature.effects if effect.public
                ),
                headroom=tuple(creature.headroom().items()) if party else None,
            )
        )
    end = encounter_end(encounter)
    seen = end is not None and (
        end.winner is None
        or any(c.side == end.winner and not c.hidden for c in encounter.creatures)
    )
    return PublicView(
        encounter.name,
        encounter.round,
        current,
        next_visible(encounter),
        tuple(visible),
        applied_round(encounter),
        end if seen else None,
        rolls,
    )


def _effect(effect: Effect, names: dict[str, str]) -> PublicEffect:
    """*effect* as the players see it: a creature it is timed to by its public name (R20)."""
    shown = None
    if effect.creature is not None:
        shown = names.get(effect.creature)
        if shown is None:  # the file spells it otherwise (N1): find it folded
            key = fold_name(effect.creature)
            shown = next(
                (name for real, name in names.items() if fold_name(real) == key), HIDDEN_CREATURE
            )
    return PublicEffect(
        effect.source, effect.grant, effect.on, effect.ends, shown, effect.last_round, effect.uses
    )
