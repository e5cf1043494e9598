"""Every result record as the plain JSON object that the public contract fixes: the one serializer.

Each record has exactly one function here that turns it into its JSON object; the
commands print that object and the journal stores the same object plus its
bookkeeping (``seq``, ``time``, digests), so ``act --json`` and the ``log --json``
entry of that act carry the same facts under the same keys. Every key of the
contract is always present (None where it does not apply); the extra keys
(``rules``, ``base_pool`` ...) explain the steps further.

Submodules by concept, imported by name where they are used (so ``roll pool
--json`` loads the roll serializers alone): `rolls` (pool, check, odds), `acts`
(act, team, sheet check, named actions), `effects` (R20), `changes` (encounter
changes, the record -> serializer table, journal facts), `views` (status, sheets,
init, undo/redo, log, help), `grids` (the ``odds`` grids); `base` holds what the
serializers of the encounter's records share. `JsonObject` is the type of every object.
"""

from typing import Any

# A JSON object as the serializers build it: ``json.dumps`` writes it as the contract says.
JsonObject = dict[str, Any]
