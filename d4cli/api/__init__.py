"""d4cli as a library: the one way in for the CLI, ``play``, the server and a designer's script.

    >>> from d4cli.api import roll_pool
    >>> roll_pool(4, advantage=["torch"], dc=8).total      # doctest: +SKIP
    >>> from d4cli.api.encounter import Tracker
    >>> tracker = Tracker("encounter.toml")
    >>> change = tracker.act("Aria", "Finesse", extra=["1d4"], target="Goblin Archer")
    >>> change.record.result.total, change.written           # doctest: +SKIP

The library comes in parts, each loading what it needs and no more: this package holds the rolls,
which need no file, and the errors; `d4cli.api.odds` the exact odds; `d4cli.api.encounter` an
encounter file (`Tracker`, its records, its side files); `d4cli.api.seats` and
`d4cli.api.seat_requests` the players' seats; `d4cli.api.simulation` the playtest simulator
(`simulate`, `forecast`). Errors are one family: `D4Error`, with `InputError` (bad input, naming
the field and the value), `FileError` (a file that cannot be read, used or written) and
`RefusedError` (the rules refuse: R2, C4); a file adds `LockTimeout` and `WriteFailed`
(`d4cli.api.encounter`). docs/api.md documents each name.
"""

from d4cli.api.rolls import pool_plan, roll_check, roll_dice, roll_pool
from d4cli.rules.action_roll import CheckResult
from d4cli.rules.dice import DiceRoll, EnteredDice, ExtraDice, ScriptedDice
from d4cli.rules.errors import D4Error, FileError, InputError, RefusedError
from d4cli.rules.pool import PoolPlan, PoolResult

__all__ = [
    # rolls
    "roll_pool",
    "pool_plan",
    "roll_check",
    "roll_dice",
    "PoolPlan",
    "PoolResult",
    "CheckResult",
    "DiceRoll",
    "ExtraDice",
    "ScriptedDice",
    "EnteredDice",
    # errors
    "D4Error",
    "InputError",
    "FileError",
    "RefusedError",
]
