"""The records of encounter changes other than a roll (the closed sets of the encounter re-exported).

A transition on the encounter returns one of these beside the new encounter
(`AddEvent`, `MoveEvent`, `RemoveEvent`, `TurnStartEvent`, `TurnEndEvent`, `ExhaustEvent`,
`DamageEvent`, `HealEvent`, `EffectEvent`, `NoteEvent`, `SetEvent`, `NextEvent`;
an action is an `d4cli.fight.actions.ActRecord`, a Team Action a `TeamRecord`).
Plain typed values, no serializer: `d4cli.output.serialize` turns each into its JSON
object. Records only: it imports nothing but the closed sets (`d4cli.fight.closed_sets`: the
entry kinds, `Mode`, `GrantKind`, `ActOutcome`), the effects' values (`d4cli.fight.effects`)
a roll of dice (`d4cli.rules.dice.DiceRoll`: rolled damage or healing) and the end of a
fight (`d4cli.fight.sides.FightEnd`, R21).
"""

from __future__ import annotations

from typing import NamedTuple

from d4cli.fight.closed_sets import (
    ADD,
    DAMAGE,
    EFFECT,
    EXHAUST,
    HEAL,
    MOVE,
    NEXT,
    NOTE,
    REMOVE,
    SET,
    TURN_END,
    TURN_START,
)
from d4cli.fight.closed_sets import ActOutcome as ActOutcome  # the closed sets, re-exported
from d4cli.fight.closed_sets import GrantKind as GrantKind
from d4cli.fight.closed_sets import Mode as Mode
from d4cli.fight.effects import Effect, Ended
from d4cli.fight.sides import FightEnd
from d4cli.rules.dice import DiceRoll
from d4cli.rules.records import notebook


@notebook
class AddEvent(NamedTuple):
    """A creature joined at the end of the turn order (R1, R13); its Load is the reset value."""

    @property
    def allowed(self) -> bool:
        return True

    @property
    def kind(self) -> str:
        return ADD

    round: int
    turn: str | None
    actor: str
    aspects: tuple[tuple[str, int], ...]
    load_buffer: int
    exhaustion: int
    load_after: int
    evasion: int
    hp_after: int | None
    max_hp: int | None = None
    position: int | None = None
    next: str | None = None
    side: str | None = None  # the sheet it came with (C8): side and stats, as ``(name, value)``
    attributes: tuple[tuple[str, int], ...] = ()
    proficiencies: tuple[tuple[str, int], ...] = ()
    specializations: tuple[tuple[str, int], ...] = ()
    names: tuple[str, ...] = ()  # every creature added (``add --count``); the first is ``actor``
    like: str | None = None  # the creature whose sheet they copy (``add --like``)
    hidden: bool = False  # off the player view (`d4cli.fight.visibility`)


@notebook
class MoveEvent(NamedTuple):
    """A creature moved in the turn order (R13); nothing else changed.

    Attributes:
        position_before / position_after: its place in the order, from 1.
        order: every creature's name in the new order.
        next: whose turn a plain ``turn start`` begins now (R19).
    """

    @property
    def allowed(self) -> bool:
        return True

    @property
    def kind(self) -> str:
        return MOVE

    round: int
    turn: str | None
    actor: str
    position_before: int
    position_after: int
    order: tuple[str, ...]
    next: str | None


@notebook
class RemoveEvent(NamedTuple):
    """A creature left (R17).

    Attributes:
        ended_turn: it was the creature whose turn ran.
        next: whose turn a plain ``turn start`` begins now.
        effects_ended: its own effects, and the effects on others timed to its turn (R20).
        round_open: nobody is left to go, yet no turn end has ended the round: it runs on
            until the next turn start, and a creature added or healed before then has its
            turn in it (R19).
    """

    @property
    def allowed(self) -> bool:
        return True

    @property
    def kind(self) -> str:
        return REMOVE

    round: int
    turn: str | None
    actor: str
    ended_turn: bool
    next: str | None
    load_before: int
    hp_before: int | None
    effects_ended: tuple[Ended, ...] = ()  # R20
    fight_over: FightEnd[str] | None = None  # when removing it ended the fight (R21)
    round_open: bool = False


@notebook
class Reset(NamedTuple):
    """One creature's Load reset (R1, R12)."""

    name: str
    load_before: int
    load_after: int


@notebook
class TurnStartEvent(NamedTuple):
    """A turn started (R1, R12, R13).

    Attributes:
        ended: the creature whose running turn ended first, if any (R14).
        new_round: the turn began a new round.
        out_of_order: the GM started a turn other than the next in order.
        resets: the Loads reset (R1 in turn mode, R12 in round mode).
        next: whose turn a plain ``turn start`` begins next.
        skipped: down creatures the default order passed over (R18).
        again: the creature had already had its turn this round (R19).
        down: the creature whose turn starts is down (R18): it cannot act.
    """

    @property
    def allowed(self) -> bool:
        return True

    @property
    def kind(self) -> str:
        return TURN_START

    round: int
    turn: str | None
    actor: str
    ended: str | None
    new_round: bool
    out_of_order: bool
    resets: tuple[Reset, ...]
    next: str | None
    effects_ended: tuple[Ended, ...] = ()  # R20
    skipped: tuple[str, ...] = ()
    again: bool = False
    down: bool = False
    fight_over: FightEnd[str] | None = None  # while the fight is over (R21)


@notebook
class TurnEndEvent(NamedTuple):
    """The running turn ended; its Load stays (R14)."""

    @property
    def allowed(self) -> bool:
        return True

    @property
    def kind(self) -> str:
        return TURN_END

    round: int
    turn: str | None
    actor: str
    load_after: int
    next: str | None
    round_over: bool
    effects_ended: tuple[Ended, ...] = ()  # R20


@notebook
class ExhaustEvent(NamedTuple):
    """A creature's Exhaustion level changed (R15): only its reset value moves."""

    @property
    def allowed(self) -> bool:
        return True

    @property
    def kind(self) -> str:
        return EXHAUST

    round: int
    turn: str | None
    actor: str
    exhaustion_before: int
    exhaustion_after: int
    load_after: int
    reset_value: int


@notebook
class EffectEvent(NamedTuple):
    """A lasting effect was added or removed (R20); ``actor`` is the creature it is on.

    Attributes:
        effect: the effect added or removed.
        replaced: the effect of the same source (R4) that an add replaced, if any.
        counts_from: the round the effect's rounds are counted from (R20: the next
            round when the round is over), for "N rounds left"; None: ``round``.
    """

    @property
    def allowed(self) -> bool:
        return True

    @property
    def kind(self) -> str:
        return EFFECT

    round: int
    turn: str | None
    actor: str
    action: str
    effect: Effect
    replaced: Effect | None = None
    counts_from: int | None = None


@notebook
class DamageEvent(NamedTuple):
    """Damage not from an act (R16): off the hp, never below 0; at 0 the creature is down (R18).

    The amount is a number the GM gave, or the total of the dice they named (*roll*).
    """

    @property
    def allowed(self) -> bool:
        return True

    @property
    def kind(self) -> str:
        return DAMAGE

    round: int
    turn: str | None
    actor: str
    amount: int
    hp_before: int | None
    hp_after: int | None
    max_hp: int | None
    down_before: bool
    down_after: bool
    fight_over: FightEnd[str] | None = None  # when this damage ended the fight (R21)
    roll: DiceRoll | None = None  # the dice that gave *amount* (``damage NAME 2d6+1``), else None


@notebook
class HealEvent(NamedTuple):
    """Healing (R18): up to ``max_hp``; above 0 a down creature is back in the order.

    ``next_round``: it is back, but has had its turn this round (or the turn end that
    ended the round skipped it), so its next turn is in the next round (R19).
    """

    @property
    def allowed(self) -> bool:
        return True

    @property
    def kind(self) -> str:
        return HEAL

    round: int
    turn: str | None
    actor: str
    amount: int
    hp_before: int | None
    hp_after: int | None
    max_hp: int | None
    down_before: bool
    down_after: bool
    next_round: bool = False
    roll: DiceRoll | None = None  # the dice that gave *amount* (``heal NAME 1d8``), else None


@notebook
class NoteEvent(NamedTuple):
    """A note for the log (``note [NAME] TEXT``), or a creature's ``notes`` set (``note NAME --set``).

    Attributes:
        round / turn: the round and whose turn it is.
        actor: the creature the note is about, or None for the whole encounter.
        text: the note; with *set*, the creature's new ``notes``.
        set: the creature's ``notes`` were replaced by *text*.
        notes_before: its ``notes`` before (with *set*), else None.
    """

    @property
    def kind(self) -> str:
        return NOTE

    @property
    def allowed(self) -> bool:
        return True

    round: int
    turn: str | None
    actor: str | None
    text: str
    set: bool = False
    notes_before: str | None = None


@notebook
class FieldChange(NamedTuple):
    """One field that ``set`` changed: its name as given (``hp``, ``aspect.Might``,
    ``party_hp``), its value before (None: absent) and after."""

    field: str
    before: object
    after: object


@notebook
class SetEvent(NamedTuple):
    """Fields of a creature, or of the players' view settings, set by the GM (``set``).

    Attributes:
        round / turn: the round and whose turn it is.
        actor: the creature, or None for the ``[player_view]`` settings.
        changes: each field that changed, in the order given.
    """

    @property
    def kind(self) -> str:
        return SET

    @property
    def allowed(self) -> bool:
        return True

    round: int
    turn: str | None
    actor: str | None
    changes: tuple[FieldChange, ...]


class NextEvent(NamedTuple):
    """A fight ended and the next began in the same encounter (R1, R12, R13, R20).

    Attributes:
        fight: the new fight's number in the evening (the first fight is 1).
        name / previous: the new fight's name, the finished one's.
        archived: where the finished fight was kept (a path, as the store named it).
        keep_side: the side that carried.
        kept / added: the names that carried, the names that joined (turn order).
        effects_dropped: how many lasting effects and grants ended with the old fight.
        mode / round_reset: the new fight's reset mode (R12).
    """

    fight: int
    name: str
    previous: str
    archived: str
    keep_side: str
    kept: tuple[str, ...]
    added: tuple[str, ...]
    effects_dropped: int
    mode: str
    round_reset: str
    round: int = 0
    turn: str | None = None
    actor: str | None = None

    @property
    def allowed(self) -> bool:
        return True

    @property
    def kind(self) -> str:
        return NEXT
