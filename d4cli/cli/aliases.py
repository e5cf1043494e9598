"""A creature's alias where a GM command takes a creature's name: taken, and said (N1).

The players know a creature by its alias (``Sniper`` for ``Goblin Archer``), so the GM
may type it too. Before Click parses a line, the root command (`d4cli.cli.root`) hands
this module the line's words and the encounter's names and aliases; a word in a name
slot of `d4cli.cli.spaced_names.ARGUMENTS`, or the value of an option that names a creature
(`d4cli.cli.spaced_names.CREATURE_OPTIONS`), that is an alias and no creature's name becomes that creature's
name, and a note says so (``'Sniper' is Goblin Archer's alias``): never silently.
Pure: words in, words and notes out.
"""

from __future__ import annotations

from collections.abc import Sequence

from d4cli.api.inputs import fold_name
from d4cli.cli.spaced_names import (
    ASSIGNMENTS,
    CREATURE_OPTIONS,
    NAME,
    NAME_OPTIONAL,
    NAMES,
    TEXT,
    TEXT_OPTIONAL,
    WORD,
    WORD_OPTIONAL,
)

# A creature's name and its alias ("" for none).
Roster = Sequence[tuple[str, str]]


def name_positions(count: int, slots: Sequence[str]) -> list[int]:
    """Which of *count* positional words fill a name slot of *slots* (as typed, one word a
    name): a ``names`` slot takes every word but those the required slots after it need."""
    out: list[int] = []
    position = 0
    for index, slot in enumerate(slots):
        left = count - position
        if left <= 0:
            break
        if slot in (NAME, NAME_OPTIONAL):
            out.append(position)
            position += 1
        elif slot == NAMES:
            needed = sum(1 for later in slots[index + 1 :] if later == WORD)
            taken = max(1, left - needed)
            out.extend(range(position, position + taken))
            position += taken
        elif slot in (WORD, WORD_OPTIONAL):
            position += 1
        elif slot in (ASSIGNMENTS, TEXT, TEXT_OPTIONAL):
            break
    return out


def resolve_aliases(
    args: Sequence[str], indexes: Sequence[int], slots: Sequence[str], roster: Roster
) -> tuple[list[str], list[str]]:
    """*args* (a command's words after its path, *indexes* its positional ones) with every
    alias in a name slot or a creature option replaced by its creature's name, and a note
    for each (``'Sniper' is Goblin Archer's alias``). A word that is a creature's name stays,
    whatever aliases match it (N1 keeps names and aliases apart)."""
    names = {fold_name(name) for name, _ in roster}
    by_alias = {fold_name(alias): name for name, alias in roster if alias}
    out = list(args)
    notes: list[str] = []

    def resolve(index: int, word: str, prefix: str = "") -> None:
        key = fold_name(word)
        if key in names or key not in by_alias:
            return
        name = by_alias[key]
        out[index] = prefix + name
        note = f"{word!r} is {name}'s alias"
        if note not in notes:
            notes.append(note)

    for position in name_positions(len(indexes), slots):
        resolve(indexes[position], args[indexes[position]])
    for index, word in enumerate(args):
        if word == "--":
            break
        option, equals, value = word.partition("=")
        if word in CREATURE_OPTIONS and index + 1 < len(args):
            resolve(index + 1, args[index + 1])
        elif equals and option in CREATURE_OPTIONS:
            resolve(index, value, option + "=")
    return out, notes
