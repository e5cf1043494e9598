"""``d4cli log`` as plain text: one aligned line per journal entry, written as it goes.

No Rich table is built over the journal: each entry becomes one line (``#seq``,
the time as HH:MM, the round, the one-line `d4cli.output.render.entry_lines.summary`
without its styles, and its ``--note``), written to stdout in blocks, so the
cost grows with the entries and a long journal stays readable at 80 columns.
Also the filters of ``log`` (``--round``, ``--creature``, ``--kind``). Both read each
journal line's object typed (`d4cli.journal.entry.read_entry`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from d4cli.fight import closed_sets as kinds
from d4cli.journal.entry import read_change, read_entry
from d4cli.output.render import for_stdout, plain
from d4cli.output.render.entry_lines import change_line
from d4cli.output.wrap import hang, terminal_width
from d4cli.rules.errors import InputError, escape_control
from d4cli.rules.names import fold_name

# Every kind a journal entry can have, for ``log --kind`` (docs/cli.md "log"): `d4cli.fight.closed_sets`,
# where the records take theirs. ``log`` also accepts any other kind its journal holds.
LOG_KINDS = kinds.LOG_KINDS

# Lines written per block: enough to keep writes few, small enough to stream.
BLOCK = 256

Entry = dict[str, Any]


def check_kinds(kinds: Sequence[str], known: Sequence[str] = LOG_KINDS) -> tuple[str, ...]:
    """The ``--kind`` values, each one of *known* (case-insensitive).

    Raises:
        InputError: naming ``--kind`` and the value, listing the kinds.
    """
    found = []
    for kind in kinds:
        folded = kind.strip().lower()
        if folded not in known:
            raise InputError(
                "--kind", escape_control(kind), "no such kind; the kinds are " + ", ".join(known)
            )
        found.append(folded)
    return tuple(found)


def entry_filter(
    round_: int | None = None, creature: str | None = None, kinds: Sequence[str] = ()
) -> Callable[[Entry], bool] | None:
    """A test that keeps the entries of round *round_*, naming *creature* (one of the creatures
    it is about, `Change.creatures`, compared as names are, N1) and of one of *kinds*; None when
    nothing filters."""
    if round_ is None and creature is None and not kinds:
        return None

    wanted = None if creature is None else fold_name(creature)
    kind_set = frozenset(kinds)

    def keep(entry: Entry) -> bool:
        change = read_change(entry)
        if round_ is not None and change.round != round_:
            return False
        if kind_set and change.kind not in kind_set:
            return False
        if wanted is not None:
            return any(fold_name(name) == wanted for name in change.creatures)
        return True

    return keep


def log_line(entry: Entry, seq_width: int = 1, round_width: int = 1) -> str:
    """One entry as one plain line: ``#seq HH:MM R<round> <summary>[; note: <note>]``."""
    return "".join(log_parts(entry, seq_width, round_width))


def log_parts(entry: Entry, seq_width: int = 1, round_width: int = 1) -> tuple[str, str]:
    """A `log_line` in two: its prefix ``#seq HH:MM R<round> `` and its text."""
    read = read_entry(entry)
    head, change = read.head, read.change
    time = head.time or ""
    short = time[11:16] if len(time) >= 16 and time[10:11] == "T" else time[:5].ljust(5)
    round_ = change.round
    text = plain(change_line(change))
    if head.note and change.kind != "note":  # a note's summary is its note
        text += f"; note: {escape_control(head.note)}"
    seq = "" if head.seq is None else head.seq
    return (
        f"#{seq!s:<{seq_width}} {short} R{'' if round_ is None else round_!s:<{round_width}} ",
        text,
    )


def _widths(first: Entry, last: Entry) -> tuple[int, int]:
    """The widths of the ``seq`` and round columns, from the first entry and the newest."""
    ends = [read_entry(first), read_entry(last)]
    seq_width = max(len("" if end.seq is None else str(end.seq)) for end in ends)
    round_width = max(
        len("" if end.change.round is None else str(end.change.round)) for end in ends
    )
    return seq_width, round_width


def write_log(
    entries: Iterable[Entry], *, empty: str = "Nothing in the log yet.", newest: Entry | None = None
) -> int:
    """Write *entries* as `log_line` lines on stdout, in blocks of `BLOCK`; their count.

    The columns are as wide as the largest ``seq`` and round (read from the
    first entry and the newest, as they arrive oldest first): a list gives its
    own last; an iterator is consumed as it goes, one entry held at a time, and
    *newest* is then its last entry. With no entry, *empty* is printed. On a terminal a
    line too long for it wraps under its text (`d4cli.output.wrap.hang`); a pipe gets
    one line per entry.
    """
    if isinstance(entries, list):
        newest = entries[-1] if entries else None
    stream = iter(entries)
    first = next(stream, None)
    if first is None:
        _write([empty])
        return 0
    last = first if newest is None else newest
    seq_width, round_width = _widths(first, last)
    width = terminal_width(sys.stdout)

    def line(entry: Entry) -> str:
        if width is None:
            return log_line(entry, seq_width, round_width)
        prefix, text = log_parts(entry, seq_width, round_width)
        return hang(prefix, for_stdout(text), width)

    block = [line(first)]
    count = 1
    for entry in stream:
        block.append(line(entry))
        count += 1
        if len(block) >= BLOCK:
            _write(block)
            block = []
    _write(block)
    return count


def _write(lines: list[str]) -> None:
    if not lines:
        return

    sys.stdout.write(for_stdout("\n".join(lines) + "\n"))
    sys.stdout.flush()
