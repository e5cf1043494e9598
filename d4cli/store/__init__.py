"""The encounter store: the encounter file, its journal, its redo records and its lock.

Modules: `journal` (pure: lines, entries, patches, the crash classification
of the journal's tail), `files` (reads, permissions, atomic replacement),
`lock` (the OS advisory lock), `history` (``log``, the text an ``undo`` goes
back to), `redo` (the redo file: appended by ``undo``, cut by ``redo``), `transaction` (`Transaction`,
`create`, `undo` and `redo`: the one transaction they share), `remembered` (the last text read or
written and its encounter), `temp` (stale temp files). The package
itself offers `read_encounter`, the read every front end shares. The store
never reads the environment, never imports Typer, Rich, the output or the
shell, and takes no callback: the library (`d4cli.api`) opens a `Transaction`,
computes the change with the fight model and hands the entry's facts to
``commit`` as data; the front ends resolve the path and the lock timeout and
pass them in.

**Journal.** Each change appends one entry: what happened (``kind``, round,
turn, actor, ... ``time``) plus ``before`` and ``after``, the SHA-256 of the
file's bytes before and after the change, and the way back: a line patch
verified by the two hashes (``patch``), the whole previous text (``prev``)
only where the patch would be larger or the entry anchors the patches after
it. Ordinary commands read only the journal's last line, so their cost does
not grow with the history. Journals written with ``prev`` on every entry
keep working, undo across the boundary included.

**Crash story.** A change appends its entry (fsync) *before* it replaces the
file (temp file, fsync, ``os.replace``, fsync of the folder). On reading, the
newest entry is *unfinished* when the file's hash is still its ``before`` and
not its ``after``, or when it is torn (no newline at the end, not JSON) and
the file is still what the entry before it wrote: the crash came between the
two steps. An unfinished entry is ignored by readers and cut off by the next
change. When the hash is neither, the GM edited the file by hand after the
entry, which stands. ``undo`` appends its redo record, cuts an unfinished
entry, writes the previous text back, then truncates the journal before the
undone entry: a crash between the last two steps leaves the undone entry
unfinished (the file is at its ``before``), so it is dropped as if the
truncation had happened. ``redo`` appends the entry again, then replaces the
file, then cuts its record off the redo file. A redo record counts only while its ``seq`` is
the journal's next and its ``before`` is the file's hash, so a change after
an undo (or a crash anywhere) never lets a stale record be applied.

**Damage.** A newest line that is not an entry and not an unfinished one is
*damaged*: no crash of d4cli leaves that, so d4cli does not guess. ``log``
shows the entries before it and warns (`History.warning`), ``undo`` refuses
naming the line, and a change keeps its bytes and appends after a newline.

**Errors.** Whatever goes wrong (bad input, a refusal, a full disk, a
read-only file or folder), the file and the journal stay byte-for-byte as
they were.

**Symlinks** are refused: an encounter file that is a link (`real_path`), and a
journal, redo file or lock that is one (`sidefiles.check_side_file`, ``O_NOFOLLOW``): side
files are d4cli's own, regular files of the encounter file's owner, made only beside
a file that is an encounter.

"""

from __future__ import annotations

from pathlib import Path

from d4cli.fight.encounter_state import Encounter
from d4cli.store import remembered
from d4cli.store.files import read_text

__all__ = ["read_encounter"]


def read_encounter(path: Path) -> Encounter:
    """Read and validate the encounter at *path* (no lock: files are only ever replaced whole).

    Raises:
        FileError: unreadable, or invalid (see `d4cli.fileformat.encounter_toml.parse_encounter`).
    """
    return remembered.parse(read_text(path), path)
