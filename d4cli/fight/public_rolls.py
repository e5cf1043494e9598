"""The players' roll feed: the newest rolls of the fight as the players may see them.

Pure: `public_rolls` reads the journal's entries (plain mappings, as ``log --json``
lists them) against the encounter as it stands and keeps only what the players
may see, so the feed of ``board --players`` and ``serve``'s page is computed on
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

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from d4cli.fight.closed_sets import ACT, CHECK
from d4cli.fight.encounter import Creature, Encounter
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


def public_rolls(
    entries: Sequence[Mapping[str, Any]], encounter: Encounter, size: int = FEED_SIZE
) -> tuple[PublicRoll, ...]:
    """The newest *size* rolls among *entries* (oldest first) that the players may see, oldest first.

    Args:
        entries: journal entries as ``log --json`` lists them; kinds other than
            `ROLL_KINDS`, dry runs and malformed entries are skipped.
        encounter: the encounter as it stands: who is hidden, aliases, displays.

    Returns:
        At most *size* `PublicRoll` records; total: any entries give a feed.
    """
    by_key = {fold_name(creature.name): creature for creature in encounter.creatures}
    settings = encounter.player_view or PlayerView()
    feed: list[PublicRoll] = []
    for entry in reversed(entries):
        if len(feed) >= size:
            break
        if entry.get("kind") not in ROLL_KINDS or entry.get("dry_run"):
            continue
        actor = _creature(by_key, entry.get("actor"))
        if actor is None or actor.hidden or not isinstance(entry.get("seq"), int):
            continue
        feed.append(_roll(entry, actor, _creature(by_key, entry.get("target")), settings))
    return tuple(reversed(feed))


def _creature(by_key: dict[str, Creature], name: object) -> Creature | None:
    return by_key.get(fold_name(name)) if isinstance(name, str) else None


def _roll(
    entry: Mapping[str, Any], actor: Creature, target: Creature | None, settings: PlayerView
) -> PublicRoll:
    party = settings.is_party(actor.side)
    seen = target if target is not None and not target.hidden else None
    check = entry["kind"] == CHECK
    exact = seen is not None and settings.hp_shown(seen.side, seen.hp_shown) == "exact"
    outcome = entry.get("outcome")
    if seen is None and target is not None:
        outcome = None  # how a roll against a hidden creature ended would hint at it
    return PublicRoll(
        seq=entry["seq"],
        kind=entry["kind"],
        round=_whole(entry.get("round")) or 0,
        actor=actor.alias or actor.name,
        party=party,
        using=_using(entry, check) if party else (),
        dice=_dice(entry, check) if party else None,
        extra=None if check or not party else _extra(entry.get("extra")),
        total=_whole(entry.get("total")),
        target=None if seen is None else seen.alias or seen.name,
        evasion=_whole(entry.get("evasion")) if seen is not None and seen.evasion_shown else None,
        dc=_whole(entry.get("dc")) if settings.dc_shown else None,
        outcome=outcome if isinstance(outcome, str) and outcome != "refused" else None,
        damage=_whole(entry.get("damage")) if exact else None,
        critical=entry.get("critical")
        if check and isinstance(entry.get("critical"), str)
        else None,
    )


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _using(entry: Mapping[str, Any], check: bool) -> tuple[str, ...]:
    keys = (
        ("attribute_name", "proficiency_name", "specialization_name")
        if check
        else ("action", "aspect_name")
    )
    names = [entry.get(key) for key in keys]
    shown = tuple(name for name in names if isinstance(name, str))
    return shown if check else shown[:1]


def _dice(entry: Mapping[str, Any], check: bool) -> tuple[int, ...] | None:
    if check:
        rolled = [entry.get("natural"), *(entry.get("advantage_dice") or ())]
    else:
        rolled = list(entry.get("dice") or ())
    dice = tuple(value for value in rolled if _whole(value) is not None)
    return dice or None


def _extra(extra: object) -> tuple[tuple[str, tuple[int, ...]], ...] | None:
    if not isinstance(extra, list):
        return None
    terms = []
    for term in extra:
        if isinstance(term, dict) and isinstance(term.get("notation"), str):
            dice = tuple(value for value in term.get("dice") or () if _whole(value) is not None)
            terms.append((term["notation"], dice))
    return tuple(terms) or None
