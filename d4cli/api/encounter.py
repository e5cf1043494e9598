"""An encounter file through the library: the `Tracker`, its records, its side files and errors.

    >>> from d4cli.api.encounter import Tracker
    >>> tracker = Tracker("encounter.toml")
    >>> change = tracker.act("Aria", "Finesse", extra=["1d4"], target="Goblin Archer")
    >>> change.record.result.total, change.written           # doctest: +SKIP

A `Tracker` holds an encounter file: its methods are the encounter's changes (each returns a
`Change`: the fight model's record of what happened and why, the encounter after it, whether it
was written) and its reads (`Tracker.status`, `Tracker.view`, `Tracker.log`). Beside the family
of `d4cli.api` (`D4Error` and its kinds), a file adds `LockTimeout` (another process holds the
file longer than the lock timeout) and `WriteFailed` (the disk refused a write; nothing changed).
This module loads the store, the file format and the fight model, which a script that only
rolls (`d4cli.api`) or asks for odds (`d4cli.api.odds`) never pays for. docs/api.md documents
each name.
"""

from d4cli.api.change import Change
from d4cli.api.reader import Reader
from d4cli.api.tracker import Tracker
from d4cli.fight.actions import ActRecord
from d4cli.fight.closed_sets import GrantKind
from d4cli.fight.encounter_state import TEAM_SOURCE, Creature, Encounter, same_name
from d4cli.fight.events import DamageEvent, EffectEvent, FieldChange, HealEvent, SetEvent
from d4cli.fight.policy_table import check_target
from d4cli.fight.several import SeveralEvent
from d4cli.fight.sheet_check import CheckRecord, SheetCheckRequest
from d4cli.fight.sheets import ActionEvent
from d4cli.fight.team import TeamRecord
from d4cli.journal.entry import Record, read_head
from d4cli.store.files import WriteFailed
from d4cli.store.journal import public_entry
from d4cli.store.lock import LockTimeout
from d4cli.store.seat_files import side_problems
from d4cli.store.undo import Redone, Undone

__all__ = [
    # the encounter
    "Tracker",
    "Reader",
    "Change",
    "Undone",
    "Redone",
    "Encounter",
    "Creature",
    "ActRecord",
    "TeamRecord",
    "CheckRecord",
    "SheetCheckRequest",
    "ActionEvent",
    "SetEvent",
    "DamageEvent",
    "HealEvent",
    "EffectEvent",
    "FieldChange",
    "SeveralEvent",
    # the seats' side files
    "side_problems",
    # the encounter's vocabulary
    "same_name",
    "read_head",
    "public_entry",
    "Record",
    "GrantKind",
    "TEAM_SOURCE",
    "check_target",
    # what a file adds to the error family
    "WriteFailed",
    "LockTimeout",
]
