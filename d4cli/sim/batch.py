"""The batch engine: many runs of one setup played at once on arrays, in lockstep (R1, R2, R5-R8, R11, R12, R16, R18-R21).

The same fight as `d4cli.sim.engine.play`, for a block of runs at a time: one array per
field (hp, Load, had its turn, ... one row per run), every run taking its next turn
together. Masks say who is down, whose turn it is, who may still act in it and what the
gate allows; each choice of the policy is looked up in the setup's `Tables`
(`d4cli.sim.batch_tables`), made by the very functions the reference engine calls. A run
whose fight is over (at most one side left with a creature up, R21: `fight_ends`, the
form over arrays of `d4cli.fight.sides.fight_end`; or ``max_rounds`` rounds: a draw)
leaves the arrays, and its figures go to the `Tally`.

A pool's total (its d4s and the move's extra dice, R5, R6) is drawn from its exact
distribution (`d4cli.odds.roll_odds.pool_distribution`, in the setup's tables): the law
of rolling each die, in one draw. The draws are numpy's (``numpy.random.Generator``), one
generator per block of `d4cli.sim.batch_scope.BLOCK` runs seeded by ``(seed, mode,
block)``: the same seed gives the same tally whatever pieces the runs are cut into, as
long as a piece is whole blocks (`d4cli.sim.pieces.chunks`). They are not the reference engine's dice: the two engines
agree in distribution, not run by run (tests/sim/test_batch_engine.py checks it), and
each rule written here over arrays gives the reference's answer on the same states
(tests/sim/test_batch_rules.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from d4cli.sim import batch_effects as lasting
from d4cli.sim.batch_scope import BLOCK
from d4cli.sim.batch_tables import Flags, Floats, Ints, Tables, build
from d4cli.sim.policy import MAX_ACTIONS
from d4cli.sim.setup import MODES, Setup
from d4cli.sim.tally import FIGURES, Tally

# Above any hp: the lowest-hp rule's stand-in for a creature it cannot target.
_NO_TARGET = np.iinfo(np.int64).max


def run_chunk(setup: Setup, seed: int, mode: str, start: int, stop: int) -> Tally:
    """Play runs *start* to *stop* - 1 of *mode* in blocks of `BLOCK` (*start* a multiple of it).

    Raises:
        ValueError: *start* is not the start of a block.
    """
    if start % BLOCK:
        raise ValueError(f"a batch piece starts at a block: {start} is not a multiple of {BLOCK}")
    tables = build(setup)
    tally = Tally(len(setup.sides), creatures=len(setup.side_of))
    for first in range(start, stop, BLOCK):
        dice = np.random.default_rng([seed, list(MODES).index(mode), first // BLOCK])
        tally.merge(play_block(tables, len(setup.sides), dice, min(BLOCK, stop - first)))
    return tally


@dataclass
class _Figures:
    """Each run's figures so far, one row per run of the block (`d4cli.sim.tally.FIGURES`)."""

    counts: Ints  # (n, 5): rounds, turns, actions, reactions, stuck
    damage: Ints  # (n, S) hp taken off by each side (R16)
    dealt: Ints  # (n, C) by each creature
    down: Flags  # (n, C) down when the fight ended (R18)
    winner: Ints  # (n,) the side that won, -1 for a draw or a fight over with no winner
    over: Flags  # (n,) the fight is over (R21)
    loads: Ints  # (L,) turns by their starting Load


@dataclass
class _Live:
    """The runs still fighting: ``ids`` (rows of `_Figures`) and their state, row by row."""

    ids: Ints
    hp: Ints
    load: Ints
    had: Flags
    order: Ints  # where the default order looks first (R19)
    round_over: Flags
    active: Flags  # (n, E) the file's effects still lasting (R11, R20)
    uses: Ints  # (n, E) rolls left of each ``uses`` effect

    def keep(self, rows: Flags) -> _Live:
        return _Live(*(part[rows] for part in vars(self).values()))


def play_block(t: Tables, sides: int, dice: np.random.Generator, runs: int) -> Tally:
    """Play *runs* fights of the setup of *t* at once, to the end (R18) or to ``max_rounds``."""
    count = len(t.side_of)
    f = _Figures(
        np.zeros((runs, len(FIGURES)), dtype=np.int64),
        np.zeros((runs, sides), dtype=np.int64),
        np.zeros((runs, count), dtype=np.int64),
        np.zeros((runs, count), dtype=bool),
        np.full(runs, -1, dtype=np.int64),
        np.zeros(runs, dtype=bool),
        np.zeros(t.loads, dtype=np.int64),
    )
    live = _Live(
        np.arange(runs),
        np.tile(t.hp, (runs, 1)),
        np.tile(t.load, (runs, 1)),
        np.tile(t.had_turn, (runs, 1)),
        np.full(runs, t.order_start, dtype=np.int64),
        np.zeros(runs, dtype=bool),
        np.ones((runs, t.fx.count), dtype=bool),
        np.tile(t.fx.uses, (runs, 1)),
    )
    # A file saved mid-turn goes on with that turn; a round running counts as round 1 (R19).
    running = t.current >= 0
    live.round_over[:] = t.round_over
    f.counts[:, 0] = 0 if t.round_over else 1
    while live.ids.size:
        if running:
            me = np.full(live.ids.size, t.current)
            running = False
        else:
            live = _finish(t, f, live, live.round_over & (f.counts[live.ids, 0] >= t.max_rounds))
            if not live.ids.size:
                break
            me = _start_turn(t, f, live)
        f.counts[live.ids, 1] += 1
        f.counts[live.ids, 4] += ~t.can_act[me, live.load[np.arange(me.size), me] - t.low]
        _take_turn(t, f, live, me, dice)
        over = f.over[live.ids]
        live = _finish(t, f, live, over)
        _end_turn(t, live, me[~over])
    return _tally(t, f, sides)


def _next_turn(t: Tables, live: _Live) -> tuple[Ints, Flags]:
    """Each run's default next turn (R19): the first creature from its order start, wrapping
    around, that has not had its turn and is not down; and whether there is one."""
    count = len(t.side_of)
    order = (live.order[:, None] + np.arange(count)[None, :]) % count
    free = ~live.had & ~down(t.has_hp, live.hp)
    ready = np.take_along_axis(free, order, axis=1)
    position: Ints = order[np.arange(order.shape[0]), ready.argmax(axis=1)]
    found: Flags = np.any(ready, axis=1, keepdims=False)
    return position, found


def _end_turn(t: Tables, live: _Live, me: Ints) -> None:
    """Each live run's turn of *me* ends (R14, R19): so do the effects timed to its end (R20);
    the round is over where nobody is left to go (its effects end when the next one starts)."""
    if t.fx.count:
        lasting.end_at_turn(t.fx.at_end, live.active, me)
    live.round_over = ~_next_turn(t, live)[1]


def _start_turn(t: Tables, f: _Figures, live: _Live) -> Ints:
    """The next turn starts in every live run (R1, R12, R19): a new round first where the last
    one is over (round + 1, nobody has had a turn, in round mode everyone resets); the creature
    whose turn it is resets in turn mode; its starting Load is counted. The round that closes
    ends its effects, and the turn that starts those timed to its start (R18, R20). Returns
    who acts."""
    fresh = live.round_over
    if fresh.any():
        if t.fx.count:  # the round that closes ends its effects (R18, R20)
            closing = t.fx.round_base + f.counts[live.ids[fresh], 0]
            skipped = ~live.had[fresh] & down(t.has_hp, live.hp[fresh])
            ended = live.active[fresh]
            lasting.end_at_round(t.fx, ended, closing, skipped)
            live.active[fresh] = np.where(closing[:, None] > 0, ended, live.active[fresh])
        f.counts[live.ids[fresh], 0] += 1
        live.had[fresh] = False
        live.order[fresh] = 0
        if t.round_mode:
            live.load[fresh] = t.reset
    me, _ = _next_turn(t, live)
    rows = np.arange(me.size)
    if not t.round_mode:
        live.load[rows, me] = t.reset[me]
    live.had[rows, me] = True
    live.order = me + 1
    if t.fx.count:
        lasting.end_at_turn(t.fx.at_start, live.active, me)
    f.loads += np.bincount(live.load[rows, me] - t.low, minlength=t.loads)
    return me


def _finish(t: Tables, f: _Figures, live: _Live, done: Flags) -> _Live:
    """The runs of *done* leave the fight: who is down at its end is kept (R18)."""
    if not done.any():
        return live
    f.down[live.ids[done]] = down(t.has_hp, live.hp[done])
    return live.keep(~done)


def _take_turn(t: Tables, f: _Figures, live: _Live, me: Ints, dice: np.random.Generator) -> None:
    """Each live run's creature *me* attacks while a move qualifies and a foe is up, at most
    `MAX_ACTIONS` times (R2); each attack may meet a reaction (R11); a run whose attack
    takes a creature down may be over (R21, `fight_ends`).

    The state is read and written through flat indices (``row * C + creature``): one gather
    or scatter per field and step."""
    count, width = len(t.side_of), f.counts.shape[1]
    loads, moves, counts = live.load.reshape(-1), t.move.reshape(-1), f.counts.reshape(-1)
    rows = np.arange(me.size)
    who = me
    for _ in range(MAX_ACTIONS):
        target = _targets(t, live.hp[rows], who, dice)
        mine = rows * count + who
        load = loads[mine]
        move = np.where(target >= 0, moves[_cell(t, who, load, target)], -1)
        going = np.flatnonzero(move >= 0)
        if not going.size:
            return
        rows, who, target, load, move = (
            rows[going],
            who[going],
            target[going],
            load[going],
            move[going],
        )
        mine = mine[going]
        runs = live.ids[rows]
        hindered = _react(t, live, rows, who, load, target)
        counts[runs * width + 3] += hindered
        applied = lasting.code(t.fx, live.active[rows], who, target) if t.fx.count else 0
        net = t.nets[move, applied, hindered.astype(np.int64)]
        pool = pool_sizes(t.value[move], load, net)
        lost, fell = _attack(t, live, rows * count + target, pool, move, target, dice)
        if t.fx.count:  # the roll uses the effects it applied to (R11, R20)
            active, uses = live.active[rows], live.uses[rows]
            lasting.use(t.fx, active, uses, who, target)
            live.active[rows], live.uses[rows] = active, uses
        f.damage.reshape(-1)[runs * f.damage.shape[1] + t.side_of[who]] += lost
        f.dealt.reshape(-1)[runs * count + who] += lost
        counts[runs * width + 2] += 1
        loads[mine] += t.cost[move]
        ended = rows[fell]
        over, winner = fight_ends(~down(t.has_hp, live.hp[ended]), t.side_onehot)
        if over.any():
            f.over[runs[fell][over]] = True
            f.winner[runs[fell][over]] = winner[over]
            done = np.zeros(rows.size, dtype=bool)
            done[np.flatnonzero(fell)[over]] = True
            rows, who = rows[~done], who[~done]


def _cell(t: Tables, creature: Ints, load: Ints, other: Ints) -> Ints:
    """The flat index of ``(creature, load, other)`` in a (C, L, C) table."""
    index: Ints = ((creature * t.loads + load - t.low) * len(t.side_of)) + np.maximum(other, 0)
    return index


def _targets(t: Tables, hp: Ints, who: Ints, dice: np.random.Generator) -> Ints:
    """Each row's target among *who*'s foes with hp above 0 (R16): the fewest hp, ties to the
    first in turn order, or a random one for the ``random`` rule; -1 where none is up."""
    open_ = t.foe[who] & t.has_hp & (hp > 0)
    target = np.where(open_, hp, _NO_TARGET).argmin(axis=1)
    chance = t.random_target[who]
    if chance.any():
        ranks = open_[chance].cumsum(axis=1)
        pick = (dice.random(ranks.shape[0]) * ranks[:, -1]).astype(np.int64)
        target[chance] = (ranks > pick[:, None]).argmax(axis=1)
    return np.where(open_.any(axis=1), target, -1)


def _react(t: Tables, live: _Live, rows: Ints, who: Ints, load: Ints, target: Ints) -> Flags:
    """The first creature of each target's side, in turn order, that is up and whose reaction rule
    says yes pays 1 Load for a Team Action imposing Disadvantage on the attacker (R11); an
    attacker whose effects refuse the grant (`d4cli.sim.batch_effects.refused`) meets none,
    and nobody pays. Returns which attacks meet one."""
    count = len(t.side_of)
    hindered = np.zeros(rows.size, dtype=bool)
    asked = np.zeros(rows.size, dtype=bool)
    refused = lasting.refused(t.fx, live.active[rows], who) if t.fx.count else np.zeros_like(asked)
    side = t.side_of[target]
    prevented = t.prevented.reshape(-1)[_cell(t, who, load, target)]
    loads, hp, had = live.load.reshape(-1), live.hp.reshape(-1), live.had.reshape(-1)
    for slot in range(t.members.shape[1]):
        ally = t.members[side, slot]
        open_ = (ally >= 0) & ~asked
        if not open_.any():
            break
        ally = np.maximum(ally, 0)
        theirs = rows * count + ally
        own = loads[theirs]
        up = ~down(t.has_hp[ally], hp[theirs])
        worth = (
            ~t.weigh_round[ally]
            | had[theirs]
            | (prevented > t.forgone.reshape(-1)[_cell(t, ally, own, who)])
        )
        asks = open_ & up & t.react_gate[ally, own - t.low] & worth
        yes = asks & ~refused
        loads[theirs[yes]] += 1
        hindered |= yes
        asked |= asks
    return hindered


def _attack(
    t: Tables,
    live: _Live,
    cells: Ints,
    pool: Ints,
    move: Ints,
    target: Ints,
    dice: np.random.Generator,
) -> tuple[Ints, Flags]:
    """Roll each pool of d4s with the move's extra dice, take the damage over the target's
    Evasion off its hp (at flat index *cells*), never below 0 (R5-R7, R16). Returns the hp
    each attack took off and whether it left the target at 0."""
    total = pool_totals(t, move, pool, dice.random(pool.size))
    hp = live.hp.reshape(-1)
    before = hp[cells]
    after = hp_after(before, total, t.evasion[target])
    hp[cells] = after
    lost: Ints = before - after
    fell: Flags = after == 0
    return lost, fell


def pool_totals(t: Tables, move: Ints, pool: Ints, uniform: Floats) -> Ints:
    """Each roll's total (R5-R7): *pool* d4s and the extra dice of *move*, drawn from their exact
    distribution (`Tables.totals`: the law of rolling each die) by its inverse at *uniform*, in
    [0, 1): the lowest total whose cumulative share exceeds it."""
    row = t.pool_row[move] + pool - 1
    found = np.searchsorted(t.totals, row + uniform, side="right")
    total: Ints = t.total_low[row] + found - t.total_first[row]
    return total


def down(has_hp: Flags, hp: Ints) -> Flags:
    """Who is down (R18): at 0 hp, a creature without hp never (`Creature.down`); *hp* holds 0
    for a creature without hp, *has_hp* says which have it (shapes broadcast: (C,) and (n, C))."""
    found: Flags = has_hp & (hp <= 0)
    return found


def pool_sizes(value: Ints, load: Ints, net: Ints) -> Ints:
    """Each attack's pool of d4s (R5, `d4cli.rules.pool.pool_size`): ``max(1, Aspect - max(0,
    Load) + Net Advantage)``, from its Aspect's value, the attacker's Load and the net Advantage."""
    size: Ints = np.maximum(1, value - np.maximum(0, load) + net)
    return size


def hp_after(before: Ints, total: Ints, evasion: Ints) -> Ints:
    """Each target's hp after an attack (R7, R16): the damage is the total over its Evasion
    (never below 0), and hp never goes below 0."""
    after: Ints = np.maximum(0, before - np.maximum(0, total - evasion))
    return after


def fight_ends(up: Flags, side_onehot: Ints) -> tuple[Flags, Ints]:
    """`d4cli.fight.sides.fight_end` of many states at once (R21), with sides as numbers.

    Args:
        up: (n, C) each creature is up (not down, R18; a creature without hp always is).
        side_onehot: (C, S) each creature's side; a row of zeros: it has none and stands aside.

    Returns:
        ``(over, winner)``, both (n,): the fight is over (two sides or more with a creature,
        at most one of them with a creature up); the side that won, -1 where it goes on or
        nobody won.
    """
    standing = (up.astype(np.int64) @ side_onehot) > 0
    fight = side_onehot.any(axis=0).sum() >= 2
    over: Flags = fight & (standing.sum(axis=1) <= 1)
    winner: Ints = np.where(over & standing.any(axis=1), standing.argmax(axis=1), -1)
    return over, winner


def _tally(t: Tables, f: _Figures, sides: int) -> Tally:
    """The block's `Tally`: the same integer sums the reference engine adds run by run."""
    runs = f.winner.size
    figures = np.concatenate([f.counts, f.damage], axis=1)
    rounds, counts = np.unique(f.counts[:, 0], return_counts=True)
    side_damage = f.damage[:, t.side_of]
    per_creature = np.stack(
        [
            f.down.sum(axis=0),
            f.dealt.sum(axis=0),
            (f.dealt * f.dealt).sum(axis=0),
            (f.dealt * side_damage).sum(axis=0),
        ],
        axis=1,
    )
    return Tally(
        sides,
        runs=runs,
        draws=int((f.winner < 0).sum()),
        wins=np.bincount(f.winner[f.winner >= 0], minlength=sides).tolist(),
        rounds=dict(zip(rounds.tolist(), counts.tolist())),
        loads={t.low + i: n for i, n in enumerate(f.loads.tolist()) if n},
        sums=figures.sum(axis=0).tolist(),
        products=(figures.T @ figures).ravel().tolist(),
        creatures=len(t.side_of),
        per_creature=per_creature.ravel().tolist(),
    )
