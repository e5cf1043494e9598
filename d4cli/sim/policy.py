"""The playtest simulator's policy: what a creature does on and off its turn (R2, R5, R7, R11).

Pure: plain data in, a choice out; randomness only from the injected source.
The policy (stated by ``d4cli help simulate``):

* On its turn a creature picks a target among the enemies that have hp and are
  not down: ``lowest-hp`` (fewest hp left, ties to the first in turn order) or
  ``random``. It takes the named action (one without a DC: that is a check)
  with the highest expected damage against that target's Evasion (exact odds,
  its pool counting the action's own net Advantage, R4-R7; ties to the first listed)
  among those the gate allows (R2) that leave at least ``reserve`` headroom
  (``Aspect - Load - Cost >= reserve``). It repeats, picking a target each time,
  until no action qualifies, no enemy is up, or `MAX_ACTIONS` actions.
* Off its turn, when an enemy attacks a creature of its side, the first creature
  of that side in turn order (not down, ``reaction`` not ``none``) whose gate
  allows a Team Action of Cost 1 and whose reaction rule says yes imposes
  Disadvantage on the attacker (R11); the Aspect that pays is ``reaction`` (an
  Aspect name) or, for ``weigh``, ``always`` and ``best``, the Aspect with the
  most headroom. A reaction may spend the reserve: that is what the reserve is
  kept for. ``always``, ``best`` and an Aspect name react whenever the gate
  allows; ``weigh`` (the default) weighs the cost (`worth_reacting`): it reacts
  when the headroom it spends is not needed for its own turn still to come this
  round, or when the expected damage the Disadvantage prevents exceeds the
  expected damage its own coming turn forgoes.

A creature's file table ``policy = { target = "random", reserve = 1, reaction = "Wits" }``
sets its own; `check_policy` validates it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from d4cli.fight.policy_table import PolicyTable
from d4cli.odds.roll_odds import expected_pool_damage
from d4cli.rules.dice import ExtraDice

# At most this many actions in one turn (a Cost-0 action would otherwise never stop).
MAX_ACTIONS = 20
# The Cost of a reaction: a Team Action imposing Disadvantage (R11).
REACTION_COST = 1


class TargetDice(Protocol):
    """The dice of the ``random`` target rule: ``randrange(n)`` is uniform over 0..n-1
    (`d4cli.sim.batched_dice.BatchedDice` passes it to its ``random.Random``)."""

    def randrange(self, stop: int, /) -> int: ...


@dataclass(frozen=True)
class Policy:
    """How one creature plays.

    Attributes:
        target: ``lowest-hp`` or ``random``.
        reserve: headroom kept on its own turn, 0 or more.
        reaction: ``weigh`` (the default), ``always``, ``best`` (the same as ``always``),
            ``none`` or the name of the Aspect that pays for a reaction (always).
    """

    target: str = "lowest-hp"
    reserve: int = 0
    reaction: str = "weigh"


def make_policy(
    table: PolicyTable, *, target: str | None = None, reserve: int | None = None
) -> Policy:
    """The `Policy` of a creature's table; *target* and *reserve* (the command line) win."""
    values = dict(table)
    return Policy(
        target=target if target is not None else str(values.get("target", "lowest-hp")),
        reserve=reserve if reserve is not None else int(values.get("reserve", 0)),
        reaction=str(values.get("reaction", "weigh")),
    )


@lru_cache(maxsize=4096)
def expected_damage(pool: int, extra: tuple[ExtraDice, ...], evasion: int) -> float:
    """``E[max(0, total - evasion)]`` of *pool* d4s plus *extra* (R5-R7), exact, cached per key."""
    return expected_pool_damage(pool, evasion, extra)


@dataclass(frozen=True)
class Move:
    """A named action as the simulator plays it: the Aspect's value, Cost, dice and net sources."""

    name: str
    aspect: str
    value: int
    cost: int
    extra: tuple[ExtraDice, ...]
    net: int  # the action's own Advantage minus Disadvantage sources (R4)


def best_move(moves: tuple[Move, ...], load: int, evasion: int, reserve: int) -> Move | None:
    """The move with the highest expected damage that the gate allows keeping *reserve* (R2, R5).

    Ties go to the first listed; None when none qualifies.
    """
    best: Move | None = None
    best_value = -1.0
    for move in moves:
        if move.value - load - move.cost < reserve:
            continue
        pool = max(1, move.value - max(0, load) + move.net)
        value = expected_damage(pool, move.extra, evasion)
        if value > best_value:
            best, best_value = move, value
    return best


def can_act(moves: tuple[Move, ...], load: int) -> bool:
    """Whether the gate allows any of *moves* at *load* (R2)."""
    return any(move.value - load >= move.cost for move in moves)


def reaction_aspect(policy: Policy, aspects: tuple[tuple[str, int], ...], load: int) -> str | None:
    """The Aspect that pays for a reaction now (R2, R11), or None: none allowed or none set."""
    if policy.reaction == "none":
        return None
    if policy.reaction not in ("best", "always", "weigh"):
        for name, value in aspects:
            if name == policy.reaction:
                return name if value - load >= REACTION_COST else None
        return None
    best = max(aspects, key=lambda pair: pair[1], default=None)
    if best is None or best[1] - load < REACTION_COST:
        return None
    return best[0]


def pick_target(rule: str, candidates: list[tuple[int, int]], rng: TargetDice) -> int:
    """The position chosen among *candidates* ``(position, hp)``: fewest hp (first on ties) or random."""
    if rule == "random":
        return candidates[rng.randrange(len(candidates))][0]
    return min(candidates, key=_hp)[0]


def choose_target(
    rule: str, positions: tuple[int, ...], creatures: Sequence[Any], rng: TargetDice
) -> int | None:
    """`pick_target` among the *creatures* at *positions* (anything with an ``hp``) whose hp is above 0; None: none is.

    ``lowest-hp`` is one pass, without building the candidates; ``random`` draws as `pick_target` does.
    """
    if rule == "random":
        candidates = [(i, hp) for i in positions if (hp := creatures[i].hp) is not None and hp > 0]
        return pick_target(rule, candidates, rng) if candidates else None
    best: int | None = None
    lowest = 0
    for i in positions:
        hp = creatures[i].hp
        if hp is not None and hp > 0 and (best is None or hp < lowest):
            best, lowest = i, hp
    return best


def _hp(candidate: tuple[int, int]) -> int:
    return candidate[1]


def turn_damage(moves: tuple[Move, ...], load: int, evasion: int, reserve: int) -> float:
    """The expected damage of a whole turn from *load*: the best move again and again while one qualifies
    (`best_move`, R2, R5-R8), against one *evasion*, at most `MAX_ACTIONS` actions."""
    total = 0.0
    for _ in range(MAX_ACTIONS):
        move = best_move(moves, load, evasion, reserve)
        if move is None:
            break
        total += expected_damage(max(1, move.value - max(0, load) + move.net), move.extra, evasion)
        load += move.cost
    return total


def worth_reacting(
    policy: Policy,
    own_turn_to_come: bool,
    own_moves: tuple[Move, ...],
    load: int,
    attack: Move,
    attacker_load: int,
    target_evasion: int,
    attacker_evasion: int,
) -> bool:
    """Whether a creature whose gate allows a reaction makes it (R11), by its ``reaction`` rule.

    ``weigh``: yes when its own turn is not still to come this round with this
    Load (*own_turn_to_come* false: it had its turn, or its turn starts with a
    reset, R1, R12), or when the expected damage the Disadvantage prevents (the
    *attack* from *attacker_load* against *target_evasion*, with its pool and
    with one die fewer, R4, R5) exceeds what its own coming turn forgoes: its
    `turn_damage` at *load* minus at *load* + 1 (the Cost of the reaction),
    against *attacker_evasion*. Every other rule: always yes.
    """
    if policy.reaction != "weigh" or not own_turn_to_come:
        return True
    pool = max(1, attack.value - max(0, attacker_load) + attack.net)
    prevented = expected_damage(pool, attack.extra, target_evasion) - expected_damage(
        max(1, pool - 1), attack.extra, target_evasion
    )
    forgone = turn_damage(own_moves, load, attacker_evasion, policy.reserve) - turn_damage(
        own_moves, load + REACTION_COST, attacker_evasion, policy.reserve
    )
    return prevented > forgone
