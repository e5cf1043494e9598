"""Replay from the journal: ``status --at SEQ`` and ``log --states --json`` (docs/cli.md "Replay").

Read-only: the states are rebuilt from the journal's patches (`d4cli.store.replay`),
nothing is locked or written.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from d4cli.rules.errors import InputError

if TYPE_CHECKING:
    from d4cli.fight.encounter import Encounter
    from d4cli.store.replay import Replay

# --at takes a journal entry's seq (0 is before any init: refused by name, not by range).
SEQ = (0, 10**18)


def state_after(path: Path, replay: Replay, seq: int) -> tuple[dict[str, Any], Encounter]:
    """The entry *seq* of *replay* and the encounter as it stood right after it.

    Raises:
        InputError: naming ``--at``: no history, *seq* before the newest ``init``
            or past the newest entry, no entry *seq*, or one whose state cannot
            be rebuilt (a hand edit the patches cannot bridge).
    """
    from d4cli.fileformat.encounter_toml import parse_encounter
    from d4cli.rules.errors import FileError

    entries = replay.entries
    if not entries:
        raise InputError("--at", seq, "this encounter has no journal to replay")
    first, last = entries[0].get("seq"), entries[-1].get("seq")
    if isinstance(first, int) and seq < first:
        raise InputError("--at", seq, f"is before the init (#{first}): the history starts there")
    if isinstance(last, int) and seq > last:
        raise InputError("--at", seq, f"is past the newest entry (#{last})")
    for entry, text in zip(entries, replay.texts):
        if entry.get("seq") != seq:
            continue
        if text is None:
            raise InputError(
                "--at",
                seq,
                "the file as it stood then cannot be rebuilt from the journal (edited by hand)",
            )
        try:
            return entry, parse_encounter(text, path)
        except FileError:
            raise InputError(
                "--at", seq, "the file as it stood then is no longer a valid encounter"
            ) from None
    raise InputError("--at", seq, "no such entry in the journal (a damaged line)")


def status_at(file: str | None, at: str) -> tuple[dict[str, Any], Encounter]:
    """``status --at SEQ``: journal entry SEQ and the encounter as it stood right after it.

    Raises:
        InputError: naming ``--at``, as `state_after` says; a SEQ that is not a whole number.
    """
    from d4cli.cli.settings import resolve_path
    from d4cli.rules.limits import parse_whole
    from d4cli.store.replay import replay_texts

    seq = parse_whole(at, "--at", SEQ)
    path = resolve_path(file)
    return state_after(path, replay_texts(path), seq)


def print_replayed(entry: dict[str, Any], encounter: Encounter) -> None:
    """The tracker as it stood after *entry*, headed by that entry's line (read-only replay)."""
    from d4cli.output.render import escape
    from d4cli.output.render.encounter import print_lines, summary
    from d4cli.output.render.status import print_status
    from d4cli.store.journal import public_entry

    kind = escape(str(entry.get("kind")))
    print_lines(
        [
            f"As it stood after #{entry.get('seq')} {kind}: {summary(public_entry(entry))} (replayed from the journal)"
        ]
    )
    print_status(encounter)


def state_lines(
    path: Path, replay: Replay, keep: Iterable[int]
) -> Iterable[tuple[dict[str, Any], Encounter | None]]:
    """Each entry at the positions *keep* (as ``log --json`` lists it) and the encounter right after it, or None
    where it cannot be rebuilt."""
    from d4cli.fileformat.encounter_toml import parse_encounter
    from d4cli.rules.errors import FileError
    from d4cli.store.journal import public_entry

    for number in keep:
        entry, text = replay.entries[number], replay.texts[number]
        encounter = None
        if text is not None:
            try:
                encounter = parse_encounter(text, path)
            except FileError:
                encounter = None
        yield public_entry(entry), encounter
