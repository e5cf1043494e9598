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

No Rich, no Typer: importing this package is cheap (``--json`` paths), and each
name loads only its own submodule.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for the annotations; at run time each name is imported on first use
    from d4cli.output.serialize.acts import act_json, action_event_json, sheet_check_json, team_json
    from d4cli.output.serialize.base import ORIGIN_NAMES, JsonObject, pending_json
    from d4cli.output.serialize.changes import Record as Record  # the union of every record
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
    from d4cli.output.serialize.rolls import check_json, extra_json, pool_json, with_odds
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

# The submodule of each name. A name is imported when first asked for (PEP 562), so
# ``roll pool --json`` loads the roll serializers alone and a change never loads the views'.
_HOMES: dict[str, str] = {
    **dict.fromkeys(("act_json", "action_event_json", "sheet_check_json", "team_json"), "acts"),
    **dict.fromkeys(("ORIGIN_NAMES", "JsonObject", "pending_json"), "base"),
    **dict.fromkeys(
        ("add_json", "exhaust_json", "hp_json", "journal_json", "move_json", "record_json", "remove_json",
         "turn_end_json", "turn_start_json", "unchanged_json"),
        "changes",
    ),
    **dict.fromkeys(("effect_event_json", "effect_json", "effects_list_json", "ended_json"), "effects"),
    **dict.fromkeys(("check_json", "extra_json", "pool_json", "with_odds"), "rolls"),
    **dict.fromkeys(
        ("help_json", "init_json", "init_output_json", "log_json", "redo_json", "sheet_json", "status_json",
         "undo_json"),
        "views",
    ),
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'd4cli.output.serialize' has no attribute {name!r}")
    value = getattr(_submodule(home), name)
    globals()[name] = value  # found once: later look-ups are plain
    return value


def _submodule(home: str) -> ModuleType:
    if home == "rolls":
        from d4cli.output.serialize import rolls

        return rolls
    if home == "acts":
        from d4cli.output.serialize import acts

        return acts
    if home == "changes":
        from d4cli.output.serialize import changes

        return changes
    if home == "effects":
        from d4cli.output.serialize import effects

        return effects
    if home == "base":
        from d4cli.output.serialize import base

        return base
    from d4cli.output.serialize import views

    return views


__all__ = [
    "ORIGIN_NAMES",
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
