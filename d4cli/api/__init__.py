"""d4cli as a library: the one way in for the CLI, ``play``, the server and a designer's script.

    >>> from d4cli.api import Tracker, roll_pool
    >>> roll_pool(4, advantage=["torch"], dc=8).total      # doctest: +SKIP
    >>> tracker = Tracker("encounter.toml")
    >>> change = tracker.act("Aria", "Finesse", extra=["1d4"], target="Goblin Archer")
    >>> change.record.result.total, change.written           # doctest: +SKIP

Rolls and odds need no file. A `Tracker` holds an encounter file: its methods are the
encounter's changes (each returns a `Change`: the fight model's record of what happened
and why, the encounter after it, whether it was written) and its reads (`Tracker.status`,
`Tracker.view`, `Tracker.log`). Errors are one family: `D4Error`, with `InputError`
(bad input, naming the field and the value), `FileError` (a file that cannot be read,
used or written), `RefusedError` (the rules refuse: R2, C4) and `LockTimeout`.
docs/api.md documents each name. Every call checks its arguments first
(`d4cli.api.arguments`); the names the players' screens and seats need are in
`d4cli.api.front_ends`.

`simulate` and `forecast` (the playtest simulator, `d4cli.api.simulation`) are named here
but loaded when first asked for: the simulator brings the process pool's modules, which a
script or a command that plays no fight should not pay for.
"""

from typing import TYPE_CHECKING, Any

from d4cli.api.change import Change
from d4cli.api.odds import (
    check_grid,
    check_odds,
    compare_grid,
    damage_grid,
    dice_odds,
    expected_pool_damage,
    p_check_success,
    p_pool_success,
    pool_grid,
    pool_odds,
)
from d4cli.api.reader import Reader
from d4cli.api.rolls import pool_plan, roll_check, roll_dice, roll_pool
from d4cli.api.tracker import Tracker
from d4cli.fight.actions import ActRecord
from d4cli.fight.closed_sets import GrantKind
from d4cli.fight.encounter import TEAM_SOURCE, Creature, Encounter, same_name
from d4cli.fight.events import DamageEvent, EffectEvent, FieldChange, HealEvent, SetEvent
from d4cli.fight.policy_table import check_target
from d4cli.fight.several import SeveralEvent
from d4cli.fight.sheet_check import CheckRecord, SheetCheckRequest
from d4cli.fight.sheets import ActionEvent
from d4cli.fight.team import TeamRecord
from d4cli.odds.check_odds import CheckOdds
from d4cli.odds.roll_odds import PoolOdds
from d4cli.rules.action_roll import CheckRequest, CheckResult
from d4cli.rules.dice import DiceRoll, EnteredDice, ExtraDice, ScriptedDice
from d4cli.rules.errors import D4Error, FileError, InputError, RefusedError
from d4cli.rules.pool import PoolPlan, PoolResult, RefusedPool, RolledPool
from d4cli.store.files import WriteFailed
from d4cli.store.lock import LockTimeout
from d4cli.store.undo import Redone, Undone

if TYPE_CHECKING:
    from d4cli.api.simulation import forecast, simulate

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
    # the encounter's vocabulary
    "same_name",
    "GrantKind",
    "TEAM_SOURCE",
    "check_target",
    # rolls
    "roll_pool",
    "pool_plan",
    "roll_check",
    "roll_dice",
    "PoolPlan",
    "PoolResult",
    "RolledPool",
    "RefusedPool",
    "CheckRequest",
    "CheckResult",
    "DiceRoll",
    "ExtraDice",
    "ScriptedDice",
    "EnteredDice",
    # exact odds
    "PoolOdds",
    "CheckOdds",
    "pool_odds",
    "check_odds",
    "dice_odds",
    "p_pool_success",
    "expected_pool_damage",
    "p_check_success",
    "pool_grid",
    "damage_grid",
    "check_grid",
    "compare_grid",
    # the simulator (loaded when first asked for)
    "simulate",
    "forecast",
    # errors
    "D4Error",
    "InputError",
    "FileError",
    "WriteFailed",
    "RefusedError",
    "LockTimeout",
]


# The names of `d4cli.api.simulation` that `d4cli.api` gives, loaded on first use.
_SIMULATION = frozenset({"simulate", "forecast"})


def __getattr__(name: str) -> Any:
    """`simulate` and `forecast`, from `d4cli.api.simulation` (imported on first use)."""
    if name in _SIMULATION:
        from d4cli.api import simulation

        return getattr(simulation, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
