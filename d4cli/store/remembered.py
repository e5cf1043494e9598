"""What this process last read or wrote, remembered so that the next change pays for what it changes.

A ``play`` session runs many changes in one process; each reads the file it
wrote a moment ago and writes it again with one creature more or changed. Two
things are remembered, both pure caches (the answers are the same without them):

- the last text parsed or written and its `Encounter` (`encounter_of`): reading
  back the very text d4cli just wrote needs no parse;
- the creatures of that encounter, by identity, each with its text in the file
  when known (`row_of`): the fight model's transitions are pure and keep the
  creatures they do not change as the same objects, so a creature seen here was
  validated already and its text is already made.

Only the newest encounter is kept: memory follows the file (at most 1 MB). The file
format's functions stay pure: the store consults this before a parse
(`d4cli.store.read_encounter`, the transaction) and hands `row_of` to
`d4cli.fileformat.checked.checked_text`.
"""

from __future__ import annotations

from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fileformat.encounter_toml import parse_encounter

_last: tuple[str, Encounter] | None = None
_rows: dict[int, tuple[Creature, str | None]] = {}


def encounter_of(text: str) -> Encounter | None:
    """The encounter last read from or written as exactly *text*, or None."""
    if _last is not None and _last[0] == text:
        return _last[1]
    return None


def row_of(creature: Creature) -> tuple[bool, str | None]:
    """(whether *creature*, this very object, was validated here, its row's text if known)."""
    known = _rows.get(id(creature))
    if known is None or known[0] is not creature:
        return False, None
    return True, known[1]


def remember(text: str, encounter: Encounter, row_texts: list[str] | None = None) -> None:
    """Remember *encounter* as the valid reading of *text* (with each creature's row text, if known)."""
    global _last, _rows
    _last = (text, encounter)
    texts: list[str | None] = (
        list(row_texts) if row_texts is not None else [None] * len(encounter.creatures)
    )
    _rows = {id(creature): (creature, texts[n]) for n, creature in enumerate(encounter.creatures)}


def parse(text: str, path: object) -> Encounter:
    """The encounter of *text*: what this process last read or wrote as that text, else parsed.

    Raises:
        FileError: the text is not a valid encounter (`parse_encounter`).
    """
    known = encounter_of(text)
    if known is not None:
        return known
    encounter = parse_encounter(text, path)
    remember(text, encounter)
    return encounter
