"""``recap``: what a fight came to, from its journal: figures, luck, where it placed (R16-R18).

Read-only: the states are replayed from the journal (`d4cli.api.replay`).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from d4cli.api.replay import state_after, state_lines
from d4cli.fight.recap import Recap, recap
from d4cli.odds.luck import CreatureLuck, RollLuck, entry_luck, luck_by_creature
from d4cli.rules.errors import InputError
from d4cli.sim.placement import Placement, place
from d4cli.store.replay import replay_texts


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
    first, last = replay.entries[0].get("seq"), replay.entries[-1].get("seq")
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
    keep = [
        n
        for n, entry in enumerate(replay.entries)
        if isinstance(entry.get("seq"), int) and entry["seq"] > seq
    ]
    steps = list(state_lines(path, replay, keep))
    figures = recap(start, seq, steps)
    rolls = [roll for roll in (entry_luck(entry) for entry, _ in steps) if roll is not None]
    placement, why_not = None, None
    if runs == 0:
        why_not = "not asked for (--runs 0)"
    else:
        try:
            placement = place(start, figures.rounds, figures.damage_by_side, runs, seed)
        except InputError as error:
            why_not = f"the simulator cannot play it ({error.field}: {error.problem})"
    return RecapReport(figures, rolls, luck_by_creature(rolls), placement, why_not)
