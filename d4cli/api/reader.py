"""`Reader`: what can be read of an encounter file without changing it (no lock, nothing written).

A `d4cli.api.encounter.Tracker` holds one for its reads and a door for its changes; the players' server
and the live boards need only this.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from d4cli.api.arguments import checked_methods
from d4cli.api.players import Shown, kept_at, players_state
from d4cli.api.replay import state_after, state_lines
from d4cli.fight.encounter_state import Encounter
from d4cli.fight.players_view import PublicView, with_later_hiding
from d4cli.journal.entry import read_head
from d4cli.store import files, read_encounter
from d4cli.store.files import journal_path, lock_path, redo_path
from d4cli.store.history import History, HistoryStream, read_history, stream_history
from d4cli.store.patch_replay import Replay, replay_texts
from d4cli.store.seat_files import drafts_path, requests_path, seats_path


@checked_methods
class Reader:
    """The encounter file at *path* (TOML, its journal beside it), read as it stands.

    Reads never lock: files are only ever replaced whole, so a read sees one state.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def __repr__(self) -> str:
        """``Reader('encounter.toml')``: the file it holds, as given."""
        return f"Reader({str(self.path)!r})"

    def status(self) -> Encounter:
        """The encounter as it stands (read without the lock: files are only replaced whole).

        Raises:
            FileError: unreadable or invalid.
        """
        return read_encounter(self.path)

    def stamp(self) -> tuple[files.Stamp, ...]:
        """A cheap stamp of the file and its journal (mtime, size, inode; None where missing):
        it changes whenever a change, an undo or a hand edit lands (the live screens poll it)."""
        return files.stamps((self.path, journal_path(self.path)))

    def own_files(self) -> tuple[Path, ...]:
        """The encounter file and its side files (journal, redo records, lock, seats, requests, drafts),
        whether or not they exist: the files d4cli keeps for this encounter and nothing else
        may write."""
        path = self.path
        sides = (journal_path, redo_path, lock_path, seats_path, requests_path, drafts_path)
        return (path, *(side(path) for side in sides))

    def history(self, last: int | None = None) -> History:
        """The changes that stand, oldest first, as ``log`` shows them (*last*: the newest N);
        ``warning`` names a damaged newest line.

        Raises:
            FileError: the file is unreadable or invalid; a damaged line the entries reach.
        """
        return read_history(self.path, last)

    def view(self) -> PublicView:
        """What the players' screens show (R20): the projection with its roll feed; while a hidden
        creature acts, the last visible state (`d4cli.api.players`).

        Raises:
            FileError: unreadable or invalid.
        """
        return players_state(self.path).view

    def shown(self) -> Shown:
        """What the players' screens show: `view` and the encounter it is the projection of
        (`d4cli.api.players.Shown`; the players' odds are computed from it).

        Raises:
            FileError: unreadable or invalid.
        """
        return players_state(self.path)

    def log(self, last: int | None = None) -> HistoryStream:
        """The journal's standing entries, oldest first, streamed (*last*: only the newest N)."""
        return stream_history(self.path, last)

    def replay(self) -> Replay:
        """The journal's standing entries with the file's text after each (None where a
        hand edit cannot be bridged): the history `status_at` and `states` read."""
        return replay_texts(self.path)

    def status_at(self, seq: int, replay: Replay | None = None) -> tuple[dict[str, Any], Encounter]:
        """Journal entry *seq* and the encounter as it stood right after it (read-only).

        Raises:
            InputError: no history, *seq* before the newest ``init`` or past the newest
                entry, no such entry, or a state that cannot be rebuilt (a hand edit).
        """
        return state_after(self.path, self.replay() if replay is None else replay, seq)

    def players_state_at(self, seq: int) -> tuple[dict[str, Any], Encounter]:
        """Journal entry *seq* and the encounter as it stood right after it, hiding whatever that
        state or any later one hides (`d4cli.fight.players_view.with_later_hiding`: a creature
        concealed or aliased since stays so): the state a players' replay projects (R20). Inside
        a hidden creature's turn, the state before it, as the players' screens kept it then.

        Raises:
            InputError: as `status_at`.
            FileError: the file is unreadable or invalid now.
        """
        replay = self.replay()
        entry, past = self.status_at(seq, replay)
        after = [
            number for number, other in enumerate(replay.entries) if read_head(other).seq == seq
        ]
        later = [
            encounter
            for _, encounter in state_lines(
                self.path, replay, range(after[0] + 1, len(replay.entries))
            )
            if encounter is not None
        ]
        shown = with_later_hiding(past, [*later, self.status()])
        return entry, kept_at(self.path, replay, after[0], shown)

    def states(
        self, replay: Replay, keep: Iterable[int]
    ) -> Iterator[tuple[dict[str, Any], Encounter | None]]:
        """The entries of *replay* at the positions *keep* (as ``log --json`` shows them),
        each with the encounter right after it (None where it cannot be rebuilt)."""
        return state_lines(self.path, replay, keep)
