"""`Tracker`: one encounter file and everything that can be done to it or read from it.

Every front end (the CLI's commands, ``play``, ``serve``, a designer's script) goes
through a `Tracker`. A change hands a pure transition of `d4cli.fight` to the one door
(`d4cli.api.change.Door`: lock, one read, journal, atomic write, the side files that ride
with it) and returns a `Change` holding the record that says what happened and why; the
front end renders it. Nothing here prints or reads the environment.

`Tracker` is one class by composition, not a chain of base classes: its reads are a
`Reader`'s (``self.reader``, which the server and the live boards use alone), its writes
go through its `Door` (``self.door``, which a seat's requests share), and the transitions
that take more than a call are functions (`d4cli.api.transitions`). Each method says in
one place what it reads or changes; no method is spread over files.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar, overload

from d4cli.api.add_sheets import AddSpec
from d4cli.api.arguments import DC, checked_methods, dc_or_none
from d4cli.api.change import Change, Door
from d4cli.api.players import Shown
from d4cli.api.reader import Reader
from d4cli.api.templates import new_encounter
from d4cli.api.transitions import (
    Names,
    act_transition,
    add_transition,
    damage_transition,
    effect_transition,
    exhaust_transition,
    heal_transition,
    one_or_several,
    rolled_amount,
)
from d4cli.fight import events, several, turns, visibility
from d4cli.fight.actions import ActRecord
from d4cli.fight.closed_sets import GrantKind
from d4cli.fight.effect_transitions import remove_effect
from d4cli.fight.encounter_state import TEAM_SOURCE, Encounter
from d4cli.fight.notes import set_notes, write_note
from d4cli.fight.players_view import PublicView
from d4cli.fight.sheet_check import CheckRecord, SheetCheckRequest, sheet_check
from d4cli.fight.sheets import ActionEvent, add_action, remove_action
from d4cli.fight.team import TeamRecord, TeamRequest, team
from d4cli.fileformat.edits import set_creature_fields, set_view_fields
from d4cli.rules.dice import DiceSource, ExtraDice
from d4cli.store import files
from d4cli.store.history import History, HistoryStream
from d4cli.store.patch_replay import Replay
from d4cli.store.transaction import Clock, create, local_now
from d4cli.store.undo import Redone, Undone, redo, undo

R = TypeVar("R")


@checked_methods
class Tracker:
    """An encounter file (TOML, with its journal, redo file and lock beside it).

    Args:
        path: the encounter file.
        rng: the dice (anything with ``randint(a, b)``); default a fresh `random.Random`.
        clock: the time each journal entry records; default local time.
        lock_timeout: seconds to wait for another command's lock (None: 5 s).

    Every change method returns a `Change` and raises `InputError` (bad input, naming the
    field), `FileError` (a file that cannot be read, used or written) or `LockTimeout`;
    on any error the file and the journal stay byte for byte as they were. Each is a pure
    transition of `d4cli.fight` handed to the `Door`. ``damage``, ``heal``, ``reveal``,
    ``conceal`` and ``effect_add`` take one creature or several (`d4cli.api.transitions`).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        rng: DiceSource | None = None,
        clock: Clock = local_now,
        lock_timeout: float | None = None,
    ) -> None:
        self.path = Path(path)
        self.reader = Reader(self.path)
        self.door = Door(self.path, rng=rng, clock=clock, lock_timeout=lock_timeout)

    def __repr__(self) -> str:  # ``Tracker('encounter.toml')``: the file it holds, as given
        return f"Tracker({str(self.path)!r})"

    def change(
        self,
        transition: Callable[[Encounter], tuple[Encounter, R]],
        *,
        note: str | None = None,
        dry_run: bool = False,
        always_logged: bool = False,
    ) -> Change[R]:
        """Any pure *transition* of `d4cli.fight` as one change, through the door (`Door.change`)."""
        return self.door.change(transition, note=note, dry_run=dry_run, always_logged=always_logged)

    # --- reads (`Reader`) ------------------------------------------------------------------

    def status(self) -> Encounter:
        """The encounter as it stands (`Reader.status`)."""
        return self.reader.status()

    def stamp(self) -> tuple[files.Stamp, ...]:
        """A cheap stamp of the file and its journal (`Reader.stamp`)."""
        return self.reader.stamp()

    def own_files(self) -> tuple[Path, ...]:
        """The encounter file and its side files (`Reader.own_files`)."""
        return self.reader.own_files()

    def history(self, last: int | None = None) -> History:
        """The changes that stand, oldest first (`Reader.history`)."""
        return self.reader.history(last)

    def view(self) -> PublicView:
        """What the players' screens show (`Reader.view`)."""
        return self.reader.view()

    def shown(self) -> Shown:
        """What the players' screens show and its encounter (`Reader.shown`)."""
        return self.reader.shown()

    def log(self, last: int | None = None) -> HistoryStream:
        """The journal's standing entries, streamed (`Reader.log`)."""
        return self.reader.log(last)

    def replay(self) -> Replay:
        """The standing entries with the file's text after each (`Reader.replay`)."""
        return self.reader.replay()

    def status_at(self, seq: int, replay: Replay | None = None) -> tuple[dict[str, Any], Encounter]:
        """Journal entry *seq* and the encounter right after it (`Reader.status_at`)."""
        return self.reader.status_at(seq, replay)

    def players_state_at(self, seq: int) -> tuple[dict[str, Any], Encounter]:
        """Entry *seq* and the state a players' replay projects (`Reader.players_state_at`)."""
        return self.reader.players_state_at(seq)

    def states(
        self, replay: Replay, keep: Iterable[int]
    ) -> Iterator[tuple[dict[str, Any], Encounter | None]]:
        """Entries of *replay* with the encounter after each (`Reader.states`)."""
        return self.reader.states(replay, keep)

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        text: str,
        details: Mapping[str, Any],
        *,
        force: bool = False,
        rng: DiceSource | None = None,
        clock: Clock = local_now,
        lock_timeout: float | None = None,
    ) -> Tracker:
        """Write a new encounter file holding *text* (validated) and its ``init`` journal entry.

        *details* are the entry's facts (``name``, ``mode``, ``from``, ...). An existing
        journal is kept and the ``init`` appended.

        Raises:
            InputError: the file exists and *force* is not set.
            FileError: the path is a folder, not a regular file, read-only; a failed write.
        """
        tracker = cls(path, rng=rng, clock=clock, lock_timeout=lock_timeout)
        create(tracker.path, text, dict(details), force=force, clock=clock, timeout=lock_timeout)
        return tracker

    @classmethod
    def init(
        cls,
        path: str | os.PathLike[str],
        *,
        name: str | None = None,
        mode: str | None = None,
        round_reset: str | None = None,
        template: str | None = None,
        force: bool = False,
        rng: DiceSource | None = None,
        clock: Clock = local_now,
        lock_timeout: float | None = None,
    ) -> Tracker:
        """Create the encounter file at *path*: empty (named *name*, else after the file), or
        from *template* (a bundled example's name such as ``"skirmish"``, or a file), in *mode*
        ``turn``/``round`` with *round_reset* ``buffer``/``zero`` (R12); journaled as ``init``.

        Raises:
            InputError: an unknown mode, round reset or template; the file exists without *force*.
            FileError: the template is not a valid encounter; the file cannot be written.
        """
        where = Path(path)
        made = new_encounter(
            where, name=name, mode=mode, round_reset=round_reset, template=template
        )
        return cls.create(
            where,
            made.text,
            made.details,
            force=force,
            rng=rng,
            clock=clock,
            lock_timeout=lock_timeout,
        )

    # --- creatures and turns (R1, R12-R19) ----------------------------------------------

    def add(
        self,
        spec: AddSpec,
        *,
        before: str | None = None,
        after: str | None = None,
        note: str | None = None,
    ) -> Change[events.AddEvent]:
        """Add the creature(s) *spec* describes, together, at the end of the turn order or
        just before/after another; their Load starts at the reset value (R1, R13, R19).

        Raises:
            InputError: a sheet the rules refuse (checked before the file is read when it
                copies no other), a name in use, an unknown *before*/*after*/``like``.
        """
        return self.change(add_transition(spec, before, after), note=note)

    def remove(self, name: str, *, note: str | None = None) -> Change[events.RemoveEvent]:
        """Remove a creature; the turn never moves to someone else (R17)."""
        return self.change(lambda encounter: turns.remove_creature(encounter, name), note=note)

    def move(
        self, name: str, place: str, other: str | None = None, *, note: str | None = None
    ) -> Change[events.MoveEvent]:
        """Move a creature in the turn order: ``before``/``after`` *other*, ``first`` or ``last`` (R13)."""
        return self.change(
            lambda encounter: turns.move_creature(encounter, name, place, other), note=note
        )

    def turn_start(
        self, name: str | None = None, *, note: str | None = None
    ) -> Change[events.TurnStartEvent]:
        """Start the next creature's turn, or *name*'s, ending the running one (R1, R12, R13, R19)."""
        return self.change(lambda encounter: turns.start_turn(encounter, name), note=note)

    def turn_end(self, *, note: str | None = None) -> Change[events.TurnEndEvent]:
        """End the running turn; the Load is kept (R14)."""
        return self.change(turns.end_turn, note=note)

    def exhaust(
        self, name: str, level: int | Callable[[int], int], *, note: str | None = None
    ) -> Change[events.ExhaustEvent]:
        """Set a creature's Exhaustion level (R15); *level* may be a function of the current level."""

        return self.change(exhaust_transition(name, level), note=note)

    # --- one creature or several (R16, R18, R20) ------------------------------------------------

    @overload
    def damage(
        self, name: str, amount: int | str, *, note: str | None = None
    ) -> Change[events.DamageEvent]: ...

    @overload
    def damage(
        self, name: Sequence[str], amount: int | str, *, note: str | None = None
    ) -> Change[events.DamageEvent | several.SeveralEvent]: ...

    def damage(self, name: Names, amount: int | str, *, note: str | None = None) -> Change[Any]:
        """Take *amount* hp off a creature, or off each of several; at 0 one is down (R16, R18).
        *amount* is a whole number, or dice to roll with the tracker's dice (``"2d6+1"``, R6,
        L2, L3), rolled once: every creature named takes that total. The record's ``roll``
        says what they showed, and a roll is logged even when it changes nothing; a total
        below 0 takes nothing off.

        Raises:
            InputError: no such creature, a pattern matching nobody, a creature named twice;
                a negative number; dice that are not ``NdX`` terms and numbers joined by
                ``+`` and ``-``.
        """
        value, roll = rolled_amount(amount, self.door.rng)
        transition = damage_transition(name, value, roll)
        # a roll is kept, whatever it took off
        return self.change(transition, note=note, always_logged=roll is not None)

    @overload
    def heal(
        self, name: str, amount: int | str, *, note: str | None = None
    ) -> Change[events.HealEvent]: ...

    @overload
    def heal(
        self, name: Sequence[str], amount: int | str, *, note: str | None = None
    ) -> Change[events.HealEvent | several.SeveralEvent]: ...

    def heal(self, name: Names, amount: int | str, *, note: str | None = None) -> Change[Any]:
        """Give a creature, or each of several, *amount* hp back, up to its ``max_hp`` (R18);
        *amount* as `damage`'s (dice rolled once for all)."""
        value, roll = rolled_amount(amount, self.door.rng)
        transition = heal_transition(name, value, roll)
        return self.change(transition, note=note, always_logged=roll is not None)

    @overload
    def reveal(self, name: str, *, note: str | None = None) -> Change[visibility.RevealEvent]: ...

    @overload
    def reveal(
        self, name: Sequence[str], *, note: str | None = None
    ) -> Change[visibility.RevealEvent | several.SeveralEvent]: ...

    def reveal(self, name: Names, *, note: str | None = None) -> Change[Any]:
        """Show a hidden creature, or several, on the players' view (R20)."""
        transition = one_or_several(name, visibility.reveal, several.reveal_several)
        return self.change(transition, note=note)

    @overload
    def conceal(self, name: str, *, note: str | None = None) -> Change[visibility.ConcealEvent]: ...

    @overload
    def conceal(
        self, name: Sequence[str], *, note: str | None = None
    ) -> Change[visibility.ConcealEvent | several.SeveralEvent]: ...

    def conceal(self, name: Names, *, note: str | None = None) -> Change[Any]:
        """Hide a creature, or several, from the players' view (R20)."""
        transition = one_or_several(name, visibility.conceal, several.conceal_several)
        return self.change(transition, note=note)

    @overload
    def effect_add(
        self,
        name: str,
        source: str,
        grant: GrantKind | str,
        *,
        against: bool = False,
        start_of: str | None = None,
        end_of: str | None = None,
        rounds: int | None = None,
        uses: int | None = None,
        level: int = 1,
        public: bool = True,
        side: None = None,
        note: str | None = None,
    ) -> Change[events.EffectEvent]: ...

    @overload
    def effect_add(
        self,
        name: Names,
        source: str,
        grant: GrantKind | str,
        *,
        against: bool = False,
        start_of: str | None = None,
        end_of: str | None = None,
        rounds: int | None = None,
        uses: int | None = None,
        level: int = 1,
        public: bool = True,
        side: str | None = None,
        note: str | None = None,
    ) -> Change[events.EffectEvent | several.SeveralEvent]: ...

    def effect_add(
        self,
        name: Names,
        source: str,
        grant: GrantKind | str,
        *,
        against: bool = False,
        start_of: str | None = None,
        end_of: str | None = None,
        rounds: int | None = None,
        uses: int | None = None,
        level: int = 1,
        public: bool = True,
        side: str | None = None,
        note: str | None = None,
    ) -> Change[Any]:
        """Put a lasting effect on a creature, or the same effect on several and on every
        creature of *side* (N1); the same source and grant again replaces it, the other grant
        is bad input (R4, R20, C8). Its duration is one for all: ``end_of`` names one creature.
        """
        transition = effect_transition(
            name,
            source,
            str(grant),
            against=against,
            start_of=start_of,
            end_of=end_of,
            rounds=rounds,
            uses=uses,
            level=level,
            public=public,
            side=side,
        )
        return self.change(transition, note=note)

    # --- rolls (R2-R11, C1-C8) ------------------------------------------------------------

    def act(
        self,
        actor: str,
        aspect: str,
        *,
        cost: int | None = None,
        advantage: Iterable[str] | None = None,
        disadvantage: Iterable[str] | None = None,
        extra: Iterable[ExtraDice | str] | None = None,
        dc: DC | None = None,
        target: str | None = None,
        evasion: int | None = None,
        gm: bool = False,
        ignore_load: bool = False,
        dry_run: bool = False,
        note: str | None = None,
        faces: Sequence[int] | None = None,
    ) -> Change[ActRecord]:
        """A creature acts: gate, pool, roll, Load + Cost, damage to a target (R2-R11, R16).

        *aspect* names one of its Aspects or one of its named actions, whose Cost, extra
        dice, DC (a number or a tier, C2) and sources fill what is not given here (None: not
        given). Off its turn
        it is a reaction (R10); with *gm* a GM-called roll: no gate, no Cost, Load unchanged,
        not a reaction, a down creature too (R9). A refusal (gate R2, down R18) is a `Change`
        whose record says why, nothing written.

        *faces* are real dice entered by hand instead of rolled: the pool's d4s, then each
        extra dice group's, in order (`d4cli.fight.actions.act_entered`); the record says ``entered``.

        Raises:
            InputError: as `d4cli.fight.actions.act`; *faces* (field ``faces``) not exactly as
                many as the roll takes after the gate, or a face outside its die.
        """
        transition = act_transition(
            actor,
            aspect,
            rng=self.door.rng,
            cost=cost,
            advantage=advantage,
            disadvantage=disadvantage,
            extra=extra,
            dc=dc_or_none(dc),
            target=target,
            evasion=evasion,
            gm=gm,
            ignore_load=ignore_load,
            faces=faces,
        )
        return self.change(transition, note=note, dry_run=dry_run, always_logged=True)

    def team(
        self,
        actor: str,
        target: str,
        grant: GrantKind | str,
        *,
        aspect: str | None = None,
        cost: int = 1,
        source: str = TEAM_SOURCE,
        dry_run: bool = False,
        note: str | None = None,
    ) -> Change[TeamRecord]:
        """A Team Action: *actor* pays through its gate; *target*'s next roll gets the grant (R11)."""
        request = TeamRequest(actor, target, GrantKind(grant), aspect, cost, source)
        return self.change(
            lambda encounter: team(encounter, request),
            note=note,
            dry_run=dry_run,
            always_logged=True,
        )

    def check(
        self, request: SheetCheckRequest, *, dry_run: bool = False, note: str | None = None
    ) -> Change[CheckRecord]:
        """A d20 check from a creature's stored stats and its grants; logged, Load unchanged (C1-C8)."""
        rng = self.door.rng
        return self.change(
            lambda encounter: sheet_check(encounter, request, rng),
            note=note,
            dry_run=dry_run,
            always_logged=True,
        )

    # --- effects, actions, notes, the players' view ----------------------------------------

    def effect_remove(
        self, name: str, source: str, *, note: str | None = None
    ) -> Change[events.EffectEvent]:
        """End a creature's effect of *source* early."""
        return self.change(lambda encounter: remove_effect(encounter, name, source), note=note)

    def action_add(
        self, name: str, row: Mapping[str, object], *, note: str | None = None
    ) -> Change[ActionEvent]:
        """Give a creature a named action (C8), or replace its action of that name."""
        return self.change(lambda encounter: add_action(encounter, name, row), note=note)

    def action_remove(
        self, name: str, action: str, *, note: str | None = None
    ) -> Change[ActionEvent]:
        """Take a named action off a creature."""
        return self.change(lambda encounter: remove_action(encounter, name, action), note=note)

    def note(self, name: str | None, text: str) -> Change[events.NoteEvent]:
        """A note in the journal about creature *name* (None: the whole encounter); nothing else changes."""
        return self.change(lambda encounter: write_note(encounter, name, text), always_logged=True)

    def set_notes(self, name: str, text: str) -> Change[events.NoteEvent]:
        """Replace a creature's standing notes with *text*."""
        return self.change(lambda encounter: set_notes(encounter, name, text))

    def alias(
        self, name: str, alias: str | None, *, note: str | None = None
    ) -> Change[visibility.AliasEvent]:
        """Give a creature the name the players see (None: its own name again, R20)."""
        return self.change(
            lambda encounter: visibility.set_alias(encounter, name, alias), note=note
        )

    # --- a creature's fields, mid-fight ------------------------------------------------------

    def set(
        self, name: str, changes: Mapping[str, object], *, note: str | None = None
    ) -> Change[events.SetEvent]:
        """Set fields of a creature, validated as the file is (docs/file-format.md): ``hp``,
        ``max_hp``, ``evasion``, ``load_buffer``, ``side``, ``hp_shown``, ``evasion_shown``,
        ``aspect.NAME``, ``attribute.NAME``, ``proficiency.NAME``, ``specialization.NAME``.
        A value is the file's type or text to read as it (``"3"``, ``"true"``). One journal
        entry, one ``undo``; values it already holds change nothing.

        Raises:
            InputError: no such creature; an unknown field; a value the file would refuse
                (out of range, ``hp`` above ``max_hp``), naming the field and the value.
        """
        return self.change(
            lambda encounter: set_creature_fields(encounter, name, changes, self.path), note=note
        )

    def set_view(
        self, changes: Mapping[str, object], *, note: str | None = None
    ) -> Change[events.SetEvent]:
        """Set fields of the ``[player_view]`` table: ``party``, ``party_hp``, ``others_hp``
        (``exact``, ``label`` or ``none``), ``seats`` (``approve`` or ``auto``),
        ``odds_shown`` (a bool).

        Raises:
            InputError: an unknown field or a value the file would refuse.
        """
        return self.change(
            lambda encounter: set_view_fields(encounter, changes, self.path), note=note
        )

    # --- history, and what an interrupt left (`Door`) ------------------------------------------

    @property
    def writing_seq(self) -> int | None:
        """The ``seq`` of the entry the newest change began to write (`Door.writing_seq`)."""
        return self.door.writing_seq

    def saved_seq(self) -> int | None:
        """After an interrupted change: its entry's ``seq`` when it stands (`Door.saved_seq`)."""
        return self.door.saved_seq()

    def newest_seq(self) -> int | None:
        """The ``seq`` of the newest standing journal entry (`Door.newest_seq`)."""
        return self.door.newest_seq()

    def went_back(self) -> tuple[str, int | None, int | None] | None:
        """After an interrupted ``undo`` or ``redo``: ``(kind, before, now)`` (`Door.went_back`)."""
        return self.door.went_back()

    def undo(self) -> Undone:
        """Revert the newest change byte for byte (never the ``init``); ``redo`` can put it back.

        Raises:
            InputError: nothing to undo. FileError: a damaged journal, a failed write.
        """
        self.door.going_back = (
            "undo",
            self.door.newest_seq(),
        )  # what an interrupt compares against
        return undo(self.path, timeout=self.door.lock_timeout)

    def redo(self) -> Redone:
        """Put back the newest undone change, byte for byte.

        Raises:
            InputError: nothing to redo. FileError: a damaged redo file, a failed write.
        """
        self.door.going_back = (
            "redo",
            self.door.newest_seq(),
        )  # what an interrupt compares against
        return redo(self.path, timeout=self.door.lock_timeout)
