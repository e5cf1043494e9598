"""The encounter: creatures in turn order and the pure transitions of a fight (R1-R17).

No files, no printing, no Rich. An `Encounter` is a frozen value; every
transition (`add_creature`, `remove_creature`, `start_turn`, `end_turn`, `act`,
`team`, `set_exhaustion`) takes one and returns ``(new_encounter, record)``,
where the record says what happened; `d4cli.serialize` turns it into the JSON
object that ``--json`` prints and the journal keeps. Dice come from an injected `DiceSource`. Names of creatures and
Aspects match by N1 (`fold_name`); an unknown one is an `InputError` that
names the value.

Turn state (R13): ``round`` counts from 1 (0 = not started); ``current`` is
the creature whose turn runs (None between turns); ``next_turn`` is the
creature whose turn a plain ``turn start`` begins, None when the round is over
(or not started), so that the next turn starts round + 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, ClassVar

from d4cli.errors import InputError
from d4cli.names import check_text, fold_name

if TYPE_CHECKING:  # annotations only: reading a file (Tab completion) never builds the pool's classes
    from d4cli.dice import DiceSource, ExtraDice
    from d4cli.pool import Gate, PoolResult
    from d4cli.records import (
        ActOutcome,
        AddEvent,
        ExhaustEvent,
        GrantKind,
        RemoveEvent,
        TurnEndEvent,
        TurnStartEvent,
    )



# The values of `d4cli.records.Mode` and `GrantKind` (kept plain: reading a file builds no enum).
MODES: tuple[str, ...] = ("turn", "round")
TEAM_SOURCE = "team action"
GRANT_KINDS: tuple[str, ...] = ("advantage", "disadvantage")


@dataclass(frozen=True)
class Pending:
    """Team Action grants waiting for a creature's next roll (R11): source names."""

    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.advantage or self.disadvantage)

    def with_grant(self, kind: str, source: str) -> Pending:
        """Add *source* to the *kind* list; a name already pending there (N1) is kept once (R4)."""
        if kind not in GRANT_KINDS:
            raise ValueError(f"not a grant kind: {kind!r}")
        names: tuple[str, ...] = getattr(self, kind)
        if any(fold_name(name) == fold_name(source) for name in names):
            return self
        return replace(self, **{kind: names + (source,)})

    def as_dict(self) -> dict[str, list[str]]:
        """The grants as lists by kind: the file's ``pending`` table."""
        return {"advantage": list(self.advantage), "disadvantage": list(self.disadvantage)}


@dataclass(frozen=True)
class Creature:
    """One creature of the encounter.

    Attributes:
        name: shown exactly as written (N1).
        aspects: ``(name, value)`` pairs in the order given.
        load_buffer: the Load Buffer (R1), >= 0.
        exhaustion: the Exhaustion level (R15), >= 0.
        load: the current Action Load.
        evasion: Evasion against attacks (R7); 0 when not given.
        hp: hit points, or None when the encounter does not track them (R16).
        pending: Team Action grants for its next roll (R11).
        notes: free text kept with the creature in the file ("" when none).
    """

    name: str
    aspects: tuple[tuple[str, int], ...]
    load_buffer: int = 1
    exhaustion: int = 0
    load: int = 0
    evasion: int = 0
    hp: int | None = None
    pending: Pending = field(default_factory=Pending)
    notes: str = ""

    @property
    def reset_value(self) -> int:
        """The Load this creature resets to (R1): ``Exhaustion - Load Buffer``."""
        from d4cli.pool import reset_load

        return reset_load(self.load_buffer, self.exhaustion)

    def headroom(self) -> dict[str, int]:
        """``Aspect - Load`` for each Aspect (R2), in the order given."""
        return {name: value - self.load for name, value in self.aspects}

    def aspect(self, name: str, field_name: str = "ASPECT") -> tuple[str, int]:
        """The Aspect called *name* (N1) as ``(name as written, value)``.

        Raises:
            InputError: the creature has no such Aspect.
        """
        key = fold_name(name)
        for aspect_name, value in self.aspects:
            if fold_name(aspect_name) == key:
                return aspect_name, value
        have = ", ".join(aspect_name for aspect_name, _ in self.aspects) or "none"
        raise InputError(field_name, name, f"{self.name} has no such Aspect (it has: {have})")


@dataclass(frozen=True)
class Encounter:
    """The state of an encounter (R12, R13).

    Attributes:
        name: the encounter's name.
        mode: ``turn`` (reset at a creature's own turn) or ``round`` (everyone at each round), R12.
        round: the round number, from 1; 0 before the first turn (R13).
        current: the creature whose turn runs, or None.
        next_turn: whose turn a plain ``turn start`` begins; None when the next turn
            starts a new round.
        creatures: in turn order, never sorted (R13, R17).
    """

    name: str = ""
    mode: str = "turn"
    round: int = 0
    current: str | None = None
    next_turn: str | None = None
    creatures: tuple[Creature, ...] = ()

    def index(self, name: str, field_name: str = "NAME") -> int:
        """Position of the creature called *name* (N1).

        Raises:
            InputError: nobody of that name.
        """
        key = fold_name(name)
        for position, creature in enumerate(self.creatures):
            if fold_name(creature.name) == key:
                return position
        raise InputError(field_name, name, "no such creature in the encounter" + _known(self))

    def find(self, name: str, field_name: str = "NAME") -> Creature:
        """The creature called *name* (N1); raises `InputError` naming *field_name* when unknown."""
        return self.creatures[self.index(name, field_name)]

    def follower(self, position: int) -> str | None:
        """Name of the creature after *position* in turn order, None past the last (R13)."""
        return self.creatures[position + 1].name if position + 1 < len(self.creatures) else None

    def with_creature(self, position: int, creature: Creature) -> Encounter:
        creatures = list(self.creatures)
        creatures[position] = creature
        return replace(self, creatures=tuple(creatures))


def _known(encounter: Encounter) -> str:
    names = [creature.name for creature in encounter.creatures]
    if not names:
        return " (it has none yet)"
    if len(names) > 12:
        return f" ({len(names)} creatures; see 'd4cli status')"
    return " (it has: " + ", ".join(names) + ")"


def _same(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and fold_name(a) == fold_name(b)


# --- records -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActRecord:
    """An action of a creature of the encounter (R2-R11, R16).

    Attributes:
        round / turn: when it happened.
        actor / aspect: who acted and the Aspect used (names as written).
        result: the rolled (or refused) pool.
        target: the creature attacked, if any (its Evasion was used, R7).
        load_before / load_after: the actor's Load around the action (R8).
        off_turn: not the actor's own turn: a reaction (R10).
        grants_used: Team Action grants the roll used up (R11).
        hp_before / hp_after: the target's hit points around the damage (R16), None without hp.
    """

    kind: ClassVar[str] = "act"

    round: int
    turn: str | None
    actor: str
    aspect: str
    result: PoolResult
    target: str | None
    load_before: int
    load_after: int
    off_turn: bool
    grants_used: Pending
    hp_before: int | None
    hp_after: int | None

    @property
    def allowed(self) -> bool:
        return self.result.allowed

    @property
    def hp_zero(self) -> bool:
        """The target's hp is at 0 after this action (R16)."""
        return self.allowed and self.hp_after == 0

    @property
    def outcome(self) -> ActOutcome | None:
        """``success``/``failure`` (DC), ``damage``/``no-damage`` (Evasion), ``refused``, or None."""
        from d4cli.records import ActOutcome

        result = self.result
        if not result.allowed:
            return ActOutcome.REFUSED
        if result.success is not None:
            return ActOutcome.SUCCESS if result.success else ActOutcome.FAILURE
        if result.damage is not None:
            return ActOutcome.DAMAGE if result.damage > 0 else ActOutcome.NO_DAMAGE
        return None


@dataclass(frozen=True)
class TeamRecord:
    """A Team Action (R11): the actor pays through the gate, the target gets a named grant.

    Attributes:
        gate: the actor's gate (R2, R10).
        grant: ``advantage`` or ``disadvantage``.
        source: the grant's source name (default ``team action``).
    """

    kind: ClassVar[str] = "team"

    round: int
    turn: str | None
    actor: str
    aspect: str
    target: str
    gate: Gate
    grant: GrantKind
    source: str
    load_before: int
    load_after: int
    off_turn: bool

    @property
    def allowed(self) -> bool:
        return self.gate.allowed


# --- transitions ---------------------------------------------------------------------------


def check_new_name(name: str, field_name: str = "NAME") -> str:
    """A new creature, Aspect or source name: UTF-8 text with something besides white space (N1).

    Raises:
        InputError: an empty or blank name, or one that is not valid UTF-8 text
            (`d4cli.names.check_text`).
    """
    return check_text(name, field_name, name=True)


def new_creature(
    name: str,
    aspects: tuple[tuple[str, int], ...],
    *,
    load_buffer: int = 1,
    exhaustion: int = 0,
    evasion: int = 0,
    hp: int | None = None,
) -> Creature:
    """A fresh creature, its Load at the reset value ``Exhaustion - Load Buffer`` (R1).

    Raises:
        InputError: an empty name, no Aspect, or two Aspects whose names match (N1).
    """
    from d4cli.pool import reset_load

    check_new_name(name)
    if not aspects:
        raise InputError("--aspect", None, f"{name} needs at least one Aspect (--aspect NAME=N)")
    seen: dict[str, str] = {}
    for aspect_name, _ in aspects:
        check_new_name(aspect_name, "--aspect")
        key = fold_name(aspect_name)
        if key in seen:
            raise InputError("--aspect", aspect_name, f"the same Aspect as {seen[key]!r} (N1)")
        seen[key] = aspect_name
    return Creature(
        name,
        aspects,
        load_buffer=load_buffer,
        exhaustion=exhaustion,
        load=reset_load(load_buffer, exhaustion),
        evasion=evasion,
        hp=hp,
    )


def add_creature(encounter: Encounter, creature: Creature) -> tuple[Encounter, AddEvent]:
    """Add *creature* at the end of the turn order (R13).

    A creature added while the last creature's turn runs follows it this
    round; added after the round is over, it waits for the next round.

    Raises:
        InputError: a creature whose name matches it already exists (N1).
    """
    from d4cli.records import AddEvent

    check_new_name(creature.name)
    for other in encounter.creatures:
        if _same(other.name, creature.name):
            problem = f"the encounter already has {other.name!r} (N1)"
            raise InputError("NAME", creature.name, problem)
    next_turn = encounter.next_turn
    last = encounter.creatures[-1].name if encounter.creatures else None
    if next_turn is None and encounter.current is not None and _same(encounter.current, last):
        next_turn = creature.name
    new = replace(encounter, creatures=encounter.creatures + (creature,), next_turn=next_turn)
    event = AddEvent(
        new.round,
        new.current,
        creature.name,
        aspects=creature.aspects,
        load_buffer=creature.load_buffer,
        exhaustion=creature.exhaustion,
        load_after=creature.load,
        evasion=creature.evasion,
        hp_after=creature.hp,
    )
    return new, event


def remove_creature(encounter: Encounter, name: str) -> tuple[Encounter, RemoveEvent]:
    """Remove a creature (R17).

    The turn never moves to someone else: the current creature stays current;
    removing the current creature ends its turn, and the next ``turn start``
    goes to the creature that followed it. The order of the others is kept.

    Raises:
        InputError: no such creature.
    """
    from d4cli.records import RemoveEvent

    position = encounter.index(name)
    gone = encounter.creatures[position]
    was_current = _same(encounter.current, gone.name)
    current = None if was_current else encounter.current
    next_turn = encounter.next_turn
    if _same(next_turn, gone.name):
        next_turn = encounter.follower(position)
    creatures = encounter.creatures[:position] + encounter.creatures[position + 1 :]
    new = replace(encounter, creatures=creatures, current=current, next_turn=next_turn)
    event = RemoveEvent(
        new.round,
        new.current,
        gone.name,
        ended_turn=was_current,
        next=next_turn,
        load_before=gone.load,
        hp_before=gone.hp,
    )
    return new, event


def start_turn(encounter: Encounter, name: str | None = None) -> tuple[Encounter, TurnStartEvent]:
    """Start a turn: *name*'s, or the next in order (R1, R12, R13).

    A running turn ends first (its Load is kept, R14). When the round is over
    (or not started) the new turn starts round + 1; in ``round`` mode every
    creature then resets (R12), in ``turn`` mode the creature whose turn starts
    resets (R1). The GM may start anyone's turn out of order; the next default
    turn follows the creature whose turn ran last.

    Returns:
        The encounter and a `TurnStartEvent` that lists the resets made.

    Raises:
        InputError: no creatures, or no creature called *name*.
    """
    from d4cli.records import Reset, TurnStartEvent

    if not encounter.creatures:
        raise InputError("turn start", None, "the encounter has no creatures; add one first")
    new_round = encounter.next_turn is None
    if name is not None:
        position = encounter.index(name)
    elif new_round:
        position = 0
    else:
        position = encounter.index(encounter.next_turn or "", "next_turn")
    creatures = list(encounter.creatures)
    who = creatures[position]
    resets: list[Reset] = []
    reset_positions: list[int] = []
    if encounter.mode == "round":
        if new_round:
            reset_positions = list(range(len(creatures)))
    else:
        reset_positions = [position]
    for index in reset_positions:
        creature = creatures[index]
        resets.append(Reset(creature.name, creature.load, creature.reset_value))
        creatures[index] = replace(creature, load=creature.reset_value)
    round_number = encounter.round + 1 if new_round else encounter.round
    new = replace(
        encounter,
        round=round_number,
        current=who.name,
        next_turn=encounter.follower(position),
        creatures=tuple(creatures),
    )
    in_order = name is None or new_round or _same(encounter.next_turn, who.name)
    event = TurnStartEvent(
        new.round,
        new.current,
        who.name,
        ended=encounter.current,
        new_round=new_round,
        out_of_order=not in_order,
        resets=tuple(resets),
        next=new.next_turn,
    )
    return new, event


def end_turn(encounter: Encounter) -> tuple[Encounter, TurnEndEvent]:
    """End the running turn; the Load stays where it is (R14).

    Raises:
        InputError: no turn is running.
    """
    from d4cli.records import TurnEndEvent

    if encounter.current is None:
        raise InputError("turn end", None, "no turn is running (start one with 'd4cli turn start')")
    who = encounter.find(encounter.current, "current")
    new = replace(encounter, current=None)
    event = TurnEndEvent(
        new.round, who.name, who.name, load_after=who.load, next=new.next_turn, round_over=new.next_turn is None
    )
    return new, event


def set_exhaustion(encounter: Encounter, name: str, level: int) -> tuple[Encounter, ExhaustEvent]:
    """Set a creature's Exhaustion level (R15); it changes only the R1 reset value, not the Load.

    Raises:
        InputError: no such creature.
    """
    from d4cli.records import ExhaustEvent

    position = encounter.index(name)
    creature = encounter.creatures[position]
    changed = replace(creature, exhaustion=level)
    new = encounter.with_creature(position, changed)
    event = ExhaustEvent(
        new.round,
        new.current,
        creature.name,
        exhaustion_before=creature.exhaustion,
        exhaustion_after=level,
        load_after=creature.load,
        reset_value=changed.reset_value,
    )
    return new, event


@dataclass(frozen=True)
class ActRequest:
    """What ``d4cli act`` asks for.

    Attributes:
        actor / aspect: names as typed (N1).
        cost: the Cost (R3), default 1.
        advantage / disadvantage: sources named on the command line (R4).
        extra: extra dice (R6).
        dc / target / evasion: at most one: a DC, a creature whose Evasion
            (and hp, R16) is used, or a bare Evasion (R7).
    """

    actor: str
    aspect: str
    cost: int = 1
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    extra: tuple[ExtraDice, ...] = ()
    dc: int | None = None
    target: str | None = None
    evasion: int | None = None


def act(encounter: Encounter, request: ActRequest, rng: DiceSource) -> tuple[Encounter, ActRecord]:
    """A creature acts: gate, pool, roll, Load, damage (R2-R11, R16).

    The actor's pending Team Action grants join the sources (R11, counted once
    by name, R4) and are used up. Acting while another creature's turn runs (or
    between turns) is off-turn (R10): same gate, same Cost. A refused action
    (R2) rolls nothing and returns the encounter unchanged.

    Args:
        encounter: the encounter before the action.
        request: the action.
        rng: the dice.

    Returns:
        The new encounter and the `ActRecord`.

    Raises:
        InputError: unknown actor, Aspect or target; more than one of DC,
            target and Evasion; too many dice (L2).
    """
    from d4cli.pool import PoolRequest, plan_pool, roll_pool

    choices = (("--dc", request.dc), ("--target", request.target), ("--evasion", request.evasion))
    given = [option for option, value in choices if value is not None]
    if len(given) > 1:
        raise InputError("/".join(given), None, "give at most one of --dc, --target and --evasion")
    position = encounter.index(request.actor)
    actor = encounter.creatures[position]
    aspect_name, aspect_value = actor.aspect(request.aspect)
    target_position = None
    target = None
    if request.target is not None:
        target_position = encounter.index(request.target, "--target")
        target = encounter.creatures[target_position]
    evasion = target.evasion if target is not None else request.evasion
    plan = plan_pool(
        PoolRequest(
            aspect=aspect_value,
            load=actor.load,
            cost=request.cost,
            advantage=request.advantage + actor.pending.advantage,
            disadvantage=request.disadvantage + actor.pending.disadvantage,
            extra=request.extra,
            dc=request.dc,
            evasion=evasion,
        )
    )
    result = roll_pool(plan, rng)
    hp_before = None if target is None else target.hp
    record = ActRecord(
        round=encounter.round,
        turn=encounter.current,
        actor=actor.name,
        aspect=aspect_name,
        result=result,
        target=None if target is None else target.name,
        load_before=actor.load,
        load_after=plan.load_after,
        off_turn=not _same(encounter.current, actor.name),
        grants_used=actor.pending if result.allowed else Pending(),
        hp_before=hp_before,
        hp_after=hp_before,
    )
    if not result.allowed:
        return encounter, record
    new = encounter.with_creature(position, replace(actor, load=plan.load_after, pending=Pending()))
    if target_position is not None and hp_before is not None:
        hp_after = max(0, hp_before - (result.damage or 0))
        hit = new.creatures[target_position]
        new = new.with_creature(target_position, replace(hit, hp=hp_after))
        record = replace(record, hp_after=hp_after)
    return new, record


@dataclass(frozen=True)
class TeamRequest:
    """What ``d4cli team`` asks for (R11).

    Attributes:
        actor / target: names as typed (N1); they must differ.
        grant: ``advantage`` or ``disadvantage``.
        aspect: the Aspect that pays; None when the actor has exactly one.
        cost: the Cost, default 1.
        source: the grant's source name (R4).
    """

    actor: str
    target: str
    grant: GrantKind
    aspect: str | None = None
    cost: int = 1
    source: str = TEAM_SOURCE


def team(encounter: Encounter, request: TeamRequest) -> tuple[Encounter, TeamRecord]:
    """A Team Action (R11): the actor pays through its gate; the target's next roll gets a grant.

    The grant is a named source on the target, used up by its next ``act``;
    two grants of the same name count once (R4). A refused Team Action (R2)
    changes nothing.

    Raises:
        InputError: unknown actor, target or Aspect; the actor granting itself;
            several Aspects and no ``--aspect``; an empty source name.
    """
    from d4cli.pool import check_gate
    from d4cli.records import GrantKind

    if request.grant not in GRANT_KINDS:
        raise InputError("--adv/--dis", request.grant, "a grant is advantage or disadvantage")
    position = encounter.index(request.actor, "ACTOR")
    actor = encounter.creatures[position]
    target_position = encounter.index(request.target, "TARGET")
    target = encounter.creatures[target_position]
    if target_position == position:
        raise InputError(
            "TARGET",
            request.target,
            "a Team Action helps or hinders another creature, not the actor itself (R11)",
        )
    check_new_name(request.source, "--source")
    if request.aspect is not None:
        aspect_name, aspect_value = actor.aspect(request.aspect, "--aspect")
    elif len(actor.aspects) == 1:
        aspect_name, aspect_value = actor.aspects[0]
    else:
        names = ", ".join(name for name, _ in actor.aspects) or "none"
        problem = f"{actor.name} has several Aspects ({names}): say which one pays"
        raise InputError("--aspect", None, problem)
    gate = check_gate(aspect_value, actor.load, request.cost)
    load_after = actor.load + request.cost if gate.allowed else actor.load
    record = TeamRecord(
        round=encounter.round,
        turn=encounter.current,
        actor=actor.name,
        aspect=aspect_name,
        target=target.name,
        gate=gate,
        grant=GrantKind(request.grant),
        source=request.source,
        load_before=actor.load,
        load_after=load_after,
        off_turn=not _same(encounter.current, actor.name),
    )
    if not gate.allowed:
        return encounter, record
    new = encounter.with_creature(position, replace(actor, load=load_after))
    pending = target.pending.with_grant(request.grant, request.source)
    new = new.with_creature(target_position, replace(target, pending=pending))
    return new, record
