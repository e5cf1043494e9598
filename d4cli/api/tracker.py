"""`Tracker`: one encounter file and everything that can be done to it or read from it.

Every front end (the CLI's commands, ``play``, ``serve``, a designer's script) goes
through a `Tracker`. A change opens the store's one `Transaction` (lock, one read,
journal, atomic write), computes the new state with the pure functions of
`d4cli.fight`, and returns a `Change` holding the record that says what happened
and why; the front end renders it. Nothing here prints or reads the environment.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from d4cli.api.change import Change
from d4cli.api.creature_changes import CreatureChanges
from d4cli.api.sheets import AddSpec, added_creatures, sheet_of
from d4cli.api.templates import new_encounter
from d4cli.fight.actions import ActRecord, ActRequest, act, act_entered
from d4cli.fight.closed_sets import GrantKind
from d4cli.fight.effect_transitions import remove_effect
from d4cli.fight.encounter import TEAM_SOURCE, Encounter
from d4cli.fight.events import (
    AddEvent,
    EffectEvent,
    ExhaustEvent,
    MoveEvent,
    NoteEvent,
    RemoveEvent,
    SetEvent,
    TurnEndEvent,
    TurnStartEvent,
)
from d4cli.fight.notes import set_notes, write_note
from d4cli.fight.sheet_check import CheckRecord, SheetCheckRequest, sheet_check
from d4cli.fight.sheets import ActionEvent, add_action, apply_named_action, remove_action
from d4cli.fight.team import TeamRecord, TeamRequest, team
from d4cli.fight.turns import (
    add_creatures,
    end_turn,
    move_creature,
    remove_creature,
    set_exhaustion,
    start_turn,
)
from d4cli.fight.visibility import AliasEvent, set_alias
from d4cli.fileformat.edits import set_creature_fields, set_view_fields
from d4cli.rules.dice import DiceSource, ExtraDice, parse_extra
from d4cli.store.transaction import Clock, create, local_now
from d4cli.store.undo import Redone, Undone, redo, undo


class Tracker(CreatureChanges):
    """An encounter file (TOML, with its journal, redo file and lock beside it).

    Args:
        path: the encounter file.
        rng: the dice (anything with ``randint(a, b)``); default a fresh `random.Random`.
        clock: the time each journal entry records; default local time.
        lock_timeout: seconds to wait for another command's lock (None: 5 s).

    Every change method returns a `Change` and raises `InputError` (bad input, naming the
    field), `FileError` (a file that cannot be read, used or written) or `LockTimeout`;
    on any error the file and the journal stay byte for byte as they were. Each is a pure
    transition of `d4cli.fight` applied by `Writer.change`. ``damage``, ``heal``, ``reveal``,
    ``conceal`` and ``effect_add`` take one creature or several (`CreatureChanges`).
    """

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
    ) -> Change[AddEvent]:
        """Add the creature(s) *spec* describes, together, at the end of the turn order or
        just before/after another; their Load starts at the reset value (R1, R13, R19).

        Raises:
            InputError: a sheet the rules refuse (checked before the file is read when it
                copies no other), a name in use, an unknown *before*/*after*/``like``.
        """
        checked = sheet_of(spec, spec.name, None) if spec.like is None else None

        def transition(encounter: Encounter) -> tuple[Encounter, AddEvent]:
            added, like = added_creatures(spec, encounter, checked)
            return add_creatures(encounter, added, before=before, after=after, like=like)

        return self.change(transition, note=note)

    def remove(self, name: str, *, note: str | None = None) -> Change[RemoveEvent]:
        """Remove a creature; the turn never moves to someone else (R17)."""
        return self.change(lambda encounter: remove_creature(encounter, name), note=note)

    def move(
        self, name: str, place: str, other: str | None = None, *, note: str | None = None
    ) -> Change[MoveEvent]:
        """Move a creature in the turn order: ``before``/``after`` *other*, ``first`` or ``last`` (R13)."""
        return self.change(
            lambda encounter: move_creature(encounter, name, place, other), note=note
        )

    def turn_start(
        self, name: str | None = None, *, note: str | None = None
    ) -> Change[TurnStartEvent]:
        """Start the next creature's turn, or *name*'s, ending the running one (R1, R12, R13, R19)."""
        return self.change(lambda encounter: start_turn(encounter, name), note=note)

    def turn_end(self, *, note: str | None = None) -> Change[TurnEndEvent]:
        """End the running turn; the Load is kept (R14)."""
        return self.change(end_turn, note=note)

    def exhaust(
        self, name: str, level: int | Callable[[int], int], *, note: str | None = None
    ) -> Change[ExhaustEvent]:
        """Set a creature's Exhaustion level (R15); *level* may be a function of the current level."""

        def transition(encounter: Encounter) -> tuple[Encounter, ExhaustEvent]:
            value = level
            if callable(value):
                value = value(encounter.find(name).exhaustion)
            return set_exhaustion(encounter, name, value)

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
        dc: int | None = None,
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
        dice, DC and sources fill what is not given here (None: not given). Off its turn
        it is a reaction (R10); with *gm* a GM-called roll: no gate, no Cost, Load unchanged,
        not a reaction, a down creature too (R9). A refusal (gate R2, down R18) is a `Change`
        whose record says why, nothing written.

        *faces* are real dice entered by hand instead of rolled: the pool's d4s, then each
        extra dice group's, in order (`d4cli.fight.actions.act_entered`); the record says ``entered``.

        Raises:
            InputError: as `d4cli.fight.actions.act`; *faces* (field ``faces``) not exactly as
                many as the roll takes after the gate, or a face outside its die.
        """
        request = ActRequest(
            actor=actor,
            aspect=aspect,
            cost=1 if cost is None else cost,
            advantage=tuple(advantage or ()),
            disadvantage=tuple(disadvantage or ()),
            extra=tuple(parse_extra(e, "extra") if isinstance(e, str) else e for e in extra or ()),
            dc=dc,
            target=target,
            evasion=evasion,
            gm=gm,
            ignore_load=ignore_load,
        )
        named = {"cost": cost, "extra": extra, "dc": dc, "adv": advantage, "dis": disadvantage}
        given = frozenset(key for key, value in named.items() if value is not None)
        rng = self.rng

        def transition(encounter: Encounter) -> tuple[Encounter, ActRecord]:
            named_request = apply_named_action(encounter, request, given)
            if faces is not None:
                return act_entered(encounter, named_request, faces)
            return act(encounter, named_request, rng)

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
        rng = self.rng
        return self.change(
            lambda encounter: sheet_check(encounter, request, rng),
            note=note,
            dry_run=dry_run,
            always_logged=True,
        )

    # --- effects, actions, notes, the players' view ----------------------------------------

    def effect_remove(
        self, name: str, source: str, *, note: str | None = None
    ) -> Change[EffectEvent]:
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

    def note(self, name: str | None, text: str) -> Change[NoteEvent]:
        """A note in the journal about creature *name* (None: the whole encounter); nothing else changes."""
        return self.change(lambda encounter: write_note(encounter, name, text), always_logged=True)

    def set_notes(self, name: str, text: str) -> Change[NoteEvent]:
        """Replace a creature's standing notes with *text*."""
        return self.change(lambda encounter: set_notes(encounter, name, text))

    def alias(self, name: str, alias: str | None, *, note: str | None = None) -> Change[AliasEvent]:
        """Give a creature the name the players see (None: its own name again, R20)."""
        return self.change(lambda encounter: set_alias(encounter, name, alias), note=note)

    # --- a creature's fields, mid-fight ------------------------------------------------------

    def set(
        self, name: str, changes: Mapping[str, object], *, note: str | None = None
    ) -> Change[SetEvent]:
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
    ) -> Change[SetEvent]:
        """Set fields of the ``[player_view]`` table: ``party``, ``party_hp``, ``others_hp``
        (``exact``, ``label`` or ``none``), ``seats`` (``approve`` or ``auto``),
        ``odds_shown`` (a bool).

        Raises:
            InputError: an unknown field or a value the file would refuse.
        """
        return self.change(
            lambda encounter: set_view_fields(encounter, changes, self.path), note=note
        )

    # --- history ---------------------------------------------------------------------------

    def undo(self) -> Undone:
        """Revert the newest change byte for byte (never the ``init``); ``redo`` can put it back.

        Raises:
            InputError: nothing to undo. FileError: a damaged journal, a failed write.
        """
        self.going_back = ("undo", self.newest_seq())  # what an interrupt compares against
        return undo(self.path, timeout=self.lock_timeout)

    def redo(self) -> Redone:
        """Put back the newest undone change, byte for byte.

        Raises:
            InputError: nothing to redo. FileError: a damaged redo file, a failed write.
        """
        self.going_back = ("redo", self.newest_seq())  # what an interrupt compares against
        return redo(self.path, timeout=self.lock_timeout)
