"""Roster and turn transitions of the encounter: add, move, remove, turn start and end, Exhaustion (R1, R12-R15, R17-R19).

Pure: each takes an `Encounter` and returns ``(new_encounter, event)``; the event
(`d4cli.fight.events`) says what happened, and `d4cli.output.serialize` makes its JSON.
The turn bookkeeping of R19 (who goes next, who has had a turn, when a round
begins) lives in the helpers `_choose_turn`, `_begin_round`,
and `_reset_and_mark`, so `start_turn` and `end_turn` read as the rule does.
"""

from __future__ import annotations

from d4cli.fight.effect_transitions import end_removed, turn_end_ends, turn_start_ends
from d4cli.fight.encounter_state import Creature, Encounter, check_new_name, same_name
from d4cli.fight.events import (
    AddEvent,
    ExhaustEvent,
    MoveEvent,
    RemoveEvent,
    Reset,
    TurnEndEvent,
    TurnStartEvent,
)
from d4cli.fight.sides import encounter_end, ended_fight
from d4cli.rules.errors import InputError
from d4cli.rules.limits import MAX_COUNT
from d4cli.rules.names import NameSet, fold_name, look_alike_problem

# Where `move_creature` puts a creature: before or after another, or first or last (R13).
PLACES: tuple[str, ...] = ("before", "after", "first", "last")


def numbered_names(encounter: Encounter, base: str, count: int) -> tuple[str, ...]:
    """*count* names ``BASE 1``, ``BASE 2`` ... that no creature of *encounter* has (N1): the
    numbering skips names in use (``Goblin 2`` there gives ``Goblin 1, Goblin 3, ...``).

    Raises:
        InputError: naming ``copies`` (`d4cli.api.add_sheets.AddSpec`), a count outside
            1..`MAX_COUNT`; naming ``NAME``, a numbered name that is not a valid name
            (longer than N1 allows).
    """
    if not 1 <= count <= MAX_COUNT:
        raise InputError("copies", count, f"must be within 1..{MAX_COUNT}")
    taken = {fold_name(creature.name) for creature in encounter.creatures}
    names: list[str] = []
    number = 0
    while len(names) < count:
        number += 1
        name = f"{base} {number}"
        if fold_name(name) not in taken:
            names.append(check_new_name(name))
    return tuple(names)


def add_creature(
    encounter: Encounter, creature: Creature, *, before: str | None = None, after: str | None = None
) -> tuple[Encounter, AddEvent]:
    """Add *creature* at the end of the turn order, or just before or after another (R13).

    Nothing else moves (R13: never sorted). Its Load starts at its reset value
    (R15: `Encounter.reset_to`, whatever Load *creature* holds). A creature added
    during a round has not had its turn yet, so it has one in this round (R19),
    also when nobody else is left to go and after the round's last turn end;
    only in a file whose last turn end closed the round (`Encounter.round_over`,
    before R19's amendment) does it wait for the next.

    Raises:
        InputError: a creature whose name matches it already exists (N1); both
            *before* and *after*; an unknown *before*/*after* creature.
    """
    return add_creatures(encounter, (creature,), before=before, after=after)


def add_creatures(
    encounter: Encounter,
    added: tuple[Creature, ...],
    *,
    before: str | None = None,
    after: str | None = None,
    like: str | None = None,
) -> tuple[Encounter, AddEvent]:
    """Add *added* (one or more creatures of one sheet, ``add --count``) together, in that
    order, as `add_creature` adds one (R13, R19); one change, so one ``undo`` takes them back.

    The event describes the first; ``names`` lists every name added, ``like`` the creature
    whose sheet they copy (``add --like``), if any.

    Raises:
        InputError: as `add_creature`; also two of *added* whose names match (N1).
    """
    for index, creature in enumerate(added):
        check_new_name(creature.name)
        for other in encounter.creatures + added[:index]:
            if same_name(other.name, creature.name):
                problem = f"the encounter already has {other.name!r} (N1)"
                raise InputError("NAME", creature.name, problem)
        alike = NameSet(other.name for other in encounter.creatures + added[:index]).looks_like(
            creature.name
        )
        if alike is not None:
            raise InputError(
                "NAME",
                creature.name,
                f"the encounter already has a name that {look_alike_problem(creature.name, alike)}",
            )
    if before is not None and after is not None:
        raise InputError(
            "before/after",
            None,
            "give at most one of {before} and {after}",
            mentions=("before", "after"),
        )
    # Each starts at its reset value (R15: the R1 value, or 0 in round mode with
    # round_reset "zero", R12); once the round is over they wait for the next (R19).
    over = encounter.round_over
    added = tuple(
        creature._replace(load=encounter.reset_to(creature), had_turn=over) for creature in added
    )
    position = len(encounter.creatures)
    if before is not None:
        position = encounter.position_of(before, "before")
    elif after is not None:
        position = encounter.position_of(after, "after") + 1
    creatures = encounter.creatures[:position] + added + encounter.creatures[position:]
    new = encounter._replace(creatures=creatures)
    creature = added[0]
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
        max_hp=creature.max_hp,
        position=position + 1,
        next=new.next_turn,
        side=creature.side or None,
        attributes=creature.attributes,
        proficiencies=creature.proficiencies,
        specializations=creature.specializations,
        names=tuple(c.name for c in added),
        like=like,
        hidden=creature.hidden,
    )
    return new, event


def move_creature(
    encounter: Encounter, name: str, place: str, other: str | None = None
) -> tuple[Encounter, MoveEvent]:
    """Move a creature in the turn order: before or after *other*, or first or last (R13).

    Only the order changes: whose turn runs, who has had a turn this round
    (R19) and every value stay; the default next turn is found in the new order.

    Args:
        place: one of `PLACES`.
        other: the creature to move next to, for ``before`` and ``after``.

    Raises:
        InputError: an unknown creature, a move relative to itself, an unknown *place*.
    """
    if place not in PLACES:
        raise InputError("place", place, "must be before, after, first or last")
    position = encounter.position_of(name)
    moving = encounter.creatures[position]
    rest = encounter.creatures[:position] + encounter.creatures[position + 1 :]
    if place in ("before", "after"):
        # the field is the place, as `add_creatures` names its *before* and *after*
        if other is None:
            raise InputError(place, None, "names the creature to move next to")
        anchor = encounter.position_of(other, place)
        if anchor == position:
            raise InputError(place, other, f"is {moving.name} itself: name another creature")
        anchor_name = encounter.creatures[anchor].name
        index = next(i for i, creature in enumerate(rest) if creature.name == anchor_name)
        target = index if place == "before" else index + 1
    else:
        target = 0 if place == "first" else len(rest)
    creatures = rest[:target] + (moving,) + rest[target:]
    new = encounter._replace(creatures=creatures)
    event = MoveEvent(
        new.round,
        new.current,
        moving.name,
        position_before=position + 1,
        position_after=target + 1,
        order=tuple(creature.name for creature in creatures),
        next=new.next_turn,
    )
    return new, event


def remove_creature(encounter: Encounter, name: str) -> tuple[Encounter, RemoveEvent]:
    """Remove a creature (R17).

    The turn never moves to someone else: the current creature stays current;
    removing the current creature ends its turn. When the creature whose turn
    ran last leaves, the next ``turn start`` goes to the creature that followed
    it (unless that one has had its turn or is down, R19), wherever later adds
    and moves put that one (``resume_at``). The order of the others is kept.

    Removing the last creature still to act does not end the round (R19): no turn
    end has, so the round runs until the next turn start (``round_open``), and a
    creature added or healed before then has its turn in it, as after damage.
    Its own effects go with it, and the effects on others timed to its turn end
    now (R20); both are in the event.

    Raises:
        InputError: no such creature.
    """
    position = encounter.position_of(name)
    gone = encounter.creatures[position]
    was_current = same_name(encounter.current, gone.name)
    current = None if was_current else encounter.current
    creatures = encounter.creatures[:position] + encounter.creatures[position + 1 :]
    last_turn, resume_at = encounter.last_turn, encounter.resume_at
    if same_name(last_turn, gone.name) or same_name(resume_at, gone.name):
        # The default order goes on with the creature that followed it (R17).
        follower = creatures[position % len(creatures)].name if creatures else None
        last_turn, resume_at = None, follower
    new = encounter._replace(
        creatures=creatures, current=current, last_turn=last_turn, resume_at=resume_at
    )
    # R19: the round runs on until a turn start finds nobody left, unless a turn end ended it.
    open_ = encounter.round > 0 and not encounter.round_over and current is None
    new = new._replace(round_open=open_ and all(c.had_turn for c in creatures))
    new, effects_ended = end_removed(new, gone.name, gone.effects)  # R20
    nobody_left = new.round > 0 and new.current is None and new.next_turn is None
    event = RemoveEvent(
        new.round,
        new.current,
        gone.name,
        ended_turn=was_current,
        next=new.next_turn,
        load_before=gone.load,
        hp_before=gone.hp,
        effects_ended=effects_ended,
        fight_over=ended_fight(encounter, new),
        round_open=nobody_left and not new.round_over,
    )
    return new, event


def start_turn(encounter: Encounter, name: str | None = None) -> tuple[Encounter, TurnStartEvent]:
    """Start a turn: *name*'s, or the default next one (R1, R12, R13, R18, R19).

    A running turn ends first (its Load is kept, R14). The default next turn
    is the next creature in file order after the one whose turn ran last,
    wrapping around, that has not had its turn this round and is not down
    (R19); down creatures passed over are named in the event (R18). When no
    such creature is left (or before round 1) the turn starts round + 1:
    nobody has had a turn yet, and in ``round`` mode everyone resets (R12, to
    the R1 value or to 0 as ``round_reset`` says); in ``turn`` mode the
    creature whose turn starts resets (R1). The GM may start anyone's turn,
    also a second one in a round (the event says so).

    Returns:
        The encounter and a `TurnStartEvent` that lists the resets made.

    Raises:
        InputError: no creatures; no creature called *name*; no *name* while
            every creature is down.
    """
    if not encounter.creatures:
        raise InputError("turn start", None, "the encounter has no creatures; add one first")
    following = encounter.next_position()
    new_round = following is None
    base = _begin_round(encounter) if new_round else encounter
    position, skipped = _choose_turn(base, name, None if new_round else following)
    who = base.creatures[position]
    default = (
        base.next_position() if name is not None else position
    )  # the default turn: `_choose_turn`
    new, resets = _reset_and_mark(base, position, new_round)
    new, effects_ended = turn_start_ends(encounter, new)  # R20
    event = TurnStartEvent(
        round=new.round,
        turn=new.current,
        actor=who.name,
        ended=encounter.current,
        new_round=new_round,
        out_of_order=name is not None and position != default,
        resets=resets,
        next=new.next_turn,
        effects_ended=effects_ended,
        skipped=skipped,
        again=who.had_turn,
        down=who.down,
        fight_over=encounter_end(new),
    )
    return new, event


def end_turn(encounter: Encounter) -> tuple[Encounter, TurnEndEvent]:
    """End the running turn; the Load stays where it is (R14).

    When every creature that is not down has had its turn, the event says so
    (``round_over``), but the turn end closes nothing (R19 as amended): the round
    stays open (``round_open``) until a turn start finds nobody left to act, so a
    creature added or healed back before then has its turn in this round, and the
    effects lasting to the round's end still count until that turn start (R20).

    Raises:
        InputError: no turn is running.
    """
    if encounter.current is None:
        raise InputError("turn end", None, "no turn is running (start one with 'd4cli turn start')")
    who = encounter.find(encounter.current, "current")
    new = encounter._replace(current=None)
    new, effects_ended = turn_end_ends(encounter, new)  # R20
    following = new.next_turn
    if following is None:
        new = new._replace(round_open=True)  # R19: it runs on until the next turn start
    event = TurnEndEvent(
        round=new.round,
        turn=who.name,
        actor=who.name,
        load_after=who.load,
        next=following,
        round_over=following is None,
        effects_ended=effects_ended,
    )
    return new, event


# --- the turn bookkeeping of R19 -------------------------------------------------------------


def _begin_round(encounter: Encounter) -> Encounter:
    """Round + 1: nobody has had a turn, and the default order starts at the first creature (R19)."""
    creatures = tuple(c._replace(had_turn=False) if c.had_turn else c for c in encounter.creatures)
    return encounter._replace(
        round=encounter.round + 1,
        last_turn=None,
        resume_at=None,
        round_open=False,
        creatures=creatures,
    )


def _choose_turn(
    encounter: Encounter, name: str | None, known: int | None = None
) -> tuple[int, tuple[str, ...]]:
    """Whose turn starts: *name*'s, or the default next one (R19); and the down creatures passed over (R18).

    *known*: the encounter's `Encounter.next_position`, when the caller has it already.

    Raises:
        InputError: an unknown *name*; no *name* and every creature is down.
    """
    if name is not None:
        return encounter.position_of(name), ()
    position = encounter.next_position() if known is None else known
    if position is None:
        problem = "every creature is down (R18): heal one, or name whose turn starts"
        raise InputError("turn start", None, problem)
    start = encounter.order_start()
    count = len(encounter.creatures)
    steps = (position - start) % count
    if not steps:  # the very next creature: none passed over
        return position, ()
    passed = [encounter.creatures[(start + step) % count] for step in range(steps)]
    return position, tuple(c.name for c in passed if c.down and not c.had_turn)


def _reset_and_mark(
    encounter: Encounter, position: int, new_round: bool
) -> tuple[Encounter, tuple[Reset, ...]]:
    """A turn starts at *position*: the Load resets, the creature in ``turn`` mode (R1), everyone at
    a new round in ``round`` mode (R12); and that creature has its turn: current, last to go, had
    its turn this round (R19). Each creature changes once, the encounter once.
    """
    if encounter.mode == "round":
        positions = range(len(encounter.creatures)) if new_round else range(0)
    else:
        positions = range(position, position + 1)
    creatures = list(encounter.creatures)
    resets: list[Reset] = []
    for index in positions:
        creature = creatures[index]
        value = encounter.reset_to(creature)
        resets.append(Reset(creature.name, creature.load, value))
        if index == position:
            creatures[index] = creature._replace(load=value, had_turn=True)
        else:
            creatures[index] = creature._replace(load=value)
    if position not in positions:
        creatures[position] = creatures[position]._replace(had_turn=True)
    name = creatures[position].name
    started = encounter._replace(
        creatures=tuple(creatures), current=name, last_turn=name, resume_at=None, round_open=False
    )
    return started, tuple(resets)


def set_exhaustion(encounter: Encounter, name: str, level: int) -> tuple[Encounter, ExhaustEvent]:
    """Set a creature's Exhaustion level (R15); it changes only the R1 reset value, not the Load.

    Raises:
        InputError: no such creature.
    """
    position = encounter.position_of(name)
    creature = encounter.creatures[position]
    changed = creature._replace(exhaustion=level)
    new = encounter.with_creature(position, changed)
    event = ExhaustEvent(
        new.round,
        new.current,
        creature.name,
        exhaustion_before=creature.exhaustion,
        exhaustion_after=level,
        load_after=creature.load,
        reset_value=new.reset_to(changed),
    )
    return new, event
