"""What the players' screens show: the projection, its roll feed, and a hidden turn kept out of sight.

`players_state` is what ``board --players``, ``serve``'s page, ``/view.json`` and its
event stream draw (`d4cli.api.encounter.Reader.view`). It reads the encounter and the newest
journal entries, and projects them on the GM's side (`d4cli.fight.players_view`). While a
hidden creature acts, it shows the encounter as it stood before that turn began, until a
visible creature's turn starts, rebuilt from the journal: the players' screens keep the
last visible state, so nothing on them tells that a hidden turn ran. Read-only:
nothing is locked or written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from d4cli.fight.closed_sets import INIT, NEXT, TURN_START
from d4cli.fight.encounter_state import Encounter
from d4cli.fight.players_view import (
    PublicView,
    hidden_turn,
    public_rolls,
    public_view,
    with_later_hiding,
)
from d4cli.fileformat.encounter_toml import parse_encounter
from d4cli.journal.entry import logged_rolls, read_head
from d4cli.rules.errors import D4Error
from d4cli.store import read_encounter
from d4cli.store.history import read_history
from d4cli.store.patch_replay import Replay, replay_newest, replay_texts

# How many of the newest journal entries the roll feed looks through.
FEED_SCAN = 60
# How many of the newest entries a hidden turn's state is first looked for in (then the whole history).
RECENT = 4 * FEED_SCAN


class Shown(NamedTuple):
    """What the players' screens show: the *view*, and the *encounter* it is the projection of
    (the file as it stands, or as it stood before a hidden turn, hidden as it and the file
    as it stands hide);
    the players' odds are computed from that encounter, so that they keep a hidden turn out
    of sight too."""

    view: PublicView
    encounter: Encounter


def players_state(path: Path, encounter: Encounter | None = None) -> Shown:
    """The players' view of the encounter file at *path*, with its roll feed, and its encounter.
    *encounter* is the file as just read, when the caller has read it (else it is read here).

    From a hidden creature's turn start until a visible one's: the view as it stood
    before the newest turn start that began from a state the players could see (two
    hidden turns in a row go back past both), hidden as it and the file as it stands hide
    (`d4cli.fight.players_view.with_later_hiding`). When the journal cannot rebuild that state
    (no journal, a hand edit between), the view of the file as it stands, which names
    nobody as current.

    Raises:
        FileError: the encounter file is unreadable or invalid.
    """
    if encounter is None:
        encounter = read_encounter(path)
    if hidden_turn(encounter):
        kept = _before_hidden_turn(path, encounter)
        if kept is not None:
            return kept
    view = public_view(encounter, public_rolls(logged_rolls(_newest_entries(path)), encounter))
    return Shown(view, encounter)


def _newest_entries(path: Path) -> list[dict[str, Any]]:
    try:
        return read_history(path, FEED_SCAN).entries
    except D4Error:  # a damaged journal: the view goes on without its feed
        return []


def kept_at(path: Path, replay: Replay, index: int, shown: Encounter) -> Encounter:
    """The state a players' replay of entry *index* of *replay* projects, *shown* being that
    entry's state as the players may see it (`d4cli.api.encounter.Reader.players_state_at`): during a
    hidden turn, the state before it, as the live screens kept it (`players_state`); else
    *shown* itself, as also where the journal cannot rebuild it."""
    if not hidden_turn(shown):
        return shown
    upto = Replay(replay.entries[: index + 1], replay.texts[: index + 1])
    try:
        kept, _ = _kept(path, shown, upto)
    except D4Error:
        return shown
    return shown if kept is None else kept.encounter


def _before_hidden_turn(path: Path, now: Encounter) -> Shown | None:
    """The view before the hidden turn (`players_state`), found among the newest `RECENT`
    entries, else in the whole history; None where the journal cannot rebuild it."""
    try:
        recent = replay_newest(path, RECENT)
        kept, whole = _kept(path, now, recent)
        if whole:
            return kept
        return _kept(path, now, replay_texts(path))[0]
    except D4Error:
        return None


def _kept(path: Path, now: Encounter, replay: Replay) -> tuple[Shown | None, bool]:
    """The kept view found in *replay*, walking back from its newest turn start, and whether
    *replay* held all it needed (it reaches the ``init``, or the `FEED_SCAN` entries before
    the turn start it found)."""
    entries, texts = replay.entries, replay.texts
    reaches_init = bool(entries) and read_head(entries[0]).kind in (INIT, NEXT)
    for index in range(len(entries) - 1, 0, -1):
        kind = read_head(entries[index]).kind
        if kind in (INIT, NEXT):
            return None, True
        if kind != TURN_START:
            continue
        text = texts[index - 1]
        if text is None:  # a hand edit: the whole history may still bridge it
            return None, reaches_init
        before = with_later_hiding(parse_encounter(text, path), [now])
        if not hidden_turn(before):
            if index < FEED_SCAN and not reaches_init:
                return None, False  # its roll feed reaches further back
            earlier = entries[max(0, index - FEED_SCAN) : index]
            return Shown(
                public_view(before, public_rolls(logged_rolls(earlier), before)), before
            ), True
    return None, reaches_init
