"""Every result record as the plain JSON object that the public contract fixes: the one serializer.

Each record has exactly one function in this package that turns it into its
JSON object; the commands print that object and the journal stores the same
object plus its bookkeeping (``seq``, ``time``, digests), so ``act --json`` and
the ``log --json`` entry of that act carry the same facts under the same keys.
Every key of the contract is always present (None where it does not apply); the
extra keys (``rules``, ``base_pool`` ...) explain the steps further.

Submodules by concept: `rolls` (pool, check, odds), `acts` (act, team, sheet
check, named actions), `effects` (R20), `changes` (encounter changes, any record,
journal facts), `views` (status, sheets, init, undo/redo, log, help); `base`
holds what they share. The serializers of a roll or a change are re-exported
here (``from d4cli.output.serialize import act_json``); the views' are imported
from `views` itself, so that a change never loads them.

No Rich, no Typer: importing this package is cheap (``--json`` paths).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from d4cli.output.serialize.acts import act_json, action_event_json, sheet_check_json, team_json
from d4cli.output.serialize.base import JsonObject, pending_json
from d4cli.output.serialize.changes import (
    SERIALIZERS,
    add_json,
    exhaust_json,
    hp_json,
    journal_json,
    move_json,
    record_json,
    remove_json,
    turn_end_json,
    turn_start_json,
    unchanged_json,
)
from d4cli.output.serialize.effects import (
    effect_event_json,
    effect_json,
    effects_list_json,
    ended_json,
)
from d4cli.output.serialize.rolls import check_json, extra_json, odds_json, pool_json, with_odds

if TYPE_CHECKING:  # the union of every record, for annotations only
    from d4cli.output.serialize.changes import Record as Record

__all__ = [
    "SERIALIZERS",
    "JsonObject",
    "act_json",
    "action_event_json",
    "add_json",
    "check_json",
    "effect_event_json",
    "effect_json",
    "effects_list_json",
    "ended_json",
    "exhaust_json",
    "extra_json",
    "hp_json",
    "journal_json",
    "move_json",
    "odds_json",
    "pending_json",
    "pool_json",
    "record_json",
    "remove_json",
    "sheet_check_json",
    "team_json",
    "turn_end_json",
    "unchanged_json",
    "turn_start_json",
    "with_odds",
]
