"""``recap``: what a fight came to, from its journal: figures, luck, where it placed (R16-R18).

Read-only: the states are replayed from the journal (`d4cli.api.replay`). The journal's entries
are read typed (`d4cli.journal.entry`); the figures are summed by `d4cli.fight.recap_figures.Tally` and
each roll's luck is worked out by `d4cli.odds.luck`, both on plain values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from d4cli.api.replay import state_after, state_lines
from d4cli.fight import closed_sets as kinds
from d4cli.fight.encounter_state import Encounter
from d4cli.fight.recap_figures import Recap, Tally, hp_lost, load_spent
from d4cli.journal.acts import ActChange, CheckChange, TeamChange
from d4cli.journal.changes import HpChange
from d4cli.journal.entry import Entry, read_entry
from d4cli.journal.heads import Change
from d4cli.odds.luck import (
    CreatureLuck,
    RollLuck,
    check_percentile,
    luck_by_creature,
    pool_percentile,
)
from d4cli.rules.dice import parse_extra
from d4cli.rules.errors import D4Error, InputError
from d4cli.sim.placement import Placement, place
from d4cli.store.patch_replay import replay_texts

Step = tuple[Entry, Encounter | None]  # a journal entry and the encounter right after it


class RecapReport(NamedTuple):
    """A fight's recap: its figures, each roll's luck and each creature's, where the fight
    placed among simulated ones (None, with *why_not*, when it was not or could not be played)."""

    figures: Recap
    rolls: list[RollLuck]
    luck: list[CreatureLuck]
    placement: Placement | None
    why_not: str | None


def recap_report(path: Path, start_at: int | None, runs: int, seed: int) -> RecapReport:
    """The recap of the fight in the journal of *path*, from entry *start_at* (None: the
    newest ``init``), placed among *runs* simulated fights seeded with *seed* (0: none).

    Raises:
        InputError: no fight yet (no entry after the start), ``start_at`` before
            the init or at or past the newest entry, a start state that cannot be rebuilt.
    """
    replay = replay_texts(path)
    if not replay.entries:
        raise InputError("recap", None, "no fight yet: this encounter has no journal")
    seqs = [read_entry(entry).seq for entry in replay.entries]
    first, last = seqs[0], seqs[-1]
    seq = first if start_at is None else start_at
    assert isinstance(seq, int) and isinstance(last, int)
    if seq >= last:
        if start_at is None:
            raise InputError("recap", None, "no fight yet: nothing in the log since the init")
        raise InputError(
            "start_at", start_at, f"leaves nothing to recap: the newest entry is #{last}"
        )
    try:
        _, start = state_after(path, replay, seq)
    except InputError as error:
        raise InputError("start_at", seq, error.problem, mentions=error.mentions) from None
    keep = [n for n, found in enumerate(seqs) if found is not None and found > seq]
    steps = [(read_entry(entry), after) for entry, after in state_lines(path, replay, keep)]
    figures = recap_figures(start, seq, steps)
    rolls = [roll for roll in (roll_luck(entry) for entry, _ in steps) if roll is not None]
    placement, why_not = None, None
    if runs == 0:
        why_not = "not asked for (--runs 0)"
    else:
        try:
            placement = place(start, figures.rounds, figures.damage_by_side, runs, seed)
        except InputError as error:
            why_not = f"the simulator cannot play it ({error.field}: {error.problem})"
    return RecapReport(figures, rolls, luck_by_creature(rolls), placement, why_not)


def recap_figures(start: Encounter, from_seq: int, steps: Sequence[Step]) -> Recap:
    """The `Recap` of *steps* (journal entries after entry *from_seq*, each with the encounter after it).

    A step whose encounter could not be rebuilt (None) still counts its entry's
    facts; only the turn-start and down/up figures need the encounter. A change of several
    creatures counts each one's part.
    """
    tally = Tally.starting(start)
    last = start
    for entry, after in steps:
        round_ = entry.change.round or 0
        if after is not None:
            tally.seen(after)
        for part in entry.change.parts:
            count = _COUNTS.get(part.kind)
            if count is not None and part.actor is not None:
                count(tally, part, part.actor, round_, after)
        if after is not None:
            tally.count_downs(after, round_, entry.seq or 0)
            last = after
    to_seq = steps[-1][0].seq if steps else None
    return tally.recap(start, last, from_seq, to_seq if to_seq is not None else from_seq)


def _count_act(
    tally: Tally, change: Change, actor: str, round_: int, after: Encounter | None
) -> None:
    """An action (R9, R10, R16, R8): on or off its turn, or GM-called; the hp it took off, its Load."""
    assert isinstance(change, ActChange)
    how = "gm" if change.gm_called else "off" if change.off_turn else "on"
    before = change.load_before if change.load_before is not None else change.load
    lost = hp_lost(change.hp_before, change.hp_after, change.damage)
    spent = load_spent(before, change.load_after)
    tally.act(actor, round_, how=how, target=change.target, lost=lost, spent=spent)


def _count_team(
    tally: Tally, change: Change, actor: str, round_: int, after: Encounter | None
) -> None:
    assert isinstance(change, TeamChange)
    tally.team(actor, load_spent(change.load_before, change.load_after))


def _count_damage(
    tally: Tally, change: Change, actor: str, round_: int, after: Encounter | None
) -> None:
    assert isinstance(change, HpChange)
    tally.damage(actor, round_, hp_lost(change.hp_before, change.hp_after))


def _count_turn_start(
    tally: Tally, change: Change, actor: str, round_: int, after: Encounter | None
) -> None:
    tally.turn_start(actor, after)


# Each kind of journal entry that counts -> what it adds to the figures.
_COUNTS: dict[str, Callable[[Tally, Change, str, int, Encounter | None], None]] = {
    kinds.ACT: _count_act,
    kinds.TEAM: _count_team,
    kinds.DAMAGE: _count_damage,
    kinds.TURN_START: _count_turn_start,
}


def roll_luck(entry: Entry) -> RollLuck | None:
    """The `RollLuck` of a journal entry that rolled (``act`` allowed, ``check`` possible), else None.

    The pool is read as rolled (its pool size, the extra dice's notations); a roll whose odds
    cannot be had exactly (L4) or that does not fit its distribution (a hand-edited journal)
    is None.
    """
    change = entry.change
    actor = change.actor
    try:
        if isinstance(change, ActChange) and change.allowed and change.pool_size is not None:
            total = change.total
            if total is None or actor is None:
                return None
            extra = tuple(parse_extra(str(term.notation), "extra") for term in change.extra)
            found = pool_percentile(change.pool_size, extra, total)
        elif isinstance(change, CheckChange) and not change.impossible:
            total = change.total
            if total is None or actor is None:
                return None
            modifiers = (change.attribute or 0) + (change.proficiency or 0)
            modifiers += change.specialization or 0
            level, disadvantage = change.advantage_level or 0, change.disadvantage or 0
            found = check_percentile(modifiers, level, disadvantage, total)
        else:
            return None
    except (D4Error, ValueError):
        return None
    return RollLuck(entry.seq or 0, actor, change.kind, change.round or 0, total, found)
