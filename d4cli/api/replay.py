"""The encounter as it stood after each journal entry: ``status --at SEQ``, ``log --states``, ``recap``.

Read-only: the states are rebuilt from the journal's patches (`d4cli.store.patch_replay`),
nothing is locked or written.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from d4cli.fight.encounter_state import Encounter
from d4cli.fileformat.encounter_toml import parse_encounter
from d4cli.journal.entry import read_head
from d4cli.rules.errors import FileError, InputError
from d4cli.store.journal import public_entry
from d4cli.store.patch_replay import Replay

# --at takes a journal entry's seq (0 is before any init: refused by name, not by range).
SEQ = (0, 10**18)


def state_after(path: Path, replay: Replay, seq: int) -> tuple[dict[str, Any], Encounter]:
    """The entry *seq* of *replay* and the encounter as it stood right after it.

    Raises:
        InputError: naming ``seq``: no history, *seq* before the newest ``init``
            or past the newest entry, no entry *seq*, or one whose state cannot
            be rebuilt (a hand edit the patches cannot bridge).
    """
    entries = replay.entries
    if not entries:
        raise InputError("seq", seq, "this encounter has no journal to replay")
    first, last = read_head(entries[0]).seq, read_head(entries[-1]).seq
    if isinstance(first, int) and seq < first:
        raise InputError("seq", seq, f"is before the init (#{first}): the history starts there")
    if isinstance(last, int) and seq > last:
        raise InputError("seq", seq, f"is past the newest entry (#{last})")
    for entry, text in zip(entries, replay.texts):
        if read_head(entry).seq != seq:
            continue
        if text is None:
            raise InputError(
                "seq",
                seq,
                "the file as it stood then cannot be rebuilt from the journal (edited by hand)",
            )
        try:
            return entry, parse_encounter(text, path)
        except FileError:
            raise InputError(
                "seq", seq, "the file as it stood then is no longer a valid encounter"
            ) from None
    raise InputError("seq", seq, "no such entry in the journal (a damaged line)")


def state_lines(
    path: Path, replay: Replay, keep: Iterable[int]
) -> Iterator[tuple[dict[str, Any], Encounter | None]]:
    """Each entry at the positions *keep* (as ``log --json`` lists it) and the encounter right after it, or None
    where it cannot be rebuilt."""
    for number in keep:
        entry, text = replay.entries[number], replay.texts[number]
        encounter = None
        if text is not None:
            try:
                encounter = parse_encounter(text, path)
            except FileError:
                encounter = None
        yield public_entry(entry), encounter
