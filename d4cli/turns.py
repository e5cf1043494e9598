"""Roster and turn transitions of the encounter: add, remove, turn start and end, Exhaustion (R1, R12-R15, R17).

Pure: each takes an `Encounter` and returns ``(new_encounter, event)``; the event
(`d4cli.records`) says what happened, and `d4cli.serialize` makes its JSON.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from d4cli.effects import retime_removed, turn_end_ends, turn_start_ends
from d4cli.encounter import Creature, Encounter, check_new_name, same_name
from d4cli.errors import InputError

if TYPE_CHECKING:
    from d4cli.records import AddEvent, ExhaustEvent, RemoveEvent, TurnEndEvent, TurnStartEvent


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
        if same_name(other.name, creature.name):
            problem = f"the encounter already has {other.name!r} (N1)"
            raise InputError("NAME", creature.name, problem)
    next_turn = encounter.next_turn
    last = encounter.creatures[-1].name if encounter.creatures else None
    if next_turn is None and encounter.current is not None and same_name(encounter.current, last):
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
    was_current = same_name(encounter.current, gone.name)
    current = None if was_current else encounter.current
    next_turn = encounter.next_turn
    if same_name(next_turn, gone.name):
        next_turn = encounter.follower(position)
    creatures = encounter.creatures[:position] + encounter.creatures[position + 1 :]
    new = replace(encounter, creatures=creatures, current=current, next_turn=next_turn)
    new, effects_ended = retime_removed(new, gone.name, gone.effects)  # R20
    event = RemoveEvent(
        new.round,
        new.current,
        gone.name,
        ended_turn=was_current,
        next=next_turn,
        load_before=gone.load,
        hp_before=gone.hp,
        effects_ended=effects_ended,
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
    new, effects_ended = turn_start_ends(encounter, new)  # R20
    in_order = name is None or new_round or same_name(encounter.next_turn, who.name)
    event = TurnStartEvent(
        new.round,
        new.current,
        who.name,
        ended=encounter.current,
        new_round=new_round,
        out_of_order=not in_order,
        resets=tuple(resets),
        next=new.next_turn,
        effects_ended=effects_ended,
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
    new, effects_ended = turn_end_ends(encounter, new)  # R20
    event = TurnEndEvent(
        new.round, who.name, who.name, load_after=who.load, next=new.next_turn, round_over=new.next_turn is None,
        effects_ended=effects_ended,
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
