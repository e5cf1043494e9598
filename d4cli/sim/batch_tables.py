"""The batch engine's tables: every choice of the simulator's policy, decided once per setup (R2, R5, R11).

The policy's choices depend on the dice only through hp and Loads, so each is a table
indexed by creature, Load and target: the move `best_move` takes, whether `can_act` holds,
whether the reaction gate allows a Team Action (`reaction_aspect`), and the two sides of
the ``weigh`` rule (`worth_reacting`: the damage a Disadvantage prevents, the damage the
reactor's own coming turn forgoes). Every entry comes from the very functions of
`d4cli.sim.policy` the reference engine calls, so both engines choose alike.

A Load indexes a table as ``load - low`` (`d4cli.sim.batch_scope.load_span`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from d4cli.fight.encounter_state import TEAM_SOURCE
from d4cli.odds.roll_odds import pool_distribution
from d4cli.rules.names import distinct_sources
from d4cli.sim.batch_effects import Effects, build_effects
from d4cli.sim.batch_scope import load_span
from d4cli.sim.policy import (
    REACTION_COST,
    Move,
    best_move,
    can_act,
    expected_damage,
    reaction_aspect,
    turn_damage,
)
from d4cli.sim.setup import Setup, named_request

Ints = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Tables:
    """One setup as arrays (C creatures in turn order, S sides, L Loads, M moves).

    Attributes:
        low / loads: the lowest Load and how many Loads the tables span.
        side_of, has_hp, hp, load, had_turn, reset, evasion: per creature (C,): the start
            state (hp 0 for a creature without hp), the Load its resets give (R1, R12).
        foe: (C, C) whether the second is a foe of the first; side_onehot: (C, S).
        members: (S, K) each side's creatures in turn order, -1 past its last.
        random_target: (C,) its target rule is ``random``; weigh_round: (C,) it weighs its
            reactions and its turn may still come this round (``weigh`` in round mode).
        can_act, react_gate: (C, L) `can_act`; a reaction's Aspect exists (R2, R11).
        move: (C, L, C) the move against that target, -1 for none (`best_move`).
        prevented: (C, L, C) expected damage a Disadvantage takes off that attack.
        forgone: (C, L, C) the reactor's turn damage lost to a reaction against that attacker.
        value, cost: (M,) the Aspect's value and Cost.
        nets: (M, 2 ** E, 2) the net Advantage of a move's roll with the set of the file's
            effects that applies (`d4cli.sim.batch_effects.code`), without and with a
            reaction's Disadvantage, each source name counted once as `act` counts them (R4,
            R11, R20).
        fx: the file's lasting effects and Team Action grants (E of them, R11, R20).
        pool_row: (M,) where a move's totals start in the rows of `totals`: the row of a
            pool of P d4s is ``pool_row[move] + P - 1`` (R5, R6).
        totals / total_low / total_first: the distribution of every pool's total, pool and
            extra dice (`d4cli.odds.roll_odds.pool_distribution`), as one increasing array:
            row r holds ``r + P(total <= low + i)`` for each i, its last entry ``r + 1``;
            total_low / total_first: (rows,) each row's lowest total and its first entry.
        round_mode: resets at each round (R12); current: the running turn's creature or -1;
            round_over: no turn runs and nobody is left to go (or round 0): a round starts
            first; order_start: where the default order looks first (R19); max_rounds.
    """

    low: int
    loads: int
    side_of: Ints
    has_hp: Flags
    hp: Ints
    load: Ints
    had_turn: Flags
    reset: Ints
    evasion: Ints
    foe: Flags
    side_onehot: Ints
    members: Ints
    random_target: Flags
    weigh_round: Flags
    can_act: Flags
    react_gate: Flags
    move: Ints
    prevented: Floats
    forgone: Floats
    value: Ints
    cost: Ints
    nets: Ints
    fx: Effects
    pool_row: Ints
    totals: Floats
    total_low: Ints
    total_first: Ints
    round_mode: bool
    current: int
    round_over: bool
    order_start: int
    max_rounds: int


def build(setup: Setup) -> Tables:
    """The `Tables` of *setup* (which `d4cli.sim.batch_scope.batch_limit` accepts)."""
    encounter = setup.encounter
    creatures = encounter.creatures
    count, sides = len(creatures), len(setup.sides)
    low, high = load_span(setup)
    loads = range(low, high + 1)
    side_of = np.array(setup.side_of, dtype=np.int64)
    moves = [move for own in setup.moves for move in own]
    first = np.cumsum([0] + [len(own) for own in setup.moves])
    chosen = np.full((count, len(loads), count), -1, dtype=np.int64)
    prevented = np.zeros((count, len(loads), count))
    for me, own in enumerate(setup.moves):
        reserve = setup.policies[me].reserve
        for index, load in enumerate(loads):
            for target in range(count):
                if side_of[target] == side_of[me]:
                    continue
                move = best_move(own, load, creatures[target].evasion, reserve)
                if move is not None:
                    chosen[me, index, target] = first[me] + own.index(move)
                    prevented[me, index, target] = _prevented(move, load, creatures[target].evasion)
    members = np.full((sides, max(setup.side_of.count(s) for s in range(sides))), -1)
    for side in range(sides):
        ours = [i for i, s in enumerate(setup.side_of) if s == side]
        members[side, : len(ours)] = ours
    round_over = encounter.current is None and encounter.next_position() is None
    fx = build_effects(encounter, round_over)
    nets = np.array(_nets(setup, fx), dtype=np.int64)
    pool_row, totals, total_low, total_first = _totals(moves, nets.max(axis=(1, 2)))
    return Tables(
        low=low,
        loads=len(loads),
        side_of=side_of,
        has_hp=np.array([c.hp is not None for c in creatures]),
        hp=np.array([c.hp or 0 for c in creatures], dtype=np.int64),
        load=np.array([c.load for c in creatures], dtype=np.int64),
        had_turn=np.array([c.had_turn for c in creatures]),
        reset=np.array([encounter.reset_to(c) for c in creatures], dtype=np.int64),
        evasion=np.array([c.evasion for c in creatures], dtype=np.int64),
        foe=side_of[:, None] != side_of[None, :],
        side_onehot=(side_of[:, None] == np.arange(sides)[None, :]).astype(np.int64),
        members=members,
        random_target=np.array([p.target == "random" for p in setup.policies]),
        weigh_round=np.array(
            [p.reaction == "weigh" and encounter.mode == "round" for p in setup.policies]
        ),
        can_act=np.array([[can_act(own, load) for load in loads] for own in setup.moves]),
        react_gate=np.array(
            [
                [reaction_aspect(p, c.aspects, load) is not None for load in loads]
                for p, c in zip(setup.policies, creatures)
            ]
        ),
        move=chosen,
        prevented=prevented,
        forgone=_forgone(setup, loads),
        value=np.array([m.value for m in moves], dtype=np.int64),
        cost=np.array([m.cost for m in moves], dtype=np.int64),
        nets=nets,
        fx=fx,
        pool_row=pool_row,
        totals=totals,
        total_low=total_low,
        total_first=total_first,
        round_mode=encounter.mode == "round",
        current=-1 if encounter.current is None else encounter.position_of(encounter.current),
        round_over=round_over,
        order_start=encounter.order_start(),
        max_rounds=setup.max_rounds,
    )


def _totals(moves: list[Move], top: Ints) -> tuple[Ints, Floats, Ints, Ints]:
    """Every pool a move can roll, 1 d4 up to its Aspect plus its highest net Advantage *top*
    (R5), with its extra dice (R6): its row, and the rows of `Tables.totals` (cumulative
    shares, each row shifted by its number so that the whole array increases)."""
    pool_row: list[int] = []
    cumulative: list[Floats] = []
    lows: list[int] = []
    firsts: list[int] = []
    entries = 0
    for move, net in zip(moves, top.tolist()):
        pool_row.append(len(lows))
        for pool in range(1, max(1, move.value + net) + 1):
            row = len(lows)
            distribution = pool_distribution(pool, move.extra)
            shares = np.cumsum(distribution.probabilities)
            shares[-1] = 1.0  # the last total takes what rounding left
            lows.append(distribution.low)
            firsts.append(entries)
            cumulative.append(row + shares)
            entries += len(shares)
    return (
        np.array(pool_row, dtype=np.int64),
        np.concatenate(cumulative),
        np.array(lows, dtype=np.int64),
        np.array(firsts, dtype=np.int64),
    )


def _prevented(attack: Move, attacker_load: int, target_evasion: int) -> float:
    """The expected damage a reaction's Disadvantage takes off *attack* (R4, R5, R11), as
    `d4cli.sim.policy.worth_reacting` computes it."""
    pool = max(1, attack.value - max(0, attacker_load) + attack.net)
    return expected_damage(pool, attack.extra, target_evasion) - expected_damage(
        max(1, pool - 1), attack.extra, target_evasion
    )


def _forgone(setup: Setup, loads: range) -> Floats:
    """(C, L, C): what a reaction costs the reactor's coming turn against that attacker's Evasion,
    as `d4cli.sim.policy.worth_reacting` computes it (only ``weigh`` in round mode weighs it)."""
    creatures = setup.encounter.creatures
    count = len(creatures)
    table = np.zeros((count, len(loads), count))
    if setup.encounter.mode != "round":
        return table
    for me, (own, policy) in enumerate(zip(setup.moves, setup.policies)):
        if policy.reaction != "weigh":
            continue
        for index, load in enumerate(loads):
            by_evasion = {
                evasion: turn_damage(own, load, evasion, policy.reserve)
                - turn_damage(own, load + REACTION_COST, evasion, policy.reserve)
                for evasion in {c.evasion for c in creatures}
            }
            for attacker, other in enumerate(creatures):
                table[me, index, attacker] = by_evasion[other.evasion]
    return table


def _nets(setup: Setup, fx: Effects) -> list[list[list[int]]]:
    """Each move's net Advantage for every set of the file's effects (a `code`), without and
    with a reaction's Disadvantage (source ``team action``): its named action's sources and
    the effects', each name counted once as `act` counts them (R4, R11, R20)."""
    encounter = setup.encounter
    effects = [effect for _, effect in fx.found]
    nets = []
    for creature, own, side in zip(encounter.creatures, setup.moves, setup.side_of):
        foe = next(c.name for c, s in zip(encounter.creatures, setup.side_of) if s != side)
        for move in own:
            request = named_request(encounter, creature.name, move.name, foe)
            by_code = []
            for code in range(2 ** len(effects)):
                applied = [e for i, e in enumerate(effects) if code >> i & 1]
                advantage = (
                    *request.advantage,
                    *(e.source for e in applied if e.grant == "advantage"),
                )
                disadvantage = (
                    *request.disadvantage,
                    *(e.source for e in applied if e.grant == "disadvantage"),
                )
                counted = len(distinct_sources(advantage)[0])
                by_code.append(
                    [
                        counted - len(distinct_sources(disadvantage)[0]),
                        counted - len(distinct_sources((*disadvantage, TEAM_SOURCE))[0]),
                    ]
                )
            nets.append(by_code)
    return nets
