"""Recap: the figures of a fight from its journal, pure (R2, R8, R10, R11, R16, R18).

Input: the encounter at the recap's start and the journal entries that
follow, each with the encounter as it stood right after it (``d4cli.store.replay``
rebuilds them); only changes that stand are there (an undone change is gone).
Output: a `Recap` record of plain numbers; the shell prints it.

What counts:

* **Damage dealt** by a creature: the hp its ``act`` rolls took off (R16),
  or the R7 damage where the target has no hp. **Damage taken** adds the
  ``damage`` commands (the GM's: dealt by nobody).
* **Actions** on and off its turn (R10): its ``act`` entries; **GM-called
  rolls** apart (R9: neither a turn's action nor a reaction, no Cost);
  **Team Actions** given (R11); **Load spent**: what its actions and Team
  Actions added to its Load (R8).
* **Turns it could not act**: turns that began with no Aspect allowing Cost 1
  (R2). Refused commands write nothing to the journal, so the gate's refusals
  at the start of a turn are what the journal can show; the **longest
  refusal streak** is the most such turns of one creature in a row.
* **Down and up**: each time a creature's hp reached 0 (down, R18) or came
  back above it, with the round and the entry.
* **Damage per round per side**: what each side's creatures dealt in each
  round; the GM's ``damage`` commands apart (``other``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from d4cli.fight.encounter import Creature, Encounter
from d4cli.fight.several import parts_of
from d4cli.fight.sides import encounter_end

Entry = dict[str, Any]
Step = tuple[Entry, Encounter | None]  # a journal entry and the encounter right after it


@dataclass
class CreatureFigures:
    """One creature's figures over the recap (see the module docstring for what counts).

    ``downs`` lists ``(round, "down" | "up", seq)`` in order.
    """

    name: str
    side: str | None
    damage_dealt: int = 0
    damage_taken: int = 0
    actions_on_turn: int = 0
    actions_off_turn: int = 0
    gm_called: int = 0
    team_actions: int = 0
    load_spent: int = 0
    turns: int = 0
    turns_unable: int = 0
    longest_unable: int = 0
    downs: list[tuple[int, str, int]] = field(default_factory=list)
    _streak: int = field(default=0, repr=False, compare=False)


@dataclass(frozen=True)
class RoundDamage:
    """The damage dealt in one round: by each side's creatures, and by ``damage`` commands (``other``)."""

    round: int
    sides: dict[str, int]
    other: int


@dataclass(frozen=True)
class Recap:
    """The figures of the fight from ``from_seq`` (the ``init``, or the entry given) to the newest entry.

    Attributes:
        encounter: the encounter's name.
        from_seq / to_seq: the entries the recap covers (after *from_seq*, up to *to_seq*).
        rounds: rounds played in that span (the round running at the start counts as 1).
        sides: the sides, in order of first appearance.
        creatures: each creature's `CreatureFigures`, in turn order of first appearance.
        damage_per_round: one `RoundDamage` per round with a change.
        longest_refusal: ``(creature, turns)`` of the longest run of turns without
            Cost 1 at their start, or None when every turn could act.
        winner: the side that won (R21), or None while the fight runs or when everyone is down.
        damage_by_side: each side's damage dealt over the recap.
    """

    encounter: str
    from_seq: int
    to_seq: int
    rounds: int
    sides: tuple[str, ...]
    creatures: tuple[CreatureFigures, ...]
    damage_per_round: tuple[RoundDamage, ...]
    longest_refusal: tuple[str, int] | None
    winner: str | None
    damage_by_side: dict[str, int]


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def hp_lost(entry: Entry) -> int:
    """The hp an ``act`` or ``damage`` entry took off (R16); an act on a target without hp: its R7 damage."""
    before, after = _int(entry.get("hp_before")), _int(entry.get("hp_after"))
    if before is not None and after is not None:
        return max(0, before - after)
    if entry.get("kind") == "act":
        return _int(entry.get("damage")) or 0
    return 0


def can_act_at_cost_1(creature: Creature) -> bool:
    """Whether some Aspect of *creature* passes the gate at Cost 1 (R2), and it is not down (R18)."""
    return not creature.down and any(value - creature.load >= 1 for _, value in creature.aspects)


def rounds_between(start: Encounter, end: Encounter) -> int:
    """Rounds played from *start* to *end*: the round running at *start* counts as 1 (R13, R19)."""
    running = (
        start.current is not None or start.next_position() is not None
    )  # as the simulator counts
    return max(0, end.round - start.round + (1 if running else 0))


def sides_of(encounter: Encounter) -> list[str]:
    found: list[str] = []
    for creature in encounter.creatures:
        if creature.side and creature.side not in found:
            found.append(creature.side)
    return found


def winner_of(encounter: Encounter) -> str | None:
    """The side that won the fight, once it is over (R21, `encounter_end`); else None (it goes
    on, or every creature is down)."""
    end = encounter_end(encounter)
    return None if end is None else end.winner


def recap(start: Encounter, from_seq: int, steps: Sequence[Step]) -> Recap:
    """The `Recap` of *steps* (journal entries after entry *from_seq*, each with the encounter after it).

    A step whose encounter could not be rebuilt (None) still counts its entry's
    facts; only the turn-start and down/up figures need the encounter.
    """
    tally = _Tally(down={c.name: c.down for c in start.creatures})
    for creature in start.creatures:
        tally.of(creature.name, creature)
    last = start
    for entry, after in steps:
        round_ = _int(entry.get("round")) or 0
        if after is not None:
            for creature in after.creatures:
                tally.of(creature.name, creature)
        for part in parts_of(entry):  # a change of several creatures counts each one's part
            kind, actor = part.get("kind"), part.get("actor")
            if isinstance(kind, str) and isinstance(actor, str) and kind in _COUNTS:
                _COUNTS[kind](tally, part, actor, round_, after)
        if after is not None:
            tally.count_downs(after, round_, _int(entry.get("seq")) or 0)
            last = after
    to_seq = _int(steps[-1][0].get("seq")) if steps else None
    return tally.recap(start, last, from_seq, to_seq if to_seq is not None else from_seq)


@dataclass
class _Tally:
    """The figures summed so far: per creature (in order of first appearance), the sides in order
    of first appearance, who is down, and the damage per round by side and by ``damage`` commands."""

    figures: dict[str, CreatureFigures] = field(default_factory=dict)
    sides: list[str] = field(default_factory=list)
    down: dict[str, bool] = field(default_factory=dict)
    per_round: dict[int, dict[str, int]] = field(default_factory=dict)
    other: dict[int, int] = field(default_factory=dict)

    def of(self, name: str, creature: Creature | None = None) -> CreatureFigures:
        """The figures of *name*, its side (and the side list) brought up to *creature*'s."""
        if name not in self.figures:
            self.figures[name] = CreatureFigures(
                name, creature.side if creature is not None else None
            )
        found = self.figures[name]
        if creature is not None and creature.side:
            found.side = creature.side
            if creature.side not in self.sides:
                self.sides.append(creature.side)
        return found

    def count_downs(self, after: Encounter, round_: int, seq: int) -> None:
        """Each creature whose hp reached 0 (down) or came back above it at entry *seq* (R18)."""
        for creature in after.creatures:
            if creature.down != self.down.get(creature.name, False):
                self.of(creature.name).downs.append(
                    (round_, "down" if creature.down else "up", seq)
                )
            self.down[creature.name] = creature.down

    def recap(self, start: Encounter, last: Encounter, from_seq: int, to_seq: int) -> Recap:
        """The `Recap` of these figures, from *start* to *last*."""
        sides, figures = self.sides, self.figures.values()
        rounds = sorted(set(self.per_round) | set(self.other))
        damage_per_round = tuple(
            RoundDamage(
                r, {s: self.per_round.get(r, {}).get(s, 0) for s in sides}, self.other.get(r, 0)
            )
            for r in rounds
        )
        streaks = [(f.name, f.longest_unable) for f in figures if f.longest_unable]
        return Recap(
            encounter=last.name,
            from_seq=from_seq,
            to_seq=to_seq,
            rounds=rounds_between(start, last),
            sides=tuple(sides),
            creatures=tuple(figures),
            damage_per_round=damage_per_round,
            longest_refusal=max(streaks, key=lambda item: item[1]) if streaks else None,
            winner=winner_of(last),
            damage_by_side={s: sum(f.damage_dealt for f in figures if f.side == s) for s in sides},
        )


def _count_act(
    tally: _Tally, entry: Entry, actor: str, round_: int, after: Encounter | None
) -> None:
    """An action (R10, R16, R8): on or off its turn, or a GM-called roll (R9; older journals
    say so by ``gate_skipped`` alone); the hp it took off, its side's damage, its Load."""
    mine = tally.of(actor)
    if entry.get("gm_called") or entry.get("gate_skipped"):
        mine.gm_called += 1
    elif entry.get("off_turn"):
        mine.actions_off_turn += 1
    else:
        mine.actions_on_turn += 1
    lost = hp_lost(entry)
    mine.damage_dealt += lost
    target = entry.get("target")
    if isinstance(target, str):
        tally.of(target).damage_taken += lost
    if lost and mine.side:
        by_side = tally.per_round.setdefault(round_, {})
        by_side[mine.side] = by_side.get(mine.side, 0) + lost
    mine.load_spent += _spent(entry)


def _count_team(
    tally: _Tally, entry: Entry, actor: str, round_: int, after: Encounter | None
) -> None:
    """A Team Action given (R11) and the Load it spent (R8)."""
    mine = tally.of(actor)
    mine.team_actions += 1
    mine.load_spent += _spent(entry)


def _count_damage(
    tally: _Tally, entry: Entry, actor: str, round_: int, after: Encounter | None
) -> None:
    """The GM's damage (R16): taken by *actor*, dealt by nobody (``other``)."""
    lost = hp_lost(entry)
    tally.of(actor).damage_taken += lost
    if lost:
        tally.other[round_] = tally.other.get(round_, 0) + lost


def _count_turn_start(
    tally: _Tally, entry: Entry, actor: str, round_: int, after: Encounter | None
) -> None:
    """A turn of *actor*, and whether it began unable to act at Cost 1 (R2, R18): its streak."""
    starting = (
        None if after is None else next((c for c in after.creatures if c.name == actor), None)
    )
    if starting is None:
        return
    mine = tally.of(actor)
    mine.turns += 1
    if can_act_at_cost_1(starting):
        mine._streak = 0
    else:
        mine.turns_unable += 1
        mine._streak += 1
        mine.longest_unable = max(mine.longest_unable, mine._streak)


# Each kind of journal entry that counts -> what it adds to the figures.
_COUNTS: dict[str, Callable[[_Tally, Entry, str, int, Encounter | None], None]] = {
    "act": _count_act,
    "team": _count_team,
    "damage": _count_damage,
    "turn-start": _count_turn_start,
}


def _spent(entry: Entry) -> int:
    """What an act or Team Action added to its actor's Load (R8; 0 for a GM-called roll, R9)."""
    before = _int(entry.get("load_before"))
    if before is None:
        before = _int(entry.get("load"))
    after = _int(entry.get("load_after"))
    return after - before if before is not None and after is not None else 0
