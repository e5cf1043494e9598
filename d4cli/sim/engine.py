"""The playtest simulator: play an encounter to the end many times, in memory (R1, R2, R11, R12, R16, R18, R19, R21).

Every fight goes through the same pure transitions as the commands
(`d4cli.fight.turns.start_turn` / `end_turn`, `d4cli.fight.actions.act`, `d4cli.fight.team.team`), with the
choices of `d4cli.sim.policy`; nothing touches the store or a file. A fight ends
when one side is left with a creature up (R21, `d4cli.fight.sides.fight_end`) or, as a draw, when
``max_rounds`` rounds have been played (counted from the file's state: its
running turn goes on, its running round is round 1). Each run's dice come
from its own seed, derived from ``(seed, mode, run index)``, and every figure
is an integer sum (`Tally`), so splitting the runs over processes
(`d4cli.sim.pieces.run_all`) never changes the result.

`d4cli.sim.setup.prepare` checks an encounter and sets it up for one mode; `play` plays
one fight of that setup. It looks up (per setup, in its ``memo``) the policy's pure
choices and the requests built from them, and follows the rounds through each turn
end's record; `BatchedDice` hands a pool's dice in one call and is reseeded for each
run. The records of the transitions stay complete and identical (a recorded trace of
seeded fights checks it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from d4cli.fight import actions, team, turns
from d4cli.fight.actions import ActRequest
from d4cli.fight.closed_sets import GrantKind
from d4cli.fight.encounter_state import Encounter
from d4cli.fight.sides import FightEnd, fight_end
from d4cli.fight.team import TeamRequest
from d4cli.rules.errors import InputError
from d4cli.sim.batched_dice import BatchedDice
from d4cli.sim.policy import (
    MAX_ACTIONS,
    best_move,
    can_act,
    choose_target,
    reaction_aspect,
    worth_reacting,
)
from d4cli.sim.setup import Memo, Setup, named_request
from d4cli.sim.tally import CREATURE_SUMS as CREATURE_SUMS  # re-exported: the tally's own module
from d4cli.sim.tally import FIGURES as FIGURES
from d4cli.sim.tally import Fight as Fight
from d4cli.sim.tally import Tally as Tally


def run_seed(seed: int, mode: str, index: int) -> str:
    """The seed of run *index* of *mode*: the same whichever process plays it."""
    return f"{seed}/{mode}/{index}"


def play(
    setup: Setup, rng: BatchedDice, memo: Memo | None = None, fight: Fight | None = None
) -> tuple[int | None, list[int], dict[int, int]]:
    """Play one fight from the setup's state to its end (R21) or to ``max_rounds`` (a draw).

    A turn running in the state goes on first (its creature takes the actions
    it still can), then the order goes on (R19); a round running counts as
    round 1, and a state before round 1 starts it. With three sides or more
    the fight goes on until one side is left with a creature up: it wins.

    *memo* (one dict per *setup*, shared by its runs) keeps the policy's pure
    choices and the requests built from them, so that a repeated situation
    (same creature, Load and target) is looked up rather than decided again:
    keys ``(creature, load)`` say whether it can act at all, ``("react", ally, load,
    attacker, attacker's load, Evasion, had its turn)`` hold its reaction,
    ``(creature, load, target, evasion)`` its action (a memo given another setup
    starts afresh).

    *fight*, when given, is filled with each creature's damage dealt and whether it
    ended down (`Fight`); the result is the same with or without it.

    Returns:
        ``(winner side or None, figures, loads)`` (None: a draw, or a fight over with
        no winner, R21): figures as `FIGURES` then the
        damage each side dealt; loads counts turns by their starting Load
        (the running turn of the state has none).
    """
    if memo is None or memo.get("setup") is not setup:  # a memo serves one setup only
        memo = {} if memo is None else memo
        memo.clear()
        memo["setup"] = setup
    run = _Run(setup, rng, memo, setup.encounter)
    # A file saved mid-turn goes on with that turn; a round running counts as round 1.
    running = run.encounter.current is not None
    # Then the rounds go as each turn end says (R19).
    round_over = not running and run.encounter.next_position() is None
    rounds = 0 if round_over else 1
    while True:
        if round_over:
            if rounds >= setup.max_rounds:
                break
            rounds += 1
        me = run.begin_turn(running)
        running = False
        run.take_turn(me)
        if run.end is not None:
            break
        run.encounter, turn_end = turns.end_turn(run.encounter)
        round_over = turn_end.round_over
    if fight is not None:
        fight.dealt = run.dealt
        fight.down = [1 if c.down else 0 for c in run.encounter.creatures]
    figures = [rounds, run.turns, run.actions, run.reactions, run.stuck, *run.damage]
    return (None if run.end is None else run.end.winner), figures, run.loads


# A memo entry not looked up yet (None is a decided "no").
_UNKNOWN = object()


@dataclass
class _Run:
    """One fight in play (`play`): the encounter as it stands and the figures so far.

    Attributes:
        damage / dealt: hp taken off (R16) by each side's attacks and by each creature's.
        loads: turns by their starting Load.
        end: the end of the fight (R21, `fight_end` over the sides' numbers), once it is over.
    """

    setup: Setup
    rng: BatchedDice
    memo: Memo
    encounter: Encounter
    damage: list[int] = field(init=False)
    dealt: list[int] = field(init=False)
    loads: dict[int, int] = field(default_factory=dict)
    turns: int = 0
    actions: int = 0
    reactions: int = 0
    stuck: int = 0
    end: FightEnd[int] | None = None

    def __post_init__(self) -> None:
        sides, side_of = range(len(self.setup.sides)), self.setup.side_of
        self.damage = [0 for _ in sides]
        self.dealt = [0 for _ in side_of]
        self.position_of = {c.name: i for i, c in enumerate(self.encounter.creatures)}
        self.foes = [tuple(i for i, s in enumerate(side_of) if s != side) for side in sides]
        self.members = [tuple(i for i, s in enumerate(side_of) if s == side) for side in sides]

    def begin_turn(self, running: bool) -> int:
        """The creature whose turn goes on (*running*: the file's own, whose start Load is not
        known here) or starts now (R1, R12, R19); a turn it cannot act in is stuck (R2)."""
        if not running:
            self.encounter, _ = turns.start_turn(self.encounter)
        current = self.encounter.current
        assert current is not None  # a turn runs
        me = self.position_of[current]
        load = self.encounter.creatures[me].load
        if not running:
            self.loads[load] = self.loads.get(load, 0) + 1
        self.turns += 1
        able = self.memo.get((me, load), _UNKNOWN)
        if able is _UNKNOWN:
            able = self.memo[(me, load)] = can_act(self.setup.moves[me], load)
        if not able:
            self.stuck += 1
        return me

    def take_turn(self, me: int) -> None:
        """*me* attacks while an action qualifies and a foe is up, at most `MAX_ACTIONS` times
        (R2); each attack may meet a reaction (R11). Stops when the fight is over (R21)."""
        targets, rule = self.foes[self.setup.side_of[me]], self.setup.policies[me].target
        for _ in range(MAX_ACTIONS):
            creatures = self.encounter.creatures
            target = choose_target(rule, targets, creatures, self.rng)
            if target is None:
                return
            now, evasion = creatures[me].load, creatures[target].evasion
            key = (me, now, target, evasion)
            request = self.memo.get(key, _UNKNOWN)
            if request is _UNKNOWN:
                request = self.memo[key] = _act_request(self.setup, me, now, target, evasion)
            if request is None:
                return
            self.react(me, now, target, evasion)
            self.attack(me, request, target)
            if self.end is not None:
                return

    def react(self, attacker: int, attacker_load: int, target: int, evasion: int) -> None:
        """The first creature of *target*'s side that is up and whose reaction rule says yes
        imposes Disadvantage on *attacker* with a Team Action (R11, `_team_request`); none
        when *attacker* holds the grant's name with the other grant (one effect per source
        name, R20), as the command would refuse it."""
        creatures = self.encounter.creatures
        for ally in self.members[self.setup.side_of[target]]:
            other = creatures[ally]
            if other.down:
                continue
            # Keyed by all a reaction rule weighs (`worth_reacting`): a 7-tuple, apart from the other keys.
            key = ("react", ally, other.load, attacker, attacker_load, evasion, other.had_turn)
            request = self.memo.get(key, _UNKNOWN)
            if request is _UNKNOWN:
                request = self.memo[key] = _team_request(
                    self.setup, ally, other.load, attacker, attacker_load, evasion, other.had_turn
                )
            if request is not None:
                try:
                    self.encounter, _ = team.team(self.encounter, request)
                except InputError:  # a grant the attacker cannot hold (R11, R20): no reaction
                    return
                self.reactions += 1
                return

    def attack(self, me: int, request: ActRequest, target: int) -> None:
        """*me* acts on *target* (`d4cli.fight.actions.act`): the hp taken off counts for its side
        (R16); a target taken down may end the fight (R21)."""
        self.encounter, record = actions.act(self.encounter, request, self.rng)
        self.actions += 1
        side_of = self.setup.side_of
        lost = (record.hp_before or 0) - (record.hp_after or 0)
        self.damage[side_of[me]] += lost
        self.dealt[me] += lost
        if record.hp_after == 0:
            self.end = fight_end(zip(side_of, (not c.down for c in self.encounter.creatures)))


def _act_request(setup: Setup, me: int, load: int, target: int, evasion: int) -> ActRequest | None:
    """The action *me* takes at *load* against *target* (`best_move`), or None: none qualifies.

    The request is the command's (`named_request`); its extra dice are the move's own (equal values).
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
    return TeamRequest(creature.name, attacker_name, GrantKind.DISADVANTAGE, aspect=aspect)


def run_chunk(setup: Setup, seed: int, mode: str, start: int, stop: int) -> Tally:
    """Play runs *start* to *stop* - 1 of *mode*, each with its own seed (`run_seed`)."""
    tally = Tally(len(setup.sides), creatures=len(setup.side_of))
    memo: Memo = {}
    dice = BatchedDice(random.Random())
    fight = Fight()
    for index in range(start, stop):
        winner, figures, loads = play(setup, dice.reseed(run_seed(seed, mode, index)), memo, fight)
        tally.add_run(winner, figures, loads)
        tally.add_creatures(fight, setup.side_of, figures)
    return tally
