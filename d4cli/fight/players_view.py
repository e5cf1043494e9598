"""What the players see: the table, the roll feed, a hidden creature's turn, a replay and a
seat's own page, each computed on the GM's side from the encounter (R2, R7, R16, R20).

Pure: every function here takes the encounter (and the rolls the journal holds) and returns
a plain record that holds only what the players may see. Everything a player's screen shows
(``board --players``, ``serve``'s pages, ``/view.json``, its event stream, a seat's page) is
made from these records alone, never from the encounter, so nothing the GM hides can reach it.

The table (`public_view`, a `PublicView`):

- a creature with ``hidden = true`` is not in it at all, nor is its name anywhere else (an
  effect timed to its turn reads "a hidden creature's turn"); while its turn runs the view
  names nobody as current and nothing says a turn runs (see "A hidden creature's turn");
  the next turn (``next_turn``) is the next visible creature's, never a hidden one's;
- an ``alias`` replaces the creature's name everywhere (its effects' timings too);
- a creature's ``notes``, Load, Load Buffer, Exhaustion, stats and actions are never in it;
  nor its Evasion unless ``evasion_shown`` (R7);
- an effect with ``public = false`` is left out (R20);
- HP as the creature's display says (`d4cli.fight.view_settings`): ``exact`` (hp and max_hp),
  ``label`` (Healthy at full, Hurt, Bloodied at or below half, Down at 0; without max_hp
  only Up or Down, never the number), ``none``;
- the party (its side is ``[player_view] party``) also sees its Aspects' headroom
  (``Aspect - Load``, R2): "can I act at Cost N?" is ``headroom >= N``.

The roll feed (`public_rolls`, `PublicRoll`s) reads the rolls the journal holds (`LoggedRoll`,
from `d4cli.journal.entry.logged_rolls`) against the encounter as it stands:

- a roll by a hidden creature is left out, and so is one by a creature no longer in the
  encounter (whether it is hidden cannot be known); a hidden target is not named, nor its
  Evasion, the damage it took or how the roll ended;
- names are the ones the players see now (an alias replaces the name);
- the party's own rolls show their steps (the Aspect or the stats, the dice); anyone else's
  only the total and how it ended, since the dice of a pool give away its size, and so the
  foe's Aspect (R5);
- a target's Evasion only where it is shown (R7); the damage only where the target's HP is
  shown exactly (R16); a DC only where ``[player_view] dc_shown`` (R7, C2).

A hidden creature's turn (`hidden_turn`): anything its turn changes (the current creature, a
new round, Loads reset in ``round`` mode, effects that end at its turn, what it does to
others) would tell the players a hidden creature acts, and so would a change between its
turn's end and the next turn's start. So from the start of a hidden creature's turn until a
visible creature's turn starts, the players' screens keep the encounter as it stood before
that turn began; the library finds that state in the journal (`d4cli.api.reader`).

A past state (`with_later_hiding`): a replay for the players (``board --players --at SEQ``),
or the state kept during a hidden turn, is first given every later state's hiding, since
what the GM concealed or aliased later is still a secret now; only then is it projected.

A seat's own page (`seat_creature`, `SeatPage`, `seat_plan`): a seat's player knows their own
sheet (its Aspects, Load, headroom R2, HP, Evasion, named actions and waiting Team Action
grants R11). A GM-only effect (R20) is still not among the creature's effects, and where one
counted in a roll (the creature's own, or one on the target against it) its source reads
`HIDDEN_SOURCE`; a target's Evasion (R7) is used for the damage only when the players see it.
"""

# No `from __future__ import annotations`: a NamedTuple reads its field types as objects,
# and string annotations cost a compile each (every command that reads a file loads this).

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from d4cli.fight.closed_sets import ACT, CHECK
from d4cli.fight.effect_transitions import applied_round
from d4cli.fight.effects import Effect, Pending
from d4cli.fight.encounter_state import Action, Creature, Encounter
from d4cli.fight.sides import FightEnd, encounter_end
from d4cli.fight.view_settings import HP_SHOWN, PlayerView
from d4cli.rules.names import fold_name
from d4cli.rules.pool import PoolPlan, PoolRequest, PoolResult, plan_pool
from d4cli.rules.records import notebook

# The roll feed.

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


# The table.

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
        counts_from: the round an effect's rounds are counted from (`d4cli.fight.effect_transitions.applied_round`).
        fight_over: the end of the fight (R21) when it is over and the players may know it:
            every creature down, or a side with a creature they see on it has won; else None
            (the fight goes on, or only hidden creatures are left standing).
        rolls: the roll feed, oldest first (`public_rolls`); empty unless given.
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
    roll feed *rolls* (`public_rolls` of the same encounter).

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


# A hidden creature's turn.


def hidden_turn(encounter: Encounter) -> bool:
    """A hidden creature's turn runs in *encounter*, or was the last to run (between turns)."""
    newest = encounter.current if encounter.current is not None else encounter.last_turn
    if newest is None:
        return False
    key = fold_name(newest)
    return any(
        creature.hidden for creature in encounter.creatures if fold_name(creature.name) == key
    )


# A past state, hidden as now.


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


# A seat's own page.

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
