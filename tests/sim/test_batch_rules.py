"""Each rule the batch engine writes over arrays against the reference's own function, on the same states.

The engines agree in distribution (tests/sim/test_batch_engine.py); here each rule is held
to the reference state by state: random encounters (Hypothesis, the strategy of
test_batch_engine) put into random states of a fight (hp, Loads, who has had a turn, who
went last), each state given to the batch engine as one row of its arrays and to the
reference as an `Encounter`. The rules: the end of a fight (R21, enumerated as well), who is
down (R18), the next turn (R19), a turn's start with its round and Load resets (R1, R12),
the target (the policy's rule), the move through the gate (R2), the pool (R5), damage over
Evasion and hp (R7, R16), the Load an action costs (R8), and the reaction (R11); with the
file's lasting effects and Team Action grants (R11, R20): the net Advantage they give a roll,
the uses a roll takes off them, the reaction their names refuse, and their endings at a turn's
start and end and at a round's end (R18, R20).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from fractions import Fraction

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_batch_engine import encounters, example

from d4cli.fight import actions, team, turns
from d4cli.fight.effects import Effect
from d4cli.fight.encounter_state import Encounter
from d4cli.fight.sides import encounter_end, fight_end
from d4cli.odds.roll_odds import pool_distribution
from d4cli.rules.errors import InputError
from d4cli.sim import batch, batch_effects
from d4cli.sim.batch_tables import Tables, build
from d4cli.sim.batched_dice import BatchedDice
from d4cli.sim.engine import _act_request, _Run, _team_request
from d4cli.sim.policy import choose_target
from d4cli.sim.setup import Setup, prepare

MODE_NAMES = {
    ("turn", "buffer"): "turn",
    ("round", "buffer"): "round",
    ("round", "zero"): "round-zero",
}
SAME_STATES = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def test_the_end_of_a_fight_over_arrays_is_the_rule_on_every_small_fight():
    """Every fight of up to 4 creatures in up to 3 sides (or none), every creature up or down."""
    checked = 0
    for count in range(1, 5):
        for sides in range(1, 4):
            for side_of in itertools.product(range(-1, sides), repeat=count):
                onehot = np.array(
                    [[1 if s == side else 0 for side in range(sides)] for s in side_of],
                    dtype=np.int64,
                )
                up = np.array(list(itertools.product([False, True], repeat=count)), dtype=bool)
                over, winner = batch.fight_ends(up, onehot)
                for row, standing in enumerate(up.tolist()):
                    end = fight_end((None if s < 0 else s, u) for s, u in zip(side_of, standing))
                    assert bool(over[row]) == (end is not None), (side_of, standing)
                    expected = -1 if end is None or end.winner is None else end.winner
                    assert winner[row] == expected, (side_of, standing)
                    checked += 1
    assert checked == sum(
        (sides + 1) ** count * 2**count for count in range(1, 5) for sides in range(1, 4)
    )


EFFECT_SOURCES = ("team action", "flank", "dark", "high ground")


@st.composite
def lasting_effects(draw, names: tuple[str, ...]):
    """A few effects as a file may hold them (R11, R20): distinct source names, any grant,
    ``own`` or ``against``, each way of ending, Team Action grants among them."""
    found = []
    for source in draw(st.lists(st.sampled_from(EFFECT_SOURCES), max_size=3, unique=True)):
        grant = draw(st.sampled_from(["advantage", "disadvantage"]))
        if draw(st.integers(0, 4)) == 0:  # a pending Team Action grant
            found.append(Effect(source, grant, "own", "uses", uses=1, origin="team"))
            continue
        ends = draw(st.sampled_from(["start", "end", "rounds", "uses", "removed"]))
        timed = ends in ("start", "end")
        found.append(
            Effect(
                source,
                grant,
                draw(st.sampled_from(["own", "against"])),
                ends,
                creature=draw(st.sampled_from(names)) if timed else None,
                last_round=draw(st.integers(1, 3)) if ends == "rounds" else None,
                uses=draw(st.integers(1, 2)) if ends == "uses" else None,
                from_round=draw(st.sampled_from([None, 1, 2])) if timed else None,
            )
        )
    return tuple(found)


@st.composite
def fights(draw, with_effects: bool = False):
    """A prepared random encounter, its `Tables`, and a state of its fight in round 1 between
    turns: hp from 0 to the start's, Loads anywhere the tables span, who has had a turn and
    who went last; *with_effects*: the creatures hold lasting effects (R20)."""
    encounter, mode, reset = draw(encounters())
    if with_effects:
        names = tuple(c.name for c in encounter.creatures)
        encounter = encounter._replace(
            creatures=tuple(
                c._replace(effects=draw(lasting_effects(names))) for c in encounter.creatures
            )
        )
    try:
        setup = prepare(encounter, MODE_NAMES[(mode, reset)], max_rounds=15)
    except InputError:
        assume(False)
    t = build(setup)
    start = setup.encounter
    creatures = tuple(
        c._replace(
            hp=None if c.hp is None else draw(st.integers(0, c.hp)),
            load=draw(st.integers(t.low, t.low + t.loads - 1)),
            had_turn=draw(st.booleans()),
        )
        for c in start.creatures
    )
    last = draw(st.integers(0, len(creatures) - 1))
    state = start._replace(
        round=1, current=None, resume_at=None, last_turn=creatures[last].name, creatures=creatures
    )
    return setup, t, state


def _row(t: Tables, state: Encounter) -> batch._Live:
    """*state* as the one row of the batch engine's live runs, its effects all lasting."""
    creatures = state.creatures
    return batch._Live(
        np.arange(1),
        np.array([[c.hp or 0 for c in creatures]], dtype=np.int64),
        np.array([[c.load for c in creatures]], dtype=np.int64),
        np.array([[c.had_turn for c in creatures]]),
        np.array([state.order_start()], dtype=np.int64),
        np.array([state.next_position() is None]),
        np.ones((1, t.fx.count), dtype=bool),
        t.fx.uses[None, :].copy(),
    )


def _effects_of(t: Tables, state: Encounter) -> tuple[list[bool], list[int]]:
    """Which of the file's effects (`Tables.fx`) *state* still holds, and their uses left, as
    the batch engine's row would say them."""
    active, uses = [], []
    for index, (position, effect) in enumerate(t.fx.found):
        held = [e for e in state.creatures[position].effects if e.key == effect.key]
        active.append(bool(held))
        uses.append(
            (held[0].uses or 0) if held and effect.ends == "uses" else int(t.fx.uses[index])
        )
    return active, uses


def _in_state(t: Tables, state: Encounter) -> Tables:
    """*t* with its effects' rounds counted from *state* (its round, and whether it is over)."""
    over = state.current is None and state.next_position() is None
    return replace(t, fx=batch_effects.build_effects(state, over))


class _Uniform:
    """One uniform number in [0, 1), handed to both engines: numpy's ``random`` for the batch
    engine, ``randrange`` for the reference's random target rule (`pick_target`)."""

    def __init__(self, u: float) -> None:
        self.u = u

    def random(self, size: int) -> np.ndarray:
        return np.full(size, self.u)

    def randrange(self, stop: int) -> int:
        return int(self.u * stop)


@SAME_STATES
@given(fights())
def test_who_is_down_and_the_end_of_the_fight_are_the_references(case):
    setup, t, state = case
    live = _row(t, state)
    found = batch.down(t.has_hp, live.hp)[0]
    assert found.tolist() == [c.down for c in state.creatures]
    over, winner = batch.fight_ends(~batch.down(t.has_hp, live.hp), t.side_onehot)
    end = fight_end(zip(setup.side_of, (not c.down for c in state.creatures)))
    assert bool(over[0]) == (end is not None)
    assert winner[0] == (-1 if end is None or end.winner is None else end.winner)
    # The same reading as the encounter's, by side name.
    named = encounter_end(state)
    assert (named is None) == (end is None)
    if named is not None and end is not None:
        assert named.winner == (None if end.winner is None else setup.sides[end.winner])


@SAME_STATES
@given(fights())
def test_the_next_turn_and_its_start_are_the_references(case):
    setup, t, state = case
    live = _row(t, state)
    position, found = batch._next_turn(t, live)
    expected = state.next_position()
    assert bool(found[0]) == (expected is not None)
    if expected is not None:
        assert position[0] == expected
    assume(encounter_end(state) is None)  # a fight over has no next turn in either engine
    new, event = turns.start_turn(state)
    figures = _figures(t, 1)
    me = batch._start_turn(t, figures, live)
    assert new.current is not None
    assert me[0] == new.position_of(new.current)
    assert live.load[0].tolist() == [c.load for c in new.creatures]  # R1, R12 resets
    assert live.had[0].tolist() == [c.had_turn for c in new.creatures]
    assert live.order[0] % len(new.creatures) == new.order_start() % len(new.creatures)
    assert figures.counts[0, 0] == (1 if event.new_round else 0)


def _figures(t: Tables, runs: int) -> batch._Figures:
    count, sides = len(t.side_of), t.side_onehot.shape[1]
    return batch._Figures(
        np.zeros((runs, 5), dtype=np.int64),
        np.zeros((runs, sides), dtype=np.int64),
        np.zeros((runs, count), dtype=np.int64),
        np.zeros((runs, count), dtype=bool),
        np.full(runs, -1, dtype=np.int64),
        np.zeros(runs, dtype=bool),
        np.zeros(t.loads, dtype=np.int64),
    )


@SAME_STATES
@given(fights(), st.floats(0, 1, exclude_max=True))
def test_the_target_is_the_policys_for_either_rule(case, u):
    setup, t, state = case
    live = _row(t, state)
    count = len(state.creatures)
    for rule in ("lowest-hp", "random"):
        rules = replace(t, random_target=np.full(count, rule == "random"))
        for me in range(count):
            found = batch._targets(rules, live.hp, np.array([me]), _Uniform(u))[0]
            foes = tuple(i for i, s in enumerate(setup.side_of) if s != setup.side_of[me])
            expected = choose_target(rule, foes, state.creatures, _Uniform(u))
            assert found == (-1 if expected is None else expected), (rule, me)


def _attack_pairs(setup, state):
    """Each (attacker index, attacker, target index, target) where a standing creature faces a
    foe that still has hp."""
    for me, attacker in enumerate(state.creatures):
        if attacker.down:
            continue
        for target, other in enumerate(state.creatures):
            if setup.side_of[target] == setup.side_of[me] or other.hp is None or other.hp <= 0:
                continue
            yield me, attacker, target, other


@SAME_STATES
@given(fights(), st.integers(0, 2**32))
def test_an_attack_is_the_commands_gate_pool_damage_and_load(case, seed):
    """Every attack the state allows, played by `d4cli.fight.actions.act` with real dice: the
    batch engine's move, pool, hp after the total and Load after agree with its record, with
    and without a reaction's Disadvantage (R2, R5, R7, R8, R11, R16)."""
    setup, t, state = case
    rng = BatchedDice(random.Random(seed))
    attacks = 0
    for me, attacker, target, other in _attack_pairs(setup, state):
        load = attacker.load
        move = t.move[me, load - t.low, target]
        request = _act_request(setup, me, load, target, other.evasion)
        assert (move >= 0) == (request is not None)  # the gate and the policy's move (R2)
        if request is None:
            continue
        _attack_agrees(t, state, request, me, target, move, t.nets[move, 0, 0], rng)
        attacks += 1
        for ally in (i for i, s in enumerate(setup.side_of) if s == setup.side_of[target]):
            helper = state.creatures[ally]
            if helper.down:
                continue
            grant = _team_request(
                setup, ally, helper.load, me, load, other.evasion, helper.had_turn
            )
            if grant is None:
                continue
            hindered, _ = team.team(state, grant)
            _attack_agrees(t, hindered, request, me, target, move, t.nets[move, 0, 1], rng)
            break
    assume(attacks)


def _attack_agrees(t, state, request, me, target, move, net, rng) -> None:
    load, before = state.creatures[me].load, state.creatures[target].hp
    _, record = actions.act(state, request, rng)
    assert record.allowed
    size = batch.pool_sizes(np.array([t.value[move]]), np.array([load]), np.array([net]))
    assert size[0] == record.result.plan.size.size  # R5
    after = batch.hp_after(
        np.array([before]), np.array([record.result.total]), np.array([t.evasion[target]])
    )
    assert after[0] == record.hp_after  # R7, R16
    assert load + t.cost[move] == record.load_after  # R8


@SAME_STATES
@given(fights())
def test_the_reaction_is_the_reference_engines(case):
    """For every attack the state allows: whether a creature of the target's side reacts, and
    which one pays its Load (R11), as the reference engine's `_Run.react` decides."""
    setup, t, state = case
    for me, attacker, target, other in _attack_pairs(setup, state):
        load = attacker.load
        if t.move[me, load - t.low, target] < 0:
            continue
        live = _row(t, state)
        rows, who = np.arange(1), np.array([me])
        hindered = batch._react(t, live, rows, who, np.array([load]), np.array([target]))
        run = _reference_run(setup, state)
        run.react(me, load, target, other.evasion)
        assert bool(hindered[0]) == (run.reactions == 1)
        assert live.load[0].tolist() == [c.load for c in run.encounter.creatures]


def _reference_run(setup: Setup, state: Encounter) -> _Run:
    return _Run(setup, BatchedDice(random.Random(0)), {}, state)


def test_every_total_drawn_is_the_pools_own_distribution():
    """For every move of the skirmish's tables and every pool it can roll (R5, R6), a draw in
    the middle of each total's share gives that total, by the exact distribution of the dice
    (`d4cli.odds.roll_odds.pool_distribution`, exact weights)."""
    setup = prepare(example("skirmish"), "round")
    t = build(setup)
    moves = [move for own in setup.moves for move in own]
    checked = 0
    for index, move in enumerate(moves):
        for pool in range(1, max(1, move.value + int(t.nets[index].max())) + 1):
            exact = pool_distribution(pool, move.extra)
            below = Fraction(0)
            for offset, weight in enumerate(exact.weights):
                share = Fraction(weight, exact.denominator)
                if share > Fraction(1, 10**9):  # a share the floats can resolve
                    middle = float(below + share / 2)
                    total = batch.pool_totals(
                        t, np.array([index]), np.array([pool]), np.array([middle])
                    )
                    assert total[0] == exact.low + offset, (move, pool, offset)
                    checked += 1
                below += share
    assert checked > 100


@SAME_STATES
@given(fights(with_effects=True), st.integers(0, 2**32))
def test_an_attack_counts_and_uses_the_effects_as_the_command_does(case, seed):
    """Every attack the state allows, played by `d4cli.fight.actions.act` on a state whose
    creatures hold lasting effects and grants: the batch engine's net Advantage gives the
    record's pool, and the effects it applied to lose a use or end as in the command's state
    after it (R4, R5, R11, R20); with a reaction's grant, refused where `team` refuses it."""
    setup, t, state = case
    rng = BatchedDice(random.Random(seed))
    attacks = 0
    for me, attacker, target, other in _attack_pairs(setup, state):
        request = _act_request(setup, me, attacker.load, target, other.evasion)
        if request is None:
            continue
        move = t.move[me, attacker.load - t.low, target]
        _roll_agrees(t, state, request, me, target, move, False, rng)
        attacks += 1
        refused = batch_effects.refused(t.fx, _row(t, state).active, np.array([me]))[0]
        grant = team.TeamRequest(
            other.name, attacker.name, "disadvantage", cost=0, aspect=other.aspects[0][0]
        )
        try:
            hindered, _ = team.team(state, grant)
        except InputError:
            assert refused
            continue
        assert not refused
        if hindered is not state:  # the gate allowed the Team Action (R2, R11)
            _roll_agrees(t, hindered, request, me, target, move, True, rng)
    assume(attacks)


def _roll_agrees(t, state, request, me, target, move, hindered, rng) -> None:
    live = _row(t, state)
    who, aimed = np.array([me]), np.array([target])
    applied = batch_effects.code(t.fx, live.active, who, aimed)
    net = t.nets[move, applied, np.array([int(hindered)])]
    new, record = actions.act(state, request, rng)
    assert record.allowed
    size = batch.pool_sizes(np.array([t.value[move]]), np.array([state.creatures[me].load]), net)
    assert size[0] == record.result.plan.size.size  # R4, R5, R20
    batch_effects.use(t.fx, live.active, live.uses, who, aimed)
    _same_effects(t, live, new)


def _same_effects(t: Tables, live: batch._Live, state: Encounter) -> None:
    """The row's effects are those *state* holds, with the same uses left (R11, R20)."""
    active, uses = _effects_of(t, state)
    assert live.active[0].tolist() == active, [effect for _, effect in t.fx.found]
    for index, (_, effect) in enumerate(t.fx.found):
        if active[index] and effect.ends == "uses":
            assert live.uses[0, index] == uses[index], effect


@SAME_STATES
@given(fights(with_effects=True))
def test_effects_end_at_a_turns_start_and_end_and_a_rounds_end_as_the_reference(case):
    """From a state between turns: a turn starts, ends, and the next starts (a new round when
    nobody is left to go), in both engines; the effects still lasting agree after each start
    (R18, R19, R20: a round's end is part of the turn start that follows it)."""
    setup, t, state = case
    assume(encounter_end(state) is None)
    t = _in_state(t, state)
    live = _row(t, state)
    figures = _figures(t, 1)
    figures.counts[0, 0] = 0 if live.round_over[0] else 1
    new, _ = turns.start_turn(state)
    me = batch._start_turn(t, figures, live)
    _same_effects(t, live, new)
    new, _ = turns.end_turn(new)
    batch._end_turn(t, live, me)
    assume(encounter_end(new) is None)
    new, _ = turns.start_turn(new)
    batch._start_turn(t, figures, live)
    _same_effects(t, live, new)


@SAME_STATES
@given(fights(with_effects=True))
def test_the_reaction_meets_the_effects_as_the_reference_engines(case):
    """The reaction of `test_the_reaction_is_the_reference_engines` where the attacker's
    effects may refuse the grant: nobody reacts and nobody pays (R11, R20)."""
    test_the_reaction_is_the_reference_engines.hypothesis.inner_test(case)
