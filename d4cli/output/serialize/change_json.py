"""A change's ``--json``: the facts its journal entry keeps, written by the entry's home.

What a command prints after a change is exactly what the journal keeps of it, so the writers
are those of `d4cli.journal` (one writer a kind, one table: `d4cli.journal.entry.KINDS`), named
here for the front ends, which print through `d4cli.output` and reach the core only through
`d4cli.api`.
"""

from d4cli.journal.acts import act_json, action_event_json
from d4cli.journal.entry import journal_json, record_json, unchanged_json

__all__ = ["act_json", "action_event_json", "journal_json", "record_json", "unchanged_json"]
