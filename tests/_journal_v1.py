"""A journal written by d4cli before entries carried a schema version, and what d4cli printed of it.

``tests/store/data/journal_v1/`` holds an encounter file and its journal as that version wrote
them (an ``init`` from the skirmish, creatures added, moved and removed, acts, a Team Action, a
check, named actions added and removed, effects, damage and healing of one creature and of
several, turns, an exhaustion, notes, reveal, conceal and alias, a ``set``, an undone act, a
hand edit of the file, a seat's approved request) and ``expected.json``: what that version
printed for each read of `READS` and for each step of `GOING_BACK`, made by `record` with that
version's code on the import path. The test runs the same with today's code.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from _cli import run

DATA = Path(__file__).parent / "store" / "data" / "journal_v1"
EXPECTED = DATA / "expected.json"
SEQS = range(1, 40)

READS: list[tuple[str, ...]] = [
    ("log", "--json"),
    ("log",),
    ("log", "--last", "12"),
    ("log", "--kind", "act", "--json"),
    ("log", "--states", "--json"),
    ("recap", "--json", "--runs", "0"),
    ("recap", "--runs", "0"),
    ("recap", "--from-seq", "20", "--json", "--runs", "0"),
    *(("status", "--at", str(seq), "--json") for seq in SEQS),
    ("status", "--at", "26"),
    ("status", "--at", "39"),
]

# undo back to the init, redo twice, one new change, then undo again.
GOING_BACK: list[tuple[str, ...]] = [
    *(("undo", "--json") for _ in range(38)),
    ("undo", "--json"),
    ("redo", "--json"),
    ("redo", "--json"),
    ("note", "after the redo", "--json"),
    ("undo", "--json"),
]


def copy_to(folder: Path) -> Path:
    """The fixture's encounter file and journal copied into *folder*; the file's path."""
    for name in ("encounter.toml", "encounter.toml.journal"):
        shutil.copyfile(DATA / name, folder / name)
    return folder / "encounter.toml"


def _digest(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


def readings(path: Path) -> dict[str, object]:
    """What each of `READS` prints on the encounter at *path* (exit code and stdout)."""
    found: dict[str, object] = {}
    for args in READS:
        outcome = run(*args, file=path)
        found[" ".join(args)] = [outcome.exit_code, outcome.stdout]
    return found


def going_back(path: Path) -> list[object]:
    """Each step of `GOING_BACK` on *path*: exit code, stdout, and the SHA-256 of the file and journal after it."""
    journal = path.with_name(path.name + ".journal")
    steps: list[object] = []
    for args in GOING_BACK:
        outcome = run(*args, file=path)
        steps.append(
            [" ".join(args), outcome.exit_code, outcome.stdout, _digest(path), _digest(journal)]
        )
    return steps


def record(folder: Path) -> None:
    """Write ``expected.json`` from the code on the import path (run once, with the old version)."""
    path = copy_to(folder)
    found = {"reads": readings(path), "going_back": going_back(path)}
    EXPECTED.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
