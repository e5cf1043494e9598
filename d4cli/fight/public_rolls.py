"""The players' roll feed: the newest rolls of the fight as the players may see them.

Pure: `public_rolls` reads the rolls the journal holds (`LoggedRoll`, which
`d4cli.journal.entry.logged_rolls` reads from its entries) against the encounter as it
stands and keeps only what the players may see, so the feed of ``board --players`` and ``serve``'s page is computed on
the GM's side like the rest of the projection (`d4cli.fight.public_view`):

- a roll by a hidden creature is left out, and so is one by a creature no longer
  in the encounter (whether it is hidden cannot be known); a hidden target is not
  named, nor its Evasion or the damage it took;
- names are the ones the players see now (an alias replaces the name);
- the party's own rolls show their steps (the Aspect or the stats, the dice);
  anyone else's only the total and how it ended, since the dice of a pool give
  away its size, and so the foe's Aspect (R5);
- a target's Evasion only where it is shown (``evasion_shown``, R7); the damage
  only where the target's HP is shown exactly (R16); a DC only where
  ``[player_view] dc_shown`` (R7, C2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from d4cli.fight.closed_sets import ACT, CHECK
from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.view_settings import PlayerView
from d4cli.rules.names import fold_name

# How many rolls the feed keeps, newest last.
FEED_SIZE = 6
# The journal kinds that roll dice: an act (the pool, R5-R7) and a check from a sheet (C1-C8).
ROLL_KINDS = (ACT, CHECK)


class PublicRoll(NamedTuple):
    """One roll of the feed as the players see it (None: not shown).

    Attributes:
        seq: the journal entry's number.
        kind: ``act`` (a pool, R5-R7) or ``check`` (a d20 check, C1-C8).
        round: the round it was rolled in.
        actor: the public name of the creature that rolled.
        party: the actor is of the party (its steps are shown).
        using: the Aspect or named action (act), the stats' names (check); party only.
        dice: the pool's d4s (act), or the natural d20 then the Advantage dice (check); party only.
        extra: ``(notation, dice)`` of the extra dice (R6); party only.
        total: the total.
        target: the public name of a visible target.
        evasion: that target's Evasion, where shown (R7).
        dc: the DC, where ``dc_shown`` (R7, C2).
        outcome: ``damage``, ``no-damage``, ``success``, ``failure`` or None.
        damage: the damage dealt, where the target's HP is shown exactly (R16).
        critical: ``success``/``failure`` for a critical check (C5), else None.
    """

    seq: int
    kind: str
    round: int
    actor: str
    party: bool
    using: tuple[str, ...]
    dice: tuple[int, ...] | None
    extra: tuple[tuple[str, tuple[int, ...]], ...] | None
    total: int | None
    target: str | None
    evasion: int | None
    dc: int | None
    outcome: str | None
    damage: int | None
    critical: str | None


class LoggedRoll(NamedTuple):
    """One roll as the journal holds it, all of it (the feed keeps what the players may see).

    Attributes:
        seq: the journal entry's number.
        kind: ``act`` (a pool, R5-R7) or ``check`` (a d20 check, C1-C8).
        round: the round it was rolled in.
        actor: the creature that rolled, by its name in the file.
        target: the creature attacked (act), or None.
        using: the named action or else the Aspect (act), the stats' names (check).
        dice: the pool's d4s (act), or the natural d20 then the Advantage dice (check).
        extra: ``(notation, dice)`` of the extra dice (act, R6).
        total, evasion, dc, damage: as rolled (None: none).
        outcome: how it ended (``damage``, ``no-damage``, ``success``, ``failure``, ``refused``...).
        critical: ``success``/``failure`` for a critical check (C5), else None.
    """

    seq: int
    kind: str
    round: int
    actor: str
    target: str | None
    using: tuple[str, ...]
    dice: tuple[int, ...]
    extra: tuple[tuple[str, tuple[int, ...]], ...]
    total: int | None
    evasion: int | None
    dc: int | None
    outcome: str | None
    damage: int | None
    critical: str | None


def public_rolls(
    rolls: Sequence[LoggedRoll], encounter: Encounter, size: int = FEED_SIZE
) -> tuple[PublicRoll, ...]:
    """The newest *size* of *rolls* (oldest first) that the players may see, oldest first.

    Args:
        rolls: the journal's rolls (`d4cli.journal.entry.logged_rolls`).
        encounter: the encounter as it stands: who is hidden, aliases, displays.

    Returns:
        At most *size* `PublicRoll` records; total: any rolls give a feed.
    """
    by_key = {fold_name(creature.name): creature for creature in encounter.creatures}
    settings = encounter.player_view or PlayerView()
    feed: list[PublicRoll] = []
    for roll in reversed(rolls):
        if len(feed) >= size:
            break
        actor = _creature(by_key, roll.actor)
        if actor is None or actor.hidden:
            continue
        feed.append(_roll(roll, actor, _creature(by_key, roll.target), settings))
    return tuple(reversed(feed))


def _creature(by_key: dict[str, Creature], name: str | None) -> Creature | None:
    return None if name is None else by_key.get(fold_name(name))


def _roll(
    roll: LoggedRoll, actor: Creature, target: Creature | None, settings: PlayerView
) -> PublicRoll:
    party = settings.is_party(actor.side)
    seen = target if target is not None and not target.hidden else None
    check = roll.kind == CHECK
    exact = seen is not None and settings.hp_shown(seen.side, seen.hp_shown) == "exact"
    outcome = roll.outcome
    if seen is None and target is not None:
        outcome = None  # how a roll against a hidden creature ended would hint at it
    return PublicRoll(
        seq=roll.seq,
        kind=roll.kind,
        round=roll.round,
        actor=actor.alias or actor.name,
        party=party,
        using=roll.using if party else (),
        dice=(roll.dice or None) if party else None,
        extra=None if check or not party else (roll.extra or None),
        total=roll.total,
        target=None if seen is None else seen.alias or seen.name,
        evasion=roll.evasion if seen is not None and seen.evasion_shown else None,
        dc=roll.dc if settings.dc_shown else None,
        outcome=outcome if outcome != "refused" else None,
        damage=roll.damage if exact else None,
        critical=roll.critical if check else None,
    )
