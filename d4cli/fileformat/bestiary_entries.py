"""The GM's bestiary as read: each entry (a template or a creature: an encounter file named by its
file name) and the files that could not be read (`d4cli.api.bestiary` reads them)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from d4cli.fight.encounter_state import Creature
from d4cli.rules.errors import FileError


class Entry(NamedTuple):
    """One entry of the bestiary: its name (the file's), its file, the creatures it holds."""

    name: str
    path: Path
    creatures: tuple[Creature, ...]


class Listing(NamedTuple):
    """What ``d4cli bestiary`` shows: the folder, the creatures and the templates by name, and
    the files that could not be read (each error names the file and, where it can, the line)."""

    folder: Path
    creatures: tuple[Entry, ...]
    templates: tuple[Entry, ...]
    problems: tuple[FileError, ...]
