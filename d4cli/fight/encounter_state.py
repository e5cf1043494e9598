"""The encounter: creatures in turn order, as frozen values (R1, R13, R15, R16).

No files, no printing, no Rich. An `Encounter` is a frozen value; every
transition (`d4cli.fight.turns`: `add_creature`, `remove_creature`, `start_turn`,
`end_turn`, `move_creature`, `set_exhaustion`; `d4cli.fight.hitpoints`: `damage`, `heal`; `d4cli.fight.actions`: `act`,
`team`; `d4cli.fight.effect_transitions`: `add_effect`, `remove_effect`) takes one and returns ``(new_encounter, record)``,
where the record says what happened; `d4cli.output.serialize` turns it into the JSON
object that ``--json`` prints and the journal keeps. Dice come from an injected `DiceSource`. Names of creatures and
Aspects match by N1 (`fold_name`); an unknown one is an `InputError` that
names the value.

Turn state (R13, R19): ``round`` counts from 1 (0 = not started); ``current`` is
the creature whose turn runs (None between turns); ``last_turn`` the creature
whose turn ran last; ``resume_at`` the creature that followed it when it was
removed (R17); each creature's ``had_turn`` says it has had its turn this
round; ``round_open`` that the round runs on though nobody is left to go (until
the next turn start, R19). ``next_turn`` (computed, never stored) is
the creature whose turn a plain ``turn start`` begins: the next in file order
after ``last_turn`` (from ``resume_at`` on), wrapping around, that has not had
its turn and is not down (R18); None when nobody is left to go (or before round 1),
so that the next turn starts round + 1.
"""

# No `from __future__ import annotations`: a NamedTuple reads its field types as objects,
# and string annotations cost a compile each (every command that reads a file loads this).
from typing import TYPE_CHECKING, NamedTuple

from d4cli.fight.effects import GRANTS, Effect, Pending
from d4cli.rules.errors import InputError
from d4cli.rules.names import (
    NameSet,
    check_text,
    difference,
    fold_name,
    look_alike_problem,
    looks_alike,
)
from d4cli.rules.pool import reset_load
from d4cli.rules.records import notebook
from d4cli.rules.suggest import closest, did_you_mean

if TYPE_CHECKING:
    from d4cli.fight.view_settings import PlayerView

# The values of `d4cli.fight.closed_sets.Mode` and `GrantKind` (kept plain: reading a file builds no enum).
MODES: tuple[str, ...] = ("turn", "round")
# How round mode resets (R12): to the R1 value, or to Load 0.
ROUND_RESETS: tuple[str, ...] = ("buffer", "zero")
TEAM_SOURCE = "team action"
GRANT_KINDS: tuple[str, ...] = GRANTS  # what a Team Action grants (R11): an effect's grants


Stats = tuple[tuple[str, int], ...]
# The three kinds of stored stats of C8: file key -> how a message names one.
STAT_KINDS: dict[str, str] = {
    "attributes": "Attribute",
    "proficiencies": "Proficiency",
    "specializations": "Specialization",
}


@notebook
class Action(NamedTuple):
    """A named action on a creature's sheet (`d4cli.fight.sheets`): what ``act NAME ACTION`` rolls.

    Attributes:
        name: the action's name (N1), never the folded name of one of the creature's Aspects.
        aspect: the Aspect it uses (one of the creature's, N1).
        cost: its Cost (R3), >= 0.
        extra: extra-dice notations (R6, L3), such as ``("1d4",)``.
        dc: a default DC (R7), or None.
        advantage / disadvantage: default source names (R4).
    """

    name: str
    aspect: str
    cost: int = 1
    extra: tuple[str, ...] = ()
    dc: int | None = None
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()


@notebook
class Creature(NamedTuple):
    """One creature of the encounter.

    Attributes:
        name: shown exactly as written (N1).
        aspects: ``(name, value)`` pairs in the order given.
        load_buffer: the Load Buffer (R1), >= 0.
        exhaustion: the Exhaustion level (R15), >= 0.
        load: the current Action Load.
        evasion: Evasion against attacks (R7); 0 when not given.
        hp: hit points, or None when the encounter does not track them (R16).
        notes: free text kept with the creature in the file ("" when none).
        effects: its lasting effects (R20), Team Action grants among them (R11).
        had_turn: it has had its turn this round, or was down and skipped by the turn end that ended it (R19).
        max_hp: healing stops there (R18); None when it has no maximum.
        attributes / proficiencies / specializations: stored stats ``(name, value)`` (C8, L1).
        actions: named actions (`Action`), in the order given.
        side: free text such as ``party`` or ``foes`` ("" when none).
        policy: ``(key, value)`` pairs of its ``policy`` table for ``d4cli simulate``.
        hidden: off the player view entirely (`d4cli.fight.players_view`).
        alias: the name the players see ("" when none: its own name).
        hp_shown: its HP display for the players (``exact``, ``label``, ``none``), None: its side's default.
        evasion_shown: the players see its Evasion.
    """

    name: str
    aspects: tuple[tuple[str, int], ...]
    load_buffer: int = 1
    exhaustion: int = 0
    load: int = 0
    evasion: int = 0
    hp: int | None = None
    notes: str = ""
    effects: tuple[Effect, ...] = ()
    had_turn: bool = False
    max_hp: int | None = None
    attributes: Stats = ()
    proficiencies: Stats = ()
    specializations: Stats = ()
    actions: tuple[Action, ...] = ()
    side: str = ""
    policy: tuple[
        tuple[str, str | int], ...
    ] = ()  # the simulator's policy table (d4cli.sim.policy)
    hidden: bool = False
    alias: str = ""
    hp_shown: str | None = None
    evasion_shown: bool = False

    @property
    def grants(self) -> Pending:
        """Its Team Action grants (R11) waiting for its next roll: the ``team`` effects (R20)."""
        team = [effect for effect in self.effects if effect.origin == "team"]
        return Pending(
            tuple(e.source for e in team if e.grant == "advantage"),
            tuple(e.source for e in team if e.grant == "disadvantage"),
        )

    @property
    def down(self) -> bool:
        """At 0 hp (R18); a creature without hp is never down."""
        return self.hp is not None and self.hp <= 0

    @property
    def reset_value(self) -> int:
        """The Load this creature resets to (R1): ``Exhaustion - Load Buffer``."""
        return reset_load(self.load_buffer, self.exhaustion)

    def headroom(self) -> dict[str, int]:
        """``Aspect - Load`` for each Aspect (R2), in the order given."""
        return {name: value - self.load for name, value in self.aspects}

    def aspect(self, name: str, field_name: str = "ASPECT") -> tuple[str, int]:
        """The Aspect called *name* (N1) as ``(name as written, value)``.

        Raises:
            InputError: the creature has no such Aspect.
        """
        for aspect_name, value in self.aspects:
            if (
                aspect_name == name
            ):  # as written: the same Aspect N1 would find (names differ folded)
                return aspect_name, value
        key = fold_name(name)
        for aspect_name, value in self.aspects:
            if fold_name(aspect_name) == key:
                return aspect_name, value
        have = ", ".join(aspect_name for aspect_name, _ in self.aspects) or "none"
        hint = did_you_mean(name, (aspect_name for aspect_name, _ in self.aspects))
        raise InputError(field_name, name, f"{self.name} has no such Aspect (it has: {have}){hint}")


@notebook
class Encounter(NamedTuple):
    """The state of an encounter (R12, R13).

    Attributes:
        name: the encounter's name.
        mode: ``turn`` (reset at a creature's own turn) or ``round`` (everyone at each round), R12.
        round: the round number, from 1; 0 before the first turn (R13).
        current: the creature whose turn runs, or None.
        last_turn: the creature whose turn ran last (the default order follows it, R19), or None.
        creatures: in turn order, never sorted (R13, R17).
        round_reset: ``buffer`` or ``zero``: what round mode resets to (R12).
        player_view: the file's ``[player_view]`` table (the party's side, default HP displays),
            None when the file has none (the defaults of `d4cli.fight.view_settings.PlayerView`).
        resume_at: when the creature whose turn ran last was removed, the creature that
            followed it: the default order goes on from there, wherever later adds and moves
            put it (R17); ``last_turn`` is then None. None otherwise.
        round_open: nobody is left to go between turns (the last turn ended, or the last
            creature still to act was removed), yet the round runs until the next turn start,
            and a creature added or healed before then has its turn in it (R19). False in
            files whose last turn end closed the round (before R19's amendment).
    """

    name: str = ""
    mode: str = "turn"
    round: int = 0
    current: str | None = None
    last_turn: str | None = None
    creatures: tuple[Creature, ...] = ()
    round_reset: str = "buffer"
    player_view: "PlayerView | None" = None
    resume_at: str | None = None
    round_open: bool = False

    def order_start(self) -> int:
        """Where the default order looks first (R17, R19): the creature after ``last_turn``,
        ``resume_at`` itself, or the first creature when neither names one."""
        if self.resume_at is not None:
            found = self._position(self.resume_at)
            return 0 if found is None else found
        if self.last_turn is not None:
            found = self._position(self.last_turn)
            return 0 if found is None else found + 1
        return 0

    def next_position(self) -> int | None:
        """Position of the default next turn this round (R19), None when nobody is left to go.

        The first creature from `order_start` in file order, wrapping around,
        that has not had its turn and is not down (R18). None before round 1 too.
        """
        if self.round == 0 or not self.creatures:
            return None
        count = len(self.creatures)
        start = self.order_start() % count
        creatures = self.creatures
        for step in range(count):
            position = (start + step) % count
            creature = creatures[position]
            if not creature.had_turn and not (
                (hp := creature.hp) is not None and hp <= 0
            ):  # not `down`
                return position
        return None

    def _position(self, name: str) -> int | None:
        """Position of the creature called *name* (N1), None when nobody is.

        Names of one encounter differ folded (N1), so a name as written finds the
        same creature as its folded key: it is tried first, without folding.
        """
        for position, creature in enumerate(self.creatures):
            if creature.name == name:
                return position
        key = fold_name(name)
        for position, creature in enumerate(self.creatures):
            if fold_name(creature.name) == key:
                return position
        return None

    @property
    def round_over(self) -> bool:
        """No creature can still have a turn in the running round (R19): every one has had
        its turn, or was down and skipped by the turn end that ended the round.

        Damage or a removal that leaves nobody to go does not end the round (a creature
        added or healed before the next turn start still has its turn in it); the next
        turn start ends it.
        """
        return (
            self.round > 0
            and self.current is None
            and not self.round_open
            and all(c.had_turn for c in self.creatures)
        )

    @property
    def next_turn(self) -> str | None:
        """Whose turn a plain ``turn start`` begins this round (R19); None: it starts round + 1."""
        position = self.next_position()
        return None if position is None else self.creatures[position].name

    def reset_to(self, creature: Creature) -> int:
        """The Load *creature* resets to here (R1, R12): 0 in round mode with ``round_reset = "zero"``,
        else its `Creature.reset_value` (``Exhaustion - Load Buffer``)."""
        if self.mode == "round" and self.round_reset == "zero":
            return 0
        return creature.reset_value

    def position_of(self, name: str, field_name: str = "NAME") -> int:
        """Position of the creature called *name* (N1).

        Raises:
            InputError: nobody of that name.
        """
        for position, creature in enumerate(self.creatures):
            if creature.name == name:  # as written: `_position`'s first try, inline for speed
                return position
        found = self._position(name)
        if found is not None:
            return found
        crowd = len(self.creatures) > LISTED  # then the nearest are listed instead
        hint = "" if crowd else did_you_mean(name, (creature.name for creature in self.creatures))
        raise InputError(
            field_name, name, "no such creature in the encounter" + known_names(self, name) + hint
        )

    def find(self, name: str, field_name: str = "NAME") -> Creature:
        """The creature called *name* (N1); raises `InputError` naming *field_name* when unknown."""
        return self.creatures[self.position_of(name, field_name)]

    def follower(self, position: int) -> str | None:
        """Name of the creature after *position* in turn order, None past the last (R13)."""
        return self.creatures[position + 1].name if position + 1 < len(self.creatures) else None

    def with_creature(self, position: int, creature: Creature) -> "Encounter":
        creatures = list(self.creatures)
        creatures[position] = creature
        return self._replace(creatures=tuple(creatures))


# Past this many creatures, an unknown name's error lists only the nearest.
LISTED = 12


def known_names(encounter: Encounter, typed: str = "") -> str:
    """`` (it has: A, B)``, or for a crowd `` (25 creatures; the nearest: ...)``: what an unknown
    name's error says of the names there are, nearest to *typed* first (N1 folding)."""
    names = [creature.name for creature in encounter.creatures]
    if not names:
        return " (it has none yet)"
    if len(names) > LISTED:
        nearest = closest(typed, names, limit=5, cutoff=0.0) if typed else []
        shown = f"; the nearest: {', '.join(nearest)}" if nearest else ""
        return f" ({len(names)} creatures{shown}; 'd4cli status' lists them all)"
    return " (it has: " + ", ".join(names) + ")"


def same_name(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and (a == b or fold_name(a) == fold_name(b))


def alias_clash(creatures: tuple[Creature, ...], position: int, alias: str) -> str | None:
    """How *alias* clashes (N1) with the name or alias of another creature than the one at
    *position*, in words (``matches the name of 'Goblin'``, ``looks like the alias of 'Orc'``:
    equal under N1, or only alike in its TR39 skeleton); None when it does not (the players
    could not tell two such creatures apart)."""
    key = fold_name(alias)
    for other_position, other in enumerate(creatures):
        if other_position == position:
            continue
        for what, name in (("name", other.name), ("alias", other.alias)):
            if not name:
                continue
            if fold_name(name) == key:
                return f"matches the {what} of {other.name!r}"
            if looks_alike(name, alias):
                return f"looks like the {what} of {other.name!r}: {difference(alias, name)}"
    return None


# --- new creatures ---------------------------------------------------------------------------


def check_new_name(name: str, field_name: str = "NAME") -> str:
    """A new creature, Aspect or source name: UTF-8 text with something besides white space (N1).

    Raises:
        InputError: an empty or blank name, or one that is not valid UTF-8 text
            (`d4cli.rules.names.check_text`).
    """
    return check_text(name, field_name, name=True)


def new_creature(
    name: str,
    aspects: tuple[tuple[str, int], ...],
    *,
    load_buffer: int = 1,
    exhaustion: int = 0,
    evasion: int = 0,
    hp: int | None = None,
    max_hp: int | None = None,
) -> Creature:
    """A fresh creature, its Load at the reset value ``Exhaustion - Load Buffer`` (R1).

    With *max_hp* and no *hp* its hp starts at *max_hp*; with *hp* and no *max_hp*
    healing stops at *hp*: ``max_hp`` is *hp* (R18).

    Raises:
        InputError: an empty name, no Aspect, two Aspects whose names match (N1),
            or *hp* above *max_hp*.
    """
    check_new_name(name)
    if not aspects:
        raise InputError(
            "aspects",
            None,
            f"{name} needs at least one Aspect ({{aspects}} NAME=N)",
            mentions=("aspects",),
        )
    seen = NameSet()
    for aspect_name, _ in aspects:
        check_new_name(aspect_name, "aspects")
        same = seen.equal_to(aspect_name)
        if same is not None:
            raise InputError("aspects", aspect_name, f"the same Aspect as {same!r} (N1)")
        alike = seen.looks_like(aspect_name)
        if alike is not None:
            raise InputError(
                "aspects",
                aspect_name,
                f"{name}: an Aspect that {look_alike_problem(aspect_name, alike)}",
            )
        seen.add(aspect_name)
    if max_hp is not None and hp is None:
        hp = max_hp
    elif hp is not None and max_hp is None:
        max_hp = hp
    if max_hp is not None and hp is not None and hp > max_hp:
        raise InputError("hp", hp, f"is above {{max_hp}} {max_hp} (R18)", mentions=("max_hp",))
    return Creature(
        name,
        aspects,
        load_buffer=load_buffer,
        exhaustion=exhaustion,
        load=reset_load(load_buffer, exhaustion),
        evasion=evasion,
        hp=hp,
        max_hp=max_hp,
    )
