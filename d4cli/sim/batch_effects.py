"""Lasting effects and Team Action grants in the batch engine (R4, R11, R20).

The simulator's policy never adds an effect: the only effects of a fight it plays are those
the file holds (a file's pending Team Action grants are among them, one-roll effects on the
receiver's own rolls). So each run's effects are two arrays over the file's E effects: which
still last (``active``) and the rolls each ``uses`` effect has left (``uses``). Their rules:

* a roll counts the attacker's ``own`` effects and the target's ``against`` effects that
  still last, each source name once among the move's own sources (R4): `Effects.code` names
  which of the E apply, and `d4cli.sim.batch_tables.Tables.nets` holds each move's net
  Advantage for every such set, with and without a reaction's Disadvantage;
* a roll uses them (``uses`` counts down, the last use ends the effect, R11, R20);
* a turn start ends the effects timed to the start of that creature's turn, a turn end those
  timed to its end, and a round's end those whose rounds are over and those timed to the turn
  of a creature that was down and skipped in that round (R18, R20);
* a reaction's grant (source ``team action``, Disadvantage) is refused when the attacker
  holds an effect of that name granting Advantage, or a lasting effect (not a grant) of it
  granting Disadvantage (R11, R20; the reference's `d4cli.fight.team.team` raises): nobody
  reacts to that attack.

Each is the array form of `d4cli.fight.effects` and `d4cli.fight.effect_transitions`;
tests/sim/test_batch_rules.py holds them to the reference on the same states.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from d4cli.fight.effects import Effect
from d4cli.fight.encounter_state import TEAM_SOURCE, Encounter
from d4cli.rules.names import fold_name, source_key

Ints = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]

# Above any round: the last round of an effect that no round's end ends.
_NEVER = np.iinfo(np.int64).max


@dataclass(frozen=True)
class Effects:
    """The file's effects as arrays (E effects, in turn order of their creatures, C creatures).

    Attributes:
        found: the effects themselves, with the position of the creature each sits on.
        relevant: (C, C, E) the effect applies to an attack of the first creature on the
            second (the attacker's ``own``, the target's ``against``).
        blocks: (C, E) the effect, on that creature, refuses a reaction's grant to it.
        bits: (E,) each effect's bit in a `code`.
        uses: (E,) the rolls a ``uses`` effect has left, 0 for any other.
        at_start / at_end: (E,) the creature whose turn start / end ends it, -1 for none.
        last_round: (E,) the round whose end ends it (``rounds``), else above any round.
        skipped: (E,) the creature whose skipped turn ends it at a round's end (``start`` and
            ``end``), -1 for none; from_round: (E,) the first round that may end it so.
        round_base: the file's round before the simulator's round 1: the simulator's round r is
            the encounter's round ``round_base + r``.
    """

    found: tuple[tuple[int, Effect], ...]
    relevant: Flags
    blocks: Flags
    bits: Ints
    uses: Ints
    at_start: Ints
    at_end: Ints
    last_round: Ints
    skipped: Ints
    from_round: Ints
    round_base: int

    @property
    def count(self) -> int:
        return len(self.found)


def file_effects(encounter: Encounter) -> tuple[tuple[int, Effect], ...]:
    """Every effect of *encounter* with the position of its creature, in turn order."""
    return tuple(
        (position, effect)
        for position, creature in enumerate(encounter.creatures)
        for effect in creature.effects
    )


def build_effects(encounter: Encounter, round_over: bool) -> Effects:
    """The `Effects` of *encounter*; *round_over*: no turn runs and nobody is left to go."""
    found = file_effects(encounter)
    count = len(encounter.creatures)
    position = {fold_name(c.name): i for i, c in enumerate(encounter.creatures)}

    def timed(effect: Effect, ends: tuple[str, ...]) -> int:
        if effect.ends not in ends or effect.creature is None:
            return -1
        return position.get(fold_name(effect.creature), -1)

    holder = np.array([p for p, _ in found], dtype=np.int64).reshape(-1)
    against = np.array([e.on == "against" for _, e in found], dtype=bool).reshape(-1)
    creatures = np.arange(count)
    own_of = (holder[None, :] == creatures[:, None]) & ~against[None, :]  # (C, E)
    against_of = (holder[None, :] == creatures[:, None]) & against[None, :]
    team_key = source_key(TEAM_SOURCE)
    refuses = np.array(
        [
            e.key == team_key and (e.grant != "disadvantage" or e.origin == "effect")
            for _, e in found
        ],
        dtype=bool,
    ).reshape(-1)
    # A file before round 1 starts it; else a round running is the simulator's round 1.
    base = 0 if encounter.round == 0 else encounter.round - (0 if round_over else 1)
    return Effects(
        found=found,
        relevant=own_of[:, None, :] | against_of[None, :, :],
        blocks=(holder[None, :] == creatures[:, None]) & refuses[None, :],
        bits=(1 << np.arange(len(found), dtype=np.int64)),
        uses=np.array(
            [(e.uses or 0) if e.ends == "uses" else 0 for _, e in found], dtype=np.int64
        ).reshape(-1),
        at_start=np.array([timed(e, ("start",)) for _, e in found], dtype=np.int64).reshape(-1),
        at_end=np.array([timed(e, ("end",)) for _, e in found], dtype=np.int64).reshape(-1),
        last_round=np.array(
            [
                e.last_round if e.ends == "rounds" and e.last_round is not None else _NEVER
                for _, e in found
            ],
            dtype=np.int64,
        ).reshape(-1),
        skipped=np.array([timed(e, ("start", "end")) for _, e in found], dtype=np.int64).reshape(
            -1
        ),
        from_round=np.array([e.from_round or 0 for _, e in found], dtype=np.int64).reshape(-1),
        round_base=base,
    )


def code(fx: Effects, active: Flags, who: Ints, target: Ints) -> Ints:
    """Each attack's set of effects that apply (R20), as a number: the bits of `Effects.bits`
    of the effects still lasting (*active*, (n, E)) that are *who*'s ``own`` or *target*'s
    ``against``."""
    found: Ints = (active & fx.relevant[who, target]) @ fx.bits
    return found


def refused(fx: Effects, active: Flags, who: Ints) -> Flags:
    """Whether a reaction's grant to each attacker *who* is refused by an effect it holds (R11, R20)."""
    found: Flags = np.any(active & fx.blocks[who], axis=1)
    return found


def use(fx: Effects, active: Flags, uses: Ints, who: Ints, target: Ints) -> None:
    """One roll of each *who* on *target* (rows of *active* and *uses*, changed in place): the
    ``uses`` effects it applied to count down, and the last use ends one (R11, R20)."""
    applied = active & fx.relevant[who, target] & (fx.uses > 0)
    uses -= applied
    active &= ~(applied & (uses <= 0))


def end_at_turn(ends: Ints, active: Flags, me: Ints) -> None:
    """The start or end of each row's turn of *me* ends the effects timed to it (*ends*:
    `Effects.at_start` or `Effects.at_end`; *active* changed in place, R20)."""
    active &= ends[None, :] != me[:, None]


def end_at_round(fx: Effects, active: Flags, closing: Ints, skipped: Flags) -> None:
    """The end of round *closing* (each row's, in the encounter's numbering) ends the effects
    whose rounds are over, and those timed to the turn of a creature in *skipped* ((n, C): down
    and without a turn in that round, R18) that were in force in it (R20). In place."""
    over = fx.last_round[None, :] <= closing[:, None]
    timed = fx.skipped >= 0
    whose = np.take_along_axis(
        skipped, np.broadcast_to(np.maximum(fx.skipped, 0), active.shape), axis=1
    )
    missed = timed[None, :] & whose & (fx.from_round[None, :] <= closing[:, None])
    active &= ~(over | missed)
