"""The journal entry: its facts written from the fight model's records, and read back typed.

This package is the one home of the journal's vocabulary. Each kind of change has its facts
writer (a record of `d4cli.fight` to the JSON object the public contract fixes) and its typed
record read back from a journal line, side by side by concept: `acts` (act, team, check, named
actions), `changes` (the encounter's changes), `effects` (R20), `rolls` (the dice as rolled),
`heads` (what every change shares, and the `Change` every record extends). Both are reached
through one table keyed by kind (`entry.KINDS`); the entry's head (``seq``, ``time``, ``note``,
``seat``, ``request``) and the schema version are read in `entry`. The commands
print the same objects (``act --json`` and the ``log --json`` entry of that act carry the same
facts under the same keys); everything else reads an entry through its typed record, never by key.

`JsonObject` is the type of every object written. `SCHEMA` is the version each new entry
carries under `SCHEMA_KEY` (bookkeeping: ``log`` never shows it); an entry without it was
written before versions were, and reads as version 1.
"""

from typing import Any

# A JSON object as the writers build it: ``json.dumps`` writes it as the contract says.
JsonObject = dict[str, Any]

# The version of the journal entry's facts that this d4cli writes, and the key it goes under.
SCHEMA = 2
SCHEMA_KEY = "schema"
