"""The text d4cli writes for an encounter, validated as a read validates it (`checked_text`).

Every change writes this (`d4cli.store.transaction.encode_checked`): the encounter's
document (`encounter_document`) validated by `encounter_from_document`, written by
tomli-w after `HEADER`, its shape checked (`check_shape`), so d4cli never writes a
file it would then refuse. Done whole, 1,000 ``add``s in one ``play`` session were
quadratic (289 s): each validated and dumped every creature again. A creature this
process validated already (`d4cli.fileformat.remembered`) is passed to the validation
as the `Creature` it is, and its text is reused; the checks across creatures (N1
names, effects, aliases, ``current`` and ``last_turn``, round 0) still see every one.
The text is the same, byte for byte, as tomli-w writes for the whole document.
"""

from __future__ import annotations

from typing import Any

import tomli_w

from d4cli.fight.encounter import Encounter
from d4cli.fileformat import remembered
from d4cli.fileformat.encounter_toml import (
    HEADER,
    check_shape,
    creature_document,
    encounter_document,
    encounter_from_document,
)


def checked_text(encounter: Encounter, path: object) -> str:
    """The file text of *encounter* as every change writes it: `HEADER` and tomli-w's TOML.

    Raises:
        FileError: the document is invalid (as a read of it would say) or shaped to break
            the parser (`check_shape`).
    """
    rows: list[Any] = []
    texts: list[str | None] = []
    for creature in encounter.creatures:
        known, text = remembered.row_of(creature)
        # A Creature in the rows was validated already: passed through as it is.
        rows.append(creature if known else creature_document(creature))
        texts.append(text)
    top = encounter_document(encounter._replace(creatures=()) if encounter.creatures else encounter)
    # What a read of the text will give (an alias brings a [player_view] in, say): remembered as that.
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
    remembered.remember(text, reading, made)
    return text
