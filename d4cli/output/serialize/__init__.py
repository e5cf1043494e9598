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
holds what they share. Import from here: ``from d4cli.output.serialize import act_json``.

No Rich, no Typer: importing this package is cheap (``--json`` paths).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from d4cli.output.serialize.acts import act_json, action_event_json, sheet_check_json, team_json
from d4cli.output.serialize.base import ORIGIN_NAMES, JsonObject, pending_json
from d4cli.output.serialize.changes import (
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
from d4cli.output.serialize.rolls import check_json, dice_json, extra_json, pool_json, with_odds

if TYPE_CHECKING:  # the union of every record, for annotations only
    from d4cli.output.serialize.changes import Record as Record
    from d4cli.output.serialize.views import (
        help_json,
        init_json,
        init_output_json,
        log_json,
        redo_json,
        sheet_json,
        status_json,
        undo_json,
    )

# The views' serializers (status, log, init, ...), loaded when first asked for: a change never needs them.
_VIEWS = ("help_json", "init_json", "init_output_json", "log_json", "redo_json", "sheet_json", "status_json", "undo_json")


def __getattr__(name: str) -> Any:
    if name in _VIEWS:
        from d4cli.output.serialize import views

        return getattr(views, name)
    raise AttributeError(f"module 'd4cli.output.serialize' has no attribute {name!r}")

__all__ = [
    "ORIGIN_NAMES",
    "JsonObject",
    "act_json",
    "action_event_json",
    "add_json",
    "check_json",
    "dice_json",
    "effect_event_json",
    "effect_json",
    "effects_list_json",
    "ended_json",
    "exhaust_json",
    "extra_json",
    "help_json",
    "hp_json",
    "init_json",
    "init_output_json",
    "journal_json",
    "log_json",
    "move_json",
    "pending_json",
    "pool_json",
    "record_json",
    "redo_json",
    "remove_json",
    "sheet_check_json",
    "sheet_json",
    "status_json",
    "team_json",
    "turn_end_json",
    "unchanged_json",
    "turn_start_json",
    "undo_json",
    "with_odds",
]
