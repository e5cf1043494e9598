"""An encounter set up for the playtest simulator in one mode: its start state, sides, moves and policies (R1, R2, R7, R12, R18).

`prepare` checks the encounter can be simulated (two sides or more, each with a creature
with hp up, every creature with an attack it could afford) and makes the `Setup` that
`d4cli.sim.engine.play` plays; `named_request` is the request of ``d4cli act ACTOR ACTION
--target TARGET``, the very one the command makes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from d4cli.fight import turns
from d4cli.fight.actions import ActRequest
from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.sheets import apply_named_action
from d4cli.rules.errors import InputError
from d4cli.rules.names import distinct_sources
from d4cli.sim.policy import Move, Policy, can_act, make_policy

# A setup's memo (`d4cli.sim.engine.play`): the policy's choices by the situation that decides them.
Memo = dict[Any, Any]

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
        raise InputError("mode", mode, "unknown mode; one of " + ", ".join(MODES))
    kind, reset = MODES[mode]
    creatures = encounter.creatures
    if buffer is not None:
        creatures = tuple(c._replace(load_buffer=buffer) for c in creatures)
    sides, side_of = _sides(creatures)
    _check_sides_can_lose(creatures, sides, side_of)
    all_moves = tuple(
        _creature_moves(encounter, creature, _first_foe(creatures, side_of, own), reset)
        for creature, own in zip(creatures, side_of)
    )
    policies = tuple(make_policy(c.policy, target=target, reserve=reserve) for c in creatures)
    start = encounter._replace(mode=kind, round_reset=reset, creatures=creatures)
    if start.current is not None and start.find(start.current).down:
        start, _ = turns.end_turn(start)  # a down creature's turn only ends
    return Setup(start, sides, side_of, all_moves, policies, max_rounds)


def _sides(creatures: tuple[Creature, ...]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The sides in order of first appearance, and each creature's side index.

    Raises:
        InputError: a creature without a side; fewer than two sides.
    """
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
    return tuple(sides), tuple(side_of)


def _check_sides_can_lose(
    creatures: tuple[Creature, ...], sides: tuple[str, ...], side_of: tuple[int, ...]
) -> None:
    """Every side has a creature with hp, and one of them up (R16, R18).

    Raises:
        InputError: naming the side that could never lose, or that is out already.
    """
    for number, side in enumerate(sides):
        ours = [c for c, s in zip(creatures, side_of) if s == number]
        if not any(c.hp is not None for c in ours):
            raise InputError("side", side, "has no creature with hp: it could never lose (R18)")
        if not any(c.hp is not None and c.hp > 0 for c in ours):
            over = (
                "the fight is already over (R21)"
                if len(sides) == 2
                else "it is out before the fight starts (R18)"
            )
            raise InputError(
                "side", side, f"has every creature with hp down: {over}; heal one to simulate"
            )


def _first_foe(creatures: tuple[Creature, ...], side_of: tuple[int, ...], own: int) -> str:
    """The name of the first creature in turn order that is not of side *own*."""
    return next(c.name for c, s in zip(creatures, side_of) if s != own)


def _creature_moves(
    encounter: Encounter, creature: Creature, foe: str, reset: str
) -> tuple[Move, ...]:
    """*creature*'s attacks (its named actions without a DC, R7) as the policy plays them.

    Raises:
        InputError: it has only actions with a DC, or none it could ever afford (R2).
    """
    attacks = [a for a in creature.actions if a.dc is None]  # an action with a DC is a check (R7)
    if creature.actions and not attacks:
        raise InputError(
            "actions",
            creature.name,
            "has only actions with a DC: the simulator needs one that attacks (R7)",
        )
    values = dict(creature.aspects)
    moves = tuple(
        _move(named_request(encounter, creature.name, a.name, foe), values) for a in attacks
    )
    best_load = min(0 if reset == "zero" else creature.reset_value, creature.load)
    if not can_act(moves, best_load):
        raise InputError("actions", creature.name, "has no named action it could ever afford (R2)")
    return moves


def named_request(encounter: Encounter, actor: str, action: str, target: str) -> ActRequest:
    """The request of ``d4cli act ACTOR ACTION --target TARGET``: the very function the command uses.

    Its named action fills the Aspect, Cost, extra dice and Advantage /
    Disadvantage sources (R3, R4, R6); `act` adds the effects and Team Action
    grants to those sources and counts each name once, as for the command.
    """
    return apply_named_action(encounter, ActRequest(actor, action, target=target), frozenset())


def _move(request: ActRequest, values: dict[str, int]) -> Move:
    """The policy's view of a named action's request: its net sources counted as `act` counts them (R4)."""
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
