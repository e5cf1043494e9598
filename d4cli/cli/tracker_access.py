"""How a command reaches the encounter: one `Tracker` per run, and the lines a `Change` prints.

Every command that reads or changes the encounter opens it here (`open_tracker`: the
path from ``--file``/``D4CLI_FILE``, the lock timeout from ``D4CLI_LOCK_TIMEOUT``, the
dice from ``--seed``/``D4CLI_SEED``), calls one method of `d4cli.api.encounter.Tracker`, and
prints what it returns: `print_change` for the one-line changes, `tell` for the notes
every change may carry (a damaged journal line it went after, comment lines dropped),
`tell_side_files` for the seats' side files that cannot be read.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from d4cli.api.change import Change
from d4cli.api.encounter import side_problems
from d4cli.api.tracker import Tracker
from d4cli.cli.interrupts import opened
from d4cli.cli.options import make_rng
from d4cli.cli.settings import lock_timeout, resolve_path
from d4cli.output.serialize.change_json import journal_json, record_json, unchanged_json
from d4cli.output.stdout import emit_json
from d4cli.output.wrap import say

NOTHING_CHANGED = "nothing changed: nothing written or logged"


def open_tracker(file: str | None, seed: str | None = None, *, dice: bool = False) -> Tracker:
    """The `Tracker` of the encounter file a command names (``--file``, else the environment);
    with *dice*, seeded from *seed* (``--seed``), else ``D4CLI_SEED``, else the OS.

    Raises:
        InputError: a bad ``--seed``/``D4CLI_SEED`` or ``D4CLI_LOCK_TIMEOUT``; a path that
            is not usable (`resolve_path`).
    """
    rng = make_rng(seed) if dice else None
    tracker = Tracker(resolve_path(file), rng=rng, lock_timeout=lock_timeout())
    opened(tracker)
    return tracker


def _stderr(prefix: str, text: str) -> None:
    encoding = sys.stderr.encoding or "utf-8"
    say(prefix, text.encode(encoding, "backslashreplace").decode(encoding))


def tell(change: Change[Any], tracker: Tracker) -> None:
    """Say on stderr what a written change left to say: the damaged journal line it went
    after, and how many hand-written comment lines the rewrite dropped (``undo`` brings them back)."""
    if change.warning is not None:
        _stderr("d4cli: warning: ", change.warning)
    count = change.dropped_comments
    if count:
        lines = "line" if count == 1 else "lines"
        _stderr(
            "d4cli: note: ",
            f"this change dropped {count} comment {lines} from {tracker.path}; "
            "`d4cli undo` brings them back",
        )


def tell_side_files(path: Path) -> None:
    """A warning line on stderr for each of the seats' side files beside the encounter *path*
    that cannot be read, naming it and why (`d4cli.api.encounter.side_problems`); the command that says
    it did its own work."""
    for problem in side_problems(path):
        _stderr("d4cli: warning: ", str(problem))


def unchanged_line(line: str, note: str | None) -> str:
    """The human line of a change that changed nothing: *line* (what the command found, from
    its ``changed: false`` object) and `NOTHING_CHANGED`, saying that a ``--note`` was not kept."""
    return f"{line}; {NOTHING_CHANGED}" + ("; the --note was not kept" if note is not None else "")


def print_change(change: Change[Any], tracker: Tracker, *, json_: bool, note: str | None) -> None:
    """`tell`, then print a one-line change: its JSON object (``changed`` false when nothing
    changed), or the line ``log`` shows of it (one line per creature of a change of several)."""
    tell(change, tracker)
    record = change.record
    if json_:
        obj = unchanged_json(record_json(record)) if change.unchanged else record_json(record)
        emit_json(obj)
        return
    # The line `log` shows (markup): drawn, so Rich loads here, never for --json.
    from d4cli.output.render.entry_lines import print_lines, summary_lines

    if change.unchanged:
        lines = summary_lines(unchanged_json(journal_json(record)))
        print_lines([*lines[:-1], unchanged_line(lines[-1], note)])
    else:
        print_lines(summary_lines(journal_json(record)))
