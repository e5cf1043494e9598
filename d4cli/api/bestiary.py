"""The GM's own bestiary: creatures and templates kept between evenings (`d4cli.store.bestiary_folder`).

A template is an encounter file of the folder, named by its file name (``camp.toml``: ``camp``);
a creature is ``creatures/NAME.toml``, an encounter file holding that one creature. Names match
as N1 folds them. `Bestiary.listing` reads every file and names each damaged one (with its line)
beside the others; `creature` and `template` find one entry, with a did-you-mean when there is
none. The bundled examples stand beside the bestiary: a creature of theirs can be brought in by
name too (as ``add --like`` does).
"""

from __future__ import annotations

import re
from pathlib import Path

from d4cli.fight.encounter_state import Creature, Encounter, same_name
from d4cli.fight.next_fight import Foe
from d4cli.fileformat.bestiary_entries import Entry, Listing
from d4cli.fileformat.encounter_toml import bundled_examples, dump_encounter, parse_encounter
from d4cli.rules.errors import FileError, InputError
from d4cli.rules.limits import MAX_COUNT
from d4cli.rules.names import check_text, fold_name
from d4cli.rules.suggest import did_you_mean
from d4cli.store import bestiary_folder as shelf
from d4cli.store.files import read_text


def _entries(paths: list[Path]) -> tuple[list[Entry], list[FileError]]:
    found: list[Entry] = []
    problems: list[FileError] = []
    for path in paths:
        try:
            encounter = parse_encounter(read_text(path), path)
        except FileError as error:
            problems.append(error)
            continue
        found.append(Entry(path.stem, path, encounter.creatures))
    return found, problems


class Bestiary:
    """The bestiary in *folder* (which need not exist: then it is empty)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def listing(self) -> Listing:
        """Every creature and template, and the files that could not be read.

        Raises:
            FileError: the folder is a file or cannot be read.
        """
        creatures, bad = _entries(shelf.creature_files(self.folder))
        templates, worse = _entries(shelf.template_files(self.folder))
        return Listing(self.folder, tuple(creatures), tuple(templates), tuple(bad + worse))

    def names(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The names of the templates and of the creatures, from their file names alone: nothing
        is parsed, so a Tab press stays quick (``camp.toml``: ``camp``).

        Raises:
            FileError: the folder is a file or cannot be read.
        """
        templates = tuple(path.stem for path in shelf.template_files(self.folder))
        return templates, tuple(path.stem for path in shelf.creature_files(self.folder))

    def creature(self, name: str, field: str = "from") -> Creature:
        """The creature called *name* (N1): a bestiary entry, else a creature of the bestiary's
        templates or of the bundled examples.

        Raises:
            InputError: naming *field*: none of that name (with a did-you-mean), or the entry's
                file is damaged (its problem).
        """
        check_text(name, field)
        known: list[str] = []
        for path in shelf.creature_files(self.folder):
            if fold_name(path.stem) == fold_name(name):
                creatures = parse_encounter(read_text(path), path).creatures
                if len(creatures) != 1:
                    problem = f"{path} must hold exactly one creature (it holds {len(creatures)})"
                    raise InputError(field, name, problem)
                return creatures[0]
            known.append(path.stem)
        for path in shelf.template_files(self.folder) + list(bundled_examples().values()):
            try:
                creatures = parse_encounter(read_text(path), path).creatures
            except FileError:
                continue  # a damaged template is named by `listing`, not here
            for creature in creatures:
                if same_name(creature.name, name):
                    return creature
                known.append(creature.name)
        problem = f"no such creature in the bestiary ({self.folder}) or the bundled examples"
        raise InputError(field, name, problem + did_you_mean(name, known))

    def template(self, name: str) -> Path | None:
        """The template called *name* (N1; ``camp`` or ``camp.toml``), or None when the bestiary
        has none of that name (`d4cli.store.bestiary_folder.find_template`).

        Raises:
            FileError: the folder is a file or cannot be read.
        """
        return shelf.find_template(self.folder, name)

    def save(
        self, encounter: Encounter, name: str, entry: str | None = None, *, force: bool = False
    ) -> Path:
        """Keep the creature *name* of *encounter* as the entry *entry* (default: its name in
        lower case, spaces as dashes): its sheet as it stands, unhurt (hp at max_hp, R18),
        Load at its reset value (R1), no effects (R20), no turn had, no notes.

        Raises:
            InputError: no such creature; an entry name that is not a plain file name; the
                entry exists without *force*.
            FileError: it cannot be written.
        """
        creature = encounter.find(name)
        chosen = entry if entry is not None else re.sub(r"\s+", "-", creature.name.strip().lower())
        check_text(chosen, "as")
        if "/" in chosen or chosen.startswith(".") or "\\" in chosen:
            raise InputError("as", chosen, "must be a plain name, not a path")
        kept = creature._replace(
            hp=creature.max_hp if creature.max_hp is not None else creature.hp,
            load=creature.reset_value,
            effects=(),
            had_turn=False,
            notes="",
        )
        text = dump_encounter(Encounter(name=chosen, creatures=(kept,)))
        return shelf.write_creature(self.folder, chosen, text, force=force)


# ``goblin x3``, ``goblin ×3``, ``goblin*3``: an entry and how many copies.
_COUNTED = re.compile(r"^(?P<name>.+?)\s*(?:[x×*]\s*(?P<count>\d+))$", re.IGNORECASE)


def parse_added(text: str) -> tuple[str, int | None]:
    """``"goblin x3"`` as ``("goblin", 3)``; ``"Ogre"`` as ``("Ogre", None)``.

    Raises:
        InputError: naming ``add``: an empty entry or a count outside 1..`MAX_COUNT`.
    """
    check_text(text, "add")
    found = _COUNTED.match(text.strip())
    if found is None or not found.group("name").strip() or " " not in text.strip():
        return text.strip(), None
    count = int(found.group("count"))
    if not 1 <= count <= MAX_COUNT:
        raise InputError("add", text, f"the count must be within 1..{MAX_COUNT}")
    return found.group("name").strip(), count


def foes_of(bestiary: Bestiary, added: list[str]) -> tuple[Foe, ...]:
    """The foes ``next --add`` names (`parse_added`), each found by `Bestiary.creature`.

    Raises:
        InputError: naming ``add``: a bad entry or an unknown creature (did-you-mean).
    """
    foes = []
    for text in added:
        name, count = parse_added(text)
        foes.append(Foe(bestiary.creature(name, "add"), count, name))
    return tuple(foes)


def template_foes(path: Path, keep_side: str | None) -> tuple[Foe, ...]:
    """The creatures of the template *path* that are not of *keep_side* (the side that carries),
    as foes under their own names.

    Raises:
        FileError: the template cannot be read or is not a valid encounter.
    """
    creatures = parse_encounter(read_text(path), path).creatures
    return tuple(
        Foe(creature, None, path.stem)
        for creature in creatures
        if keep_side is None or not same_name(creature.side, keep_side)
    )
