"""The evening's recap (``recap --evening``): the fight recap (`d4cli.api.recap.recap_report`)
of every archived fight of the evening (the chain the ``next`` entries name,
`d4cli.store.fight_archive.evening_of`) and of the current one, summed per fight, per creature and
per side (R16, R8, R10, R21), with each creature's luck over all its rolls (`d4cli.odds.luck`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from d4cli.api.recap import RecapReport, recap_report
from d4cli.api.tracker import Tracker
from d4cli.fight.next_fight import CreatureEvening, FightSummary, fights_won
from d4cli.fight.recap_figures import CreatureFigures
from d4cli.odds.luck import CreatureLuck, RollLuck, luck_by_creature
from d4cli.rules.errors import InputError
from d4cli.rules.names import fold_name
from d4cli.store import fight_archive as fights
from d4cli.store.files import real_path


class Evening(NamedTuple):
    """The evening's recap: each fight (oldest first, the current one last), each creature's
    figures summed over the fights, each creature's luck over all its rolls (the exact
    percentiles of the fight recap, `d4cli.odds.luck`), and the fights each side won (R21)."""

    fights: tuple[FightSummary, ...]
    creatures: tuple[CreatureEvening, ...]
    luck: tuple[CreatureLuck, ...]
    won: dict[str, int]


def _report(path: Path) -> RecapReport | None:
    """The fight recap of *path* (no simulated placement), or None when it has nothing yet."""
    try:
        return recap_report(path, None, 0, 0)
    except InputError:
        return None


def evening_recap(tracker: Tracker) -> Evening:
    """The recap of every archived fight of *tracker*'s evening and the one it holds now.

    Raises:
        FileError: the encounter file or its journal cannot be read.
    """
    path = real_path(tracker.path)
    current = tracker.status()
    places = [*fights.evening_of(path), path]
    summaries: list[FightSummary] = []
    reports: list[RecapReport] = []
    present: list[Sequence[CreatureFigures]] = []
    for number, place in enumerate(places, start=1):
        report = _report(place)
        if report is None:
            name = current.name if place == path else place.stem
            summaries.append(FightSummary(number, name, place, 0, None))
            if place == path:  # the fight begun by `next`: its creatures are in it already
                present.append([CreatureFigures(c.name, c.side or None) for c in current.creatures])
            continue
        reports.append(report)
        present.append(report.figures.creatures)
        figures = report.figures
        summaries.append(
            FightSummary(number, figures.encounter, place, figures.rounds, figures.winner)
        )
    rolls: list[RollLuck] = [roll for report in reports for roll in report.rolls]
    return Evening(
        tuple(summaries),
        _creatures(present),
        tuple(luck_by_creature(rolls)),
        fights_won([s.winner for s in summaries]),
    )


def _creatures(fights_in: Sequence[Sequence[CreatureFigures]]) -> tuple[CreatureEvening, ...]:
    """Each creature's figures summed over the fights it was in; two creatures of one name
    (N1) on different sides are two rows (the party's Goblin Archer is not the foes')."""
    totals: dict[tuple[str, str | None], CreatureEvening] = {}
    for creatures in fights_in:
        for figures in creatures:
            key = (fold_name(figures.name), figures.side and fold_name(figures.side))
            was = totals.get(key) or CreatureEvening(figures.name, figures.side)
            totals[key] = was._replace(
                fights=was.fights + 1,
                damage_dealt=was.damage_dealt + figures.damage_dealt,
                damage_taken=was.damage_taken + figures.damage_taken,
                load_spent=was.load_spent + figures.load_spent,
                reactions=was.reactions + figures.actions_off_turn,
                actions=was.actions + figures.actions_on_turn + figures.actions_off_turn,
            )
    return tuple(totals.values())
