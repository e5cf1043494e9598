"""The playtest simulator: play an encounter to the end many times, in memory (R1, R2, R11, R12, R16, R18, R19).

Every fight goes through the same pure transitions as the commands
(`d4cli.fight.turns.start_turn` / `end_turn`, `d4cli.fight.actions.act` / `team`), with the
choices of `d4cli.sim.policy`; nothing touches the store or a file. A fight ends
when one side is left with a creature with hp up (R18) or, as a draw, when
``max_rounds`` rounds have been played (counted from the file's state: its
running turn goes on, its running round is round 1). Each run's dice come
from its own seed, derived from ``(seed, mode, run index)``, and every figure
is an integer sum (`Tally`), so splitting the runs over processes
(`d4cli.sim.pieces.run_all`) never changes the result.

Speed without a second rules engine: `play` looks up (per setup, in its
``memo``) the policy's pure choices and the requests built from them, and
follows the rounds through each turn end's record; the transitions themselves
find names as written before folding them, plan a pool and check a gate once
per key, skip the effect bookkeeping when no creature has effects, and
change each creature once and copy the encounter once per change
(`_replace` of the named-tuple records); `BatchedDice` hands a pool's dice in one call and
is reseeded for each run. Their records stay complete and identical (a
recorded trace of seeded fights checks it). There is no lean record mode: building every record of the four
transitions was measured at under a tenth of the time (skipping them all made
the skirmish only about 7% faster), so a mode that skipped them would not
change the picture and would fork the transitions' code.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from d4cli.rules.errors import InputError
from d4cli.sim.dice import BatchedDice as BatchedDice  # the dice of every run, re-exported
from d4cli.sim.policy import (
    MAX_ACTIONS,
    Move,
    Policy,
    best_move,
    can_act,
    make_policy,
    reaction_aspect,
    worth_reacting,
)
from d4cli.sim.tally import CREATURE_SUMS as CREATURE_SUMS  # re-exported: the tally's own module
from d4cli.sim.tally import FIGURES as FIGURES
from d4cli.sim.tally import Fight as Fight
from d4cli.sim.tally import Tally as Tally

if TYPE_CHECKING:
    from d4cli.fight.actions import ActRequest, TeamRequest
    from d4cli.fight.encounter import Encounter

# The modes a fight can be played in: name -> (mode, round_reset) (R12).
MODES: dict[str, tuple[str, str]] = {
    "turn": ("turn", "buffer"),
    "round": ("round", "buffer"),
    "round-zero": ("round", "zero"),
}
MAX_RUNS = 10_000_000


@dataclass(frozen=True)
class Setup:
    """One encounter ready to play in one mode: the start state and each creature's plan.

    Attributes:
        encounter: the start state, with the mode set (R12).
        sides: side names in order of first appearance.
        side_of: each creature's side index, in turn order.
        moves: each creature's named actions as `Move`s.
        policies: each creature's `Policy`.
        max_rounds: a fight still running after this many rounds is a draw.
    """

    encounter: Encounter
    sides: tuple[str, ...]
    side_of: tuple[int, ...]
    moves: tuple[tuple[Move, ...], ...]
    policies: tuple[Policy, ...]
    max_rounds: int


def prepare(
    encounter: Encounter,
    mode: str,
    *,
    max_rounds: int = 100,
    target: str | None = None,
    reserve: int | None = None,
    buffer: int | None = None,
) -> Setup:
    """Check *encounter* for simulation and set it up for *mode* (`MODES`).

    *target* / *reserve* override every creature's policy; *buffer* sets every
    Load Buffer (R1).

    Raises:
        InputError: an unknown mode; fewer than two sides; a creature without a
            side; a side without a creature that has hp, or with every such
            creature down (R18: the fight is over); a creature with no named
            action it could ever afford (R2), or with only actions that have a
            DC (a check, not an attack: the policy never takes them, R7).
    """
    if mode not in MODES:
        raise InputError("--modes", mode, "unknown mode; one of " + ", ".join(MODES))
    kind, reset = MODES[mode]
    creatures = encounter.creatures
    if buffer is not None:
        creatures = tuple(c._replace(load_buffer=buffer) for c in creatures)
    sides: list[str] = []
    side_of: list[int] = []
    for creature in creatures:
        if not creature.side:
            raise InputError(
                "side", creature.name, "has no side: the simulator needs every creature on one"
            )
        if creature.side not in sides:
            sides.append(creature.side)
        side_of.append(sides.index(creature.side))
    if len(sides) < 2:
        raise InputError("side", ", ".join(sides) or None, "the simulator needs at least two sides")
    for number, side in enumerate(sides):
        if not any(c.hp is not None for c, s in zip(creatures, side_of) if s == number):
            raise InputError("side", side, "has no creature with hp: it could never lose (R18)")
        if not any(
            c.hp is not None and c.hp > 0 for c, s in zip(creatures, side_of) if s == number
        ):
            over = (
                "the fight is already over"
                if len(sides) == 2
                else "it is out before the fight starts"
            )
            raise InputError(
                "side", side, f"has every creature with hp down: {over} (R18); heal one to simulate"
            )
    all_moves = []
    for creature, own in zip(creatures, side_of):
        values = dict(creature.aspects)
        foe = next(c.name for c, s in zip(creatures, side_of) if s != own)
        attacks = [
            a for a in creature.actions if a.dc is None
        ]  # an action with a DC is a check (R7)
        if creature.actions and not attacks:
            raise InputError(
                "actions",
                creature.name,
                "has only actions with a DC: the simulator needs one that attacks (R7)",
            )
        moves = tuple(
            _move(named_request(encounter, creature.name, a.name, foe), values) for a in attacks
        )
        best_load = min(0 if reset == "zero" else creature.reset_value, creature.load)
        if not can_act(moves, best_load):
            raise InputError(
                "actions", creature.name, "has no named action it could ever afford (R2)"
            )
        all_moves.append(moves)
    policies = tuple(make_policy(c.policy, target=target, reserve=reserve) for c in creatures)
    start = encounter._replace(mode=kind, round_reset=reset, creatures=creatures)
    if (
        start.current is not None and start.find(start.current).down
    ):  # a down creature's turn only ends
        from d4cli.fight.turns import end_turn

        start, _ = end_turn(start)
    return Setup(start, tuple(sides), tuple(side_of), tuple(all_moves), policies, max_rounds)


def named_request(encounter: Encounter, actor: str, action: str, target: str) -> ActRequest:
    """The request of ``d4cli act ACTOR ACTION --target TARGET``: the very function the command uses.

    Its named action fills the Aspect, Cost, extra dice and Advantage /
    Disadvantage sources (R3, R4, R6); `act` adds the effects and Team Action
    grants to those sources and counts each name once, as for the command.
    """
    from d4cli.fight.actions import ActRequest
    from d4cli.fight.sheets import apply_named_action

    return apply_named_action(encounter, ActRequest(actor, action, target=target), frozenset())


def _move(request: ActRequest, values: dict[str, int]) -> Move:
    """The policy's view of a named action's request: its net sources counted as `act` counts them (R4)."""
    from d4cli.rules.names import distinct_sources

    net = len(distinct_sources(request.advantage)[0]) - len(
        distinct_sources(request.disadvantage)[0]
    )
    return Move(
        request.action or request.aspect,
        request.aspect,
        values[request.aspect],
        request.cost,
        request.extra,
        net,
    )


def run_seed(seed: int, mode: str, index: int) -> str:
    """The seed of run *index* of *mode*: the same whichever process plays it."""
    return f"{seed}/{mode}/{index}"


def play(
    setup: Setup, rng: BatchedDice, memo: dict | None = None, fight: Fight | None = None
) -> tuple[int | None, list[int], dict[int, int]]:
    """Play one fight from the setup's state to the end (R18) or to ``max_rounds`` (a draw).

    A turn running in the state goes on first (its creature takes the actions
    it still can), then the order goes on (R19); a round running counts as
    round 1, and a state before round 1 starts it. With three sides or more
    the fight goes on until one side is left with a creature up: it wins.

    *memo* (one dict per *setup*, shared by its runs) keeps the policy's pure
    choices and the requests built from them, so that a repeated situation
    (same creature, Load and target) is looked up rather than decided again:
    keys ``(creature, load)`` say whether it can act at all, ``(ally, load,
    attacker)`` hold its reaction, ``(creature, load, target, evasion)`` its action,
    ``"positions"`` each side's creatures (a memo given another setup starts afresh).

    *fight*, when given, is filled with each creature's damage dealt and whether it
    ended down (`Fight`); the result is the same with or without it.

    Returns:
        ``(winner side or None, figures, loads)``: figures as `FIGURES` then the
        damage each side dealt; loads counts turns by their starting Load
        (the running turn of the state has none).
    """
    from d4cli.fight.actions import act, team
    from d4cli.fight.turns import end_turn, start_turn
    from d4cli.sim.policy import choose_target

    if memo is None or memo.get("setup") is not setup:  # a memo serves one setup only
        memo = {} if memo is None else memo
        memo.clear()
        memo["setup"] = setup
    encounter = setup.encounter
    side_of, moves = setup.side_of, setup.moves
    fixed = memo.get("positions")
    if fixed is None:
        position_of = {c.name: i for i, c in enumerate(encounter.creatures)}
        foes = [
            tuple(i for i, s in enumerate(side_of) if s != side) for side in range(len(setup.sides))
        ]
        members = [
            tuple(i for i, s in enumerate(side_of) if s == side) for side in range(len(setup.sides))
        ]
        fixed = memo["positions"] = (position_of, foes, members)
    position_of, foes, members = fixed
    recall = memo.get
    damage = [0] * len(setup.sides)
    dealt = [0] * len(side_of)
    loads: dict[int, int] = {}
    turns = actions = reactions = stuck = 0
    winner: int | None = None
    standing = len(setup.sides)  # sides with a creature up (`prepare`: every one at the start)
    # A file saved mid-turn goes on with that turn; a round running counts as round 1.
    running = encounter.current is not None
    round_over = (
        not running and encounter.next_position() is None
    )  # then as each turn end says (R19)
    rounds = 0 if round_over else 1
    while True:
        if round_over:
            if rounds >= setup.max_rounds:
                break
            rounds += 1
        if running:  # the turn of the file goes on: a turn, but its start Load is not known here
            running = False
            me = position_of[encounter.current]  # type: ignore[index]
            load = encounter.creatures[me].load
        else:
            encounter, _ = start_turn(encounter)
            me = position_of[encounter.current]  # type: ignore[index]
            load = encounter.creatures[me].load
            loads[load] = loads.get(load, 0) + 1
        turns += 1
        side = side_of[me]
        able = recall((me, load))
        if able is None:
            able = memo[(me, load)] = can_act(moves[me], load)
        if not able:
            stuck += 1
        targets, rule = foes[side], setup.policies[me].target
        for _ in range(MAX_ACTIONS):
            creatures = encounter.creatures
            target = choose_target(rule, targets, creatures, rng)
            if target is None:
                break
            now, evasion = creatures[me].load, creatures[target].evasion
            request = recall((me, now, target, evasion), _UNKNOWN)
            if request is _UNKNOWN:
                request = memo[(me, now, target, evasion)] = _act_request(
                    setup, me, now, target, evasion
                )
            if request is None:
                break
            defended = side_of[target]
            for ally in members[defended]:
                other = creatures[ally]
                if other.down:
                    continue
                # Keyed by all a reaction rule weighs (`worth_reacting`): a 7-tuple, apart from the other keys.
                key = ("react", ally, other.load, me, now, evasion, other.had_turn)
                help_request = recall(key, _UNKNOWN)
                if help_request is _UNKNOWN:
                    help_request = memo[key] = _team_request(
                        setup, ally, other.load, me, now, evasion, other.had_turn
                    )
                if help_request is not None:
                    encounter, _ = team(encounter, help_request)
                    reactions += 1
                    break
            encounter, record = act(encounter, request, rng)
            actions += 1
            lost = (record.hp_before or 0) - (record.hp_after or 0)
            damage[side] += lost
            dealt[me] += lost
            if record.hp_after == 0 and _beaten(encounter, side_of, defended):
                standing -= 1
                if standing == 1:  # the last side with a creature up wins (R18)
                    winner = side
                    break
        if winner is not None:
            break
        encounter, turn_end = end_turn(encounter)
        round_over = turn_end.round_over
    if fight is not None:
        fight.dealt = dealt
        fight.down = [1 if c.down else 0 for c in encounter.creatures]
    return winner, [rounds, turns, actions, reactions, stuck, *damage], loads


# A memo entry not looked up yet (None is a decided "no").
_UNKNOWN = object()


def _act_request(setup: Setup, me: int, load: int, target: int, evasion: int) -> ActRequest | None:
    """The action *me* takes at *load* against *target* (`best_move`), or None: none qualifies.

    The request is the command's (`named_request`); its extra dice are the
    move's own (equal values), so the pool plans of one move are shared.
    """
    move = best_move(setup.moves[me], load, evasion, setup.policies[me].reserve)
    if move is None:
        return None
    names = setup.encounter.creatures
    request = named_request(setup.encounter, names[me].name, move.name, names[target].name)
    return request._replace(extra=move.extra) if request.extra == move.extra else request


def _team_request(
    setup: Setup,
    ally: int,
    load: int,
    attacker: int,
    attacker_load: int = 0,
    target_evasion: int = 0,
    had_turn: bool = True,
) -> TeamRequest | None:
    """The reaction *ally* at *load* makes against *attacker* (R11), or None: none allowed, none set,
    or not worth its cost (`d4cli.sim.policy.worth_reacting`)."""
    from d4cli.fight.actions import TeamRequest

    creature = setup.encounter.creatures[ally]
    policy = setup.policies[ally]
    aspect = reaction_aspect(policy, creature.aspects, load)
    if aspect is None:
        return None
    if policy.reaction == "weigh":
        # In round mode a creature that has not had its turn plays it with the Load it has now (R12).
        to_come = setup.encounter.mode == "round" and not had_turn
        attack = best_move(
            setup.moves[attacker], attacker_load, target_evasion, setup.policies[attacker].reserve
        )
        evasion = setup.encounter.creatures[attacker].evasion
        if attack is not None and not worth_reacting(
            policy, to_come, setup.moves[ally], load, attack, attacker_load, target_evasion, evasion
        ):
            return None
    attacker_name = setup.encounter.creatures[attacker].name
    return TeamRequest(creature.name, attacker_name, "disadvantage", aspect=aspect)  # type: ignore[arg-type]


def _beaten(encounter: Encounter, side_of: tuple[int, ...], side: int) -> bool:
    """No creature of *side* that has hp is up (R18)."""
    return not any(
        s == side and c.hp is not None and c.hp > 0 for c, s in zip(encounter.creatures, side_of)
    )


def run_chunk(setup: Setup, seed: int, mode: str, start: int, stop: int) -> Tally:
    """Play runs *start* to *stop* - 1 of *mode*, each with its own seed (`run_seed`)."""
    tally = Tally(len(setup.sides), creatures=len(setup.side_of))
    memo: dict = {}
    dice = BatchedDice(random.Random())
    fight = Fight()
    for index in range(start, stop):
        winner, figures, loads = play(setup, dice.reseed(run_seed(seed, mode, index)), memo, fight)
        tally.add_run(winner, figures, loads)
        tally.add_creatures(fight, setup.side_of, figures)
    return tally
