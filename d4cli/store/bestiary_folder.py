"""The GM's bestiary folder on disk: its files found and a creature's file written.

Layout (the folder is ``D4CLI_BESTIARY`` or the user's config folder, as the shell says)::

    BESTIARY/goblin-camp.toml        a template: an encounter file, named by its file name
    BESTIARY/creatures/goblin.toml   a creature: an encounter file holding that one creature

Reads only list the files; `d4cli.api.bestiary` parses them. A creature is written whole
(`d4cli.store.files.replace_file`) and never over another file unless asked to.
"""

from __future__ import annotations

import os
from pathlib import Path

from d4cli.rules.errors import FileError, InputError
from d4cli.rules.names import fold_name
from d4cli.store import files

CREATURES = "creatures"


def _tomls(folder: Path) -> list[Path]:
    """The ``*.toml`` regular files of *folder* by name; none when it does not exist."""
    try:
        with os.scandir(folder) as found:
            names = sorted(e.name for e in found if e.name.endswith(".toml") and e.is_file())
    except FileNotFoundError:
        return []
    except NotADirectoryError:
        raise FileError(folder, "", None, "is not a folder: the bestiary must be one") from None
    except OSError as error:
        raise FileError(folder, "", None, f"cannot read: {error.strerror}") from None
    return [folder / name for name in names if not name.startswith(".")]


def template_files(folder: Path) -> list[Path]:
    """The templates of the bestiary *folder* (its ``*.toml`` files), by name.

    Raises:
        FileError: the folder is a file or cannot be read.
    """
    return _tomls(folder)


def find_template(folder: Path, name: str) -> Path | None:
    """The template of the bestiary *folder* called *name* (``camp`` or ``camp.toml``; N1
    folding), or None.

    Raises:
        FileError: the folder is a file or cannot be read.
    """
    wanted = {fold_name(name), fold_name(name.removesuffix(".toml"))}
    return next((path for path in template_files(folder) if fold_name(path.stem) in wanted), None)


def creature_files(folder: Path) -> list[Path]:
    """The creatures of the bestiary *folder* (``creatures/*.toml``), by name.

    Raises:
        FileError: the folder is a file or cannot be read.
    """
    return _tomls(folder / CREATURES)


def write_creature(folder: Path, entry: str, text: str, *, force: bool = False) -> Path:
    """Write *text* as the creature *entry* of the bestiary *folder* (``creatures/ENTRY.toml``),
    making the folders; an existing entry only with *force*.

    Raises:
        InputError: naming ``force``: the entry exists.
        FileError: the file cannot be written.
    """
    target = folder / CREATURES / f"{entry}.toml"
    if os.path.lexists(target) and not force:
        raise InputError(
            "force",
            None,
            f"{target} already exists; add {{force}} to replace it",
            mentions=("force",),
        )
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        files.replace_file(target, text.encode("utf-8"))
    except OSError as error:
        raise files.write_failed(target, error) from None
    return target
