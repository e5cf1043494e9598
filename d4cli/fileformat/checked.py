"""The text d4cli writes for an encounter, validated as a read validates it (`checked_text`).

Every change writes this (`d4cli.store.transaction.encode_checked`): the encounter's
document (`encounter_document`) validated by `encounter_from_document`, written by
tomli-w after `HEADER`, its shape checked (`check_shape`), so d4cli never writes a
file it would then refuse. Done whole, 1,000 ``add``s in one ``play`` session were
quadratic (289 s): each validated and dumped every creature again. A creature this
process validated already (the store remembers them: `d4cli.store.remembered`) is passed
to the validation as the `Creature` it is, and its text is reused; the checks across creatures (N1
names, effects, aliases, ``current`` and ``last_turn``, round 0) still see every one.
The text is the same, byte for byte, as tomli-w writes for the whole document.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import tomli_w

from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fileformat.encounter_toml import (
    HEADER,
    check_shape,
    creature_document,
    encounter_document,
    encounter_from_document,
)


class Checked(NamedTuple):
    """The text of an encounter as d4cli writes it, and what a read of that text gives.

    Attributes:
        text: the whole file (`HEADER` and tomli-w's TOML).
        reading: the `Encounter` a read of *text* returns (an alias brings a default
            ``[player_view]`` in, say).
        rows: each creature's ``[[creature]]`` text, in order.
    """

    text: str
    reading: Encounter
    rows: list[str]


def _unknown(creature: Creature) -> tuple[bool, str | None]:
    return False, None


def checked_text(
    encounter: Encounter,
    path: object,
    known: Callable[[Creature], tuple[bool, str | None]] = _unknown,
) -> Checked:
    """The file text of *encounter* as every change writes it, validated as a read would.

    Args:
        encounter: what to write.
        path: the file, for messages.
        known: for a creature, whether this very object was validated already and its
            row's text if known (the store's memory of its last read or write).

    Raises:
        FileError: the document is invalid (as a read of it would say) or shaped to break
            the parser (`check_shape`).
    """
    rows: list[Any] = []
    texts: list[str | None] = []
    for creature in encounter.creatures:
        validated, text = known(creature)
        # A Creature in the rows was validated already: passed through as it is.
        rows.append(creature if validated else creature_document(creature))
        texts.append(text)
    top = encounter_document(encounter._replace(creatures=()) if encounter.creatures else encounter)
    reading = encounter_from_document({**top, "creature": rows} if rows else top, path)
    text = HEADER + tomli_w.dumps(top)
    check_shape(text, path)
    made: list[str] = []
    for creature, row, row_text in zip(encounter.creatures, rows, texts):
        if row_text is None:
            document = {"creature": [creature_document(creature) if row is creature else row]}
            row_text = tomli_w.dumps(document)
            check_shape(row_text, path)
        made.append(row_text)
    if made:
        text += "\n" + "\n".join(made)
    return Checked(text, reading, made)
