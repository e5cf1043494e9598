"""Lasting effects (R20) as values: named Advantage and Disadvantage sources that end on the right turn.

Pure functions on plain data; nothing here knows the encounter. An `Effect`
sits on one creature and applies to its own rolls (``own``) or to the rolls
that target it (``against``). Its duration (``ends``) is one of:

- ``start``: at the start of ``creature``'s next turn;
- ``end``: at the end of ``creature``'s turn (the running one, else its next);
- ``rounds``: when round ``last_round`` ends (``applied + N - 1``);
- ``uses``: after ``uses`` more rolls it applied to;
- ``removed``: until removed.

`ended_at` tells which effects a boundary ends (`TurnStart`, `TurnEnd`,
`RoundEnd`) and `used` which a roll used up; `d4cli.fight.effect_transitions`
applies them to an encounter (adding, removing and ending effects), so that
`d4cli.fight.turns` and `d4cli.fight.actions` call one line each.
A Team Action grant (R11) is an effect with ``uses = 1`` on the receiver's own
rolls and origin ``team``; `Pending` names grants by source (a file's
``pending`` table, a roll's ``grants_used``).
"""

# No `from __future__ import annotations`: a NamedTuple reads its field types as objects,
# and string annotations cost a compile each (this module loads with every file read).
from typing import NamedTuple

from d4cli.rules.names import fold_name, source_key

GRANTS: tuple[str, ...] = ("advantage", "disadvantage")
ONS: tuple[str, ...] = ("own", "against")
ENDS: tuple[str, ...] = ("start", "end", "rounds", "uses", "removed")
ORIGINS: tuple[str, ...] = ("effect", "team")


class Effect(NamedTuple):
    """One lasting effect (R20).

    Attributes:
        source: the source name, shown as written; compared folded (R4, N1).
        grant: ``advantage`` or ``disadvantage``.
        on: ``own`` (the creature's rolls) or ``against`` (rolls that target it).
        ends: ``start``, ``end``, ``rounds``, ``uses`` or ``removed`` (see the module).
        creature: whose turn ends it (``start``/``end``), else None.
        last_round: the round at whose end it ends (``rounds``), else None.
        uses: rolls left (``uses``), else None.
        origin: ``effect`` (``d4cli effect add``) or ``team`` (a Team Action grant, R11).
        level: how much an Advantage effect raises a check's Advantage Level (C8,
            1..5, default 1); a pool roll counts it once whatever its level (R4).
        from_round: for ``start``/``end`` added after a round was over, the round it
            counts from: a round that ends before it never ends it (R20); else None.
        public: the players see it (False: GM-only, never on the player view).
    """

    source: str
    grant: str = "advantage"
    on: str = "own"
    ends: str = "removed"
    creature: str | None = None
    last_round: int | None = None
    uses: int | None = None
    origin: str = "effect"
    level: int = 1
    from_round: int | None = None
    public: bool = True

    @property
    def key(self) -> str:
        return source_key(self.source)


class Pending(NamedTuple):
    """Team Action grants by source name (R11): the grants of a file's ``pending`` table, or those a roll used up."""

    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.advantage or self.disadvantage)


class TurnStart(NamedTuple):
    """The start of *name*'s turn in *round*."""

    name: str
    round: int


class TurnEnd(NamedTuple):
    """The end of *name*'s turn in *round*."""

    name: str
    round: int


class RoundEnd(NamedTuple):
    """The end of round *round* (R20: it ends the effects lasting to it, never one timed to a turn)."""

    round: int


class Used(NamedTuple):
    """A roll that the *role* effects (``own`` or ``against``) applied to: it counts down their uses."""

    role: str = "own"


# Plain named tuples (cheap to define: reading a file loads this module); told apart by type.
Boundary = TurnStart | TurnEnd | RoundEnd


# Why an effect ended (`Ended.why`); `d4cli.journal.effect_facts.END_REASONS` gives the words.
TURN_START = "turn_start"  # the start of `Ended.who`'s turn
TURN_END = "turn_end"  # the end of `Ended.who`'s turn
ROUND_END = "round_end"  # the end of round `Ended.round`
# Kept to read older journals only: before R20's amendment a round's end ended the effects
# timed to the turn of a down creature it skipped; now a skipped turn neither starts nor ends.
TURN_SKIPPED = "turn_skipped"
REMOVED = "removed"  # `Ended.who` left the encounter (R17), taking its own effects
TURN_REMOVED = (
    "turn_removed"  # timed to `Ended.who`'s turn, and `Ended.who` left the encounter (R17)
)
USED_UP = "used_up"  # a roll used its last use (R11, R20)
END_REASONS: tuple[str, ...] = (
    TURN_START,
    TURN_END,
    ROUND_END,
    TURN_SKIPPED,
    REMOVED,
    TURN_REMOVED,
    USED_UP,
)


class Ended(NamedTuple):
    """An effect that ended, on which creature, and why.

    Attributes:
        creature: the creature the effect was on.
        effect: the effect as it was.
        why: one of `END_REASONS`.
        who: the creature the reason names (whose turn, who was removed or down), else None.
        round: the round that ended (``round_end``, ``turn_skipped``), else None.
    """

    creature: str
    effect: Effect
    why: str
    who: str | None = None
    round: int | None = None


def _same(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and (a == b or fold_name(a) == fold_name(b))


def ended_by(creature: str, effect: Effect, boundary: Boundary) -> Ended:
    """The `Ended` record of *effect* on *creature*, ended at *boundary* (`ends_at`)."""
    if isinstance(boundary, TurnStart):
        return Ended(creature, effect, TURN_START, boundary.name)
    if isinstance(boundary, TurnEnd):
        return Ended(creature, effect, TURN_END, boundary.name)
    return Ended(creature, effect, ROUND_END, None, boundary.round)


def ends_at(effect: Effect, boundary: Boundary) -> bool:
    """Whether *boundary* ends *effect* (R20)."""
    if isinstance(boundary, TurnStart):
        return effect.ends == "start" and _same(effect.creature, boundary.name)
    if isinstance(boundary, TurnEnd):
        return effect.ends == "end" and _same(effect.creature, boundary.name)
    # A round's end never ends an effect timed to a turn: a down creature's skipped turn
    # neither starts nor ends, so its turn's start or end comes once it is back (R20).
    return (
        effect.ends == "rounds"
        and effect.last_round is not None
        and effect.last_round <= boundary.round
    )


def ended_at(
    effects: tuple[Effect, ...], boundary: Boundary | Used
) -> tuple[tuple[Effect, ...], tuple[Effect, ...]]:
    """Split *effects* into ``(kept, ended)`` at *boundary*, each in its order (R20).

    At `Used` the kept effects of that role have one use fewer (`used`).
    """
    if isinstance(boundary, Used):
        return used(effects, boundary.role)
    kept = tuple(effect for effect in effects if not ends_at(effect, boundary))
    ended = tuple(effect for effect in effects if ends_at(effect, boundary))
    return kept, ended


def applies(effect: Effect, role: str) -> bool:
    """Whether *effect* applies to a roll where its creature is the ``own`` roller or the ``against`` target."""
    return effect.on == role


def used(effects: tuple[Effect, ...], role: str) -> tuple[tuple[Effect, ...], tuple[Effect, ...]]:
    """One roll applied the *role* effects: count down their uses; ``(kept, used up)`` (R11, R20)."""
    kept: list[Effect] = []
    gone: list[Effect] = []
    for effect in effects:
        if applies(effect, role) and effect.ends == "uses" and effect.uses is not None:
            if effect.uses <= 1:
                gone.append(effect)
                continue
            effect = effect._replace(uses=effect.uses - 1)
        kept.append(effect)
    return tuple(kept), tuple(gone)


def put_effect(
    effects: tuple[Effect, ...], effect: Effect, *, keep: bool = False
) -> tuple[tuple[Effect, ...], Effect | None]:
    """*effects* with *effect*: one of the same folded source is replaced in place;
    with *keep* (a Team Action grant, R11) one of the same source and grant is kept
    instead, as two grants of one name count once (R4); ``(effects, the one it met)``."""
    for index, old in enumerate(effects):
        if keep:
            if old.key == effect.key and old.grant == effect.grant:
                return effects, old
        elif old.key == effect.key:
            return effects[:index] + (effect,) + effects[index + 1 :], old
    return effects + (effect,), None


def team_grant_effects(effects: tuple[Effect, ...], pending: Pending) -> tuple[Effect, ...]:
    """*effects* with the Team Action grants of *pending* as one-roll effects (R11, R20)."""
    for grant in GRANTS:
        for source in getattr(pending, grant):
            effects, _ = put_effect(
                effects, Effect(source, grant, "own", "uses", uses=1, origin="team"), keep=True
            )
    return effects


_NO_GRANTS = Pending()  # `team_grants` of no effect: the one empty value


def team_grants(ended: tuple[Ended, ...]) -> Pending:
    """The Team Action grants (R11) among the effects a roll used up (``grants_used`` of a roll)."""
    if not ended:
        return _NO_GRANTS
    advantage: list[str] = []
    disadvantage: list[str] = []
    for gone in ended:
        effect = gone.effect
        if effect.origin == "team":
            (advantage if effect.grant == "advantage" else disadvantage).append(effect.source)
    return Pending(tuple(advantage), tuple(disadvantage))
