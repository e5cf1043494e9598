"""Recap: the figures of a fight from its journal, pure (R2, R8, R10, R11, R16, R18).

A `Tally` starts from the encounter at the recap's start and is told, change by change, what
each journal entry that follows did (`d4cli.api.recap` reads the entries and the encounter as
it stood right after each, which ``d4cli.store.patch_replay`` rebuilds; only changes that stand are
there, an undone change is gone). Output: a `Recap` record of plain numbers; the shell prints it.

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

from dataclasses import dataclass, field

from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.sides import encounter_end


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


def hp_lost(hp_before: int | None, hp_after: int | None, damage: int | None = None) -> int:
    """The hp a change took off (R16): *hp_before* - *hp_after*, never below 0; where the target has
    no hp, *damage* (an act's R7 damage; None: 0)."""
    if hp_before is not None and hp_after is not None:
        return max(0, hp_before - hp_after)
    return damage or 0


def load_spent(load_before: int | None, load_after: int | None) -> int:
    """What an act or Team Action added to its actor's Load (R8; 0 for a GM-called roll, R9, or
    where either is unknown)."""
    return load_after - load_before if load_before is not None and load_after is not None else 0


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


@dataclass
class Tally:
    """The figures summed so far: per creature (in order of first appearance), the sides in order
    of first appearance, who is down, and the damage per round by side and by ``damage`` commands.

    `starting` makes one for the encounter at the recap's start; the reader of the journal
    (`d4cli.api.recap`) then counts each change it holds (`act`, `team`, `damage`, `turn_start`),
    the creatures and their downs after it (`seen`, `count_downs`), and asks for the `recap`.
    """

    figures: dict[str, CreatureFigures] = field(default_factory=dict)
    sides: list[str] = field(default_factory=list)
    down: dict[str, bool] = field(default_factory=dict)
    per_round: dict[int, dict[str, int]] = field(default_factory=dict)
    other: dict[int, int] = field(default_factory=dict)

    @classmethod
    def starting(cls, start: Encounter) -> Tally:
        """A tally with nothing counted yet, its creatures and downs those of *start*."""
        tally = cls(down={c.name: c.down for c in start.creatures})
        tally.seen(start)
        return tally

    def seen(self, encounter: Encounter) -> None:
        """Every creature of *encounter* known, with its side (in order of first appearance)."""
        for creature in encounter.creatures:
            self.of(creature.name, creature)

    def act(
        self, actor: str, round_: int, *, how: str, target: str | None, lost: int, spent: int
    ) -> None:
        """An action of *actor* (R10, R16, R8): *how* ``on``, ``off`` (its turn) or ``gm`` (a
        GM-called roll, R9); the hp it took off *target* (its side's damage in *round_*), its Load."""
        mine = self.of(actor)
        if how == "gm":
            mine.gm_called += 1
        elif how == "off":
            mine.actions_off_turn += 1
        else:
            mine.actions_on_turn += 1
        mine.damage_dealt += lost
        if target is not None:
            self.of(target).damage_taken += lost
        if lost and mine.side:
            by_side = self.per_round.setdefault(round_, {})
            by_side[mine.side] = by_side.get(mine.side, 0) + lost
        mine.load_spent += spent

    def team(self, actor: str, spent: int) -> None:
        """A Team Action given by *actor* (R11) and the Load it spent (R8)."""
        mine = self.of(actor)
        mine.team_actions += 1
        mine.load_spent += spent

    def damage(self, actor: str, round_: int, lost: int) -> None:
        """The GM's damage (R16): taken by *actor*, dealt by nobody (``other``)."""
        self.of(actor).damage_taken += lost
        if lost:
            self.other[round_] = self.other.get(round_, 0) + lost

    def turn_start(self, actor: str, after: Encounter | None) -> None:
        """A turn of *actor*, and whether it began unable to act at Cost 1 (R2, R18): its streak
        (nothing counted where the encounter after it is unknown, or lacks *actor*)."""
        starting = (
            None if after is None else next((c for c in after.creatures if c.name == actor), None)
        )
        if starting is None:
            return
        mine = self.of(actor)
        mine.turns += 1
        if can_act_at_cost_1(starting):
            mine._streak = 0
        else:
            mine.turns_unable += 1
            mine._streak += 1
            mine.longest_unable = max(mine.longest_unable, mine._streak)

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
