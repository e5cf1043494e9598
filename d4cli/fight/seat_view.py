"""What a seat sees that the table does not: its own creature in full, and its rolls with the
GM's secrets taken out. Pure, computed on the GM's side like `d4cli.fight.public_view`.

A seat's player knows their own sheet: its Aspects, Load, headroom (R2), HP, Evasion, named
actions and waiting Team Action grants (R11). What the GM keeps from the players stays kept:
a GM-only effect (R20) is not among the creature's effects, and where one counted in a roll
(the creature's own, or one on the target against it) its source reads `HIDDEN_SOURCE`;
a target's Evasion (R7) is used for the damage only when the players see it.
"""

# No `from __future__ import annotations`: a NamedTuple reads its field types as objects.

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from d4cli.fight.effects import Pending
from d4cli.fight.encounter_state import Action, Creature, Encounter
from d4cli.fight.public_view import PublicEffect, PublicView, public_name, public_view
from d4cli.rules.names import fold_name
from d4cli.rules.pool import PoolPlan, PoolRequest, PoolResult, plan_pool

Source = tuple[str, str, str]  # (source, grant, origin), as `d4cli.fight.actions.ActRecord`
# How a source the GM keeps hidden reads in a seat's roll; a second one gets " 2", and so on,
# so that two hidden sources still count as two (R4).
HIDDEN_SOURCE = "a hidden effect"


class SeatAspect(NamedTuple):
    """One Aspect of the seat's creature: its value and headroom ``value - Load`` (R2); the
    creature can act with it at Cost N when ``headroom >= N``."""

    name: str
    value: int
    headroom: int


class SeatCreature(NamedTuple):
    """The seat's own creature as its player sees it.

    Attributes:
        name: the name the players see (its alias, else its name).
        aspects: its Aspects in the order given, with their headroom (R2).
        load / load_buffer / exhaustion: its Action Load, Load Buffer (R1), Exhaustion (R15).
        hp / max_hp: its hit points (None where not tracked, R16).
        evasion: its Evasion (R7).
        down: at 0 hp: it cannot act (R18).
        current: its turn runs.
        effects: its public effects (R20), as the players see them.
        grants: Team Action grants waiting for its next roll (R11).
        actions: its named actions (C8).
    """

    name: str
    aspects: tuple[SeatAspect, ...]
    load: int
    load_buffer: int
    exhaustion: int
    hp: int | None
    max_hp: int | None
    evasion: int
    down: bool
    current: bool
    effects: tuple[PublicEffect, ...]
    grants: Pending
    actions: tuple[Action, ...]


class SeatRoll(NamedTuple):
    """A carried-out request's roll as its seat may see it.

    Attributes:
        result: the pool as rolled (R2-R8), its sources named as `sources` and its Evasion
            only when the players see the target's.
        sources: every source with its origin (R4, R11, R20), GM-only ones unnamed.
        entered: the dice were entered by hand.
        target: the target as the seat named it, or None.
        load_after: the creature's Load after the roll (R8).
        outcome: how it ended (``damage``, ``no-damage`` against Evasion, ``success``,
            ``failure`` against a DC, R7), as the table's feed says it; None without one, or
            when the target is hidden now (how it ended would hint at it).
    """

    result: PoolResult
    sources: tuple[Source, ...]
    entered: bool
    target: str | None
    load_after: int
    outcome: str | None = None


class SeatRequest(NamedTuple):
    """One of the seat's requests: number, time, what was asked (as kept), its status
    (``pending``, ``approved``, ``denied``, ``undone``), the GM's reason for a denial, and the
    roll once carried out (None before, or where its facts cannot be read)."""

    number: int
    time: str
    act: dict[str, Any]
    status: str
    reason: str | None
    roll: SeatRoll | None


class SeatPage(NamedTuple):
    """Everything the seat's page shows.

    Attributes:
        view: the table as the players see it (the TV page's view).
        creature: the seat's own creature (`SeatCreature`).
        requests: the seat's requests, oldest first.
        mode: ``approve`` (the GM answers each request) or ``auto`` (carried out at once).
        fight: the fight's number in the evening (``d4cli next``), from 1.
    """

    view: PublicView
    creature: SeatCreature
    requests: tuple[SeatRequest, ...]
    mode: str
    fight: int = 1


class SeatPlan(NamedTuple):
    """An action being built, before any die: its plan as the seat may see it (the gate R2,
    Net Advantage R4, the pool R5, extra dice R6), its sources (GM-only ones unnamed), the
    sides of each die the faces must give in order (the pool's d4s, then the extra dice;
    empty when it cannot act), and whether the creature is down (R18)."""

    plan: PoolPlan
    sources: tuple[Source, ...]
    faces: tuple[int, ...]
    down: bool


def seat_creature(encounter: Encounter, name: str) -> SeatCreature:
    """The creature *name* (as the encounter writes it) as its seat sees it.

    Raises:
        InputError: no such creature (field ``NAME``).
    """
    position = encounter.position_of(name)
    creature = encounter.creatures[position]
    # Its effects as the players would see them were it on the table (a hidden creature's
    # seat still sees its own): the view names other creatures as the players know them.
    shown = encounter.with_creature(position, creature._replace(hidden=False))
    index = sum(1 for other in encounter.creatures[:position] if not other.hidden)
    effects = public_view(shown).creatures[index].effects
    return SeatCreature(
        name=public_name(creature),
        aspects=tuple(
            SeatAspect(aspect, value, value - creature.load) for aspect, value in creature.aspects
        ),
        load=creature.load,
        load_buffer=creature.load_buffer,
        exhaustion=creature.exhaustion,
        hp=creature.hp,
        max_hp=creature.max_hp,
        evasion=creature.evasion,
        down=creature.down,
        current=encounter.current == creature.name,
        effects=effects,
        grants=creature.grants,
        actions=creature.actions,
    )


def public_sources(
    creatures: Iterable[Creature], ended: Iterable[tuple[str, bool]] = ()
) -> set[str]:
    """The folded source names the players may read: the public effects of *creatures* (the
    actor and its target) and of *ended* ``(source, public)`` effects the roll used up."""
    names = {fold_name(e.source) for c in creatures for e in c.effects if e.public}
    return names | {fold_name(source) for source, public in ended if public}


def shown_sources(sources: Sequence[Source], public: set[str]) -> tuple[Source, ...]:
    """*sources* with each effect's source the players may not read (its folded name not in
    *public*) as `HIDDEN_SOURCE`, numbered by name so repeats still count once (R4)."""
    hidden: dict[str, str] = {}
    shown = []
    for source, grant, origin in sources:
        key = fold_name(source)
        if origin == "effect" and key not in public:
            if key not in hidden:
                hidden[key] = HIDDEN_SOURCE + (f" {len(hidden) + 1}" if hidden else "")
            source = hidden[key]
        shown.append((source, grant, origin))
    return tuple(shown)


def seat_plan(request: PoolRequest, sources: Sequence[Source], evasion_shown: bool) -> PoolPlan:
    """The plan of *request* as the seat may see it: its sources as *sources* (from
    `shown_sources`), the target's Evasion only when the players see it (R4, R5, R7)."""
    return plan_pool(
        request._replace(
            advantage=tuple(s for s, grant, _ in sources if grant == "advantage"),
            disadvantage=tuple(s for s, grant, _ in sources if grant == "disadvantage"),
            evasion=request.evasion if evasion_shown else None,
        )
    )
