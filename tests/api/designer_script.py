"""A game designer's script, as one would write it against the installed library.

tests/api/test_typed_library.py runs `mypy --strict` on it (the package's own annotations,
through its ``py.typed``) and runs it. Each `assert_type` says what a caller is given
without narrowing anything it did not ask for.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path
from typing import assert_type

from d4cli.api.encounter import Change, DamageEvent, EffectEvent, SeveralEvent, Tracker
from d4cli.api.odds import (
    CheckOdds,
    PoolOdds,
    check_odds,
    expected_pool_damage,
    p_check_success,
    p_pool_success,
    pool_odds,
)
from d4cli.api.rolls import CheckRequest, RefusedPool, RolledPool, pool_plan, roll_check, roll_pool
from d4cli.api.simulation import forecast


def rolls() -> None:
    rng = random.Random(7)
    result = roll_pool(4, advantage=["torch"], dc="hard", rng=rng)
    assert_type(result, RolledPool | RefusedPool)
    if result.allowed:
        total: int = result.total  # an allowed roll's total is a whole number
        print("pool", result.dice, total, result.success)
    called = roll_pool(2, load=5, gm=True, rng=rng)  # a GM-called roll skips the gate (R9)
    assert_type(called, RolledPool)
    print("gm", called.total + 0)
    check = roll_check(attribute=3, dc="medium", advantage_level=1, rng=rng)
    print("check", check.natural, check.total, check.outcome)


def odds() -> None:
    plan = pool_plan(4, load=1, dc=12)
    chances = pool_odds(plan)
    assert_type(chances, PoolOdds)
    print("pool odds", round(chances.mean, 3), chances.p_success)
    print("p_pool_success", p_pool_success(3, "easy"), p_pool_success(5, 12, ["1d6"]))
    print("expected damage", expected_pool_damage(4, 6))
    check = check_odds(CheckRequest(attribute=2, dc=15, advantage_level=1))
    assert_type(check, CheckOdds)
    print("check odds", check.success, p_check_success("hard", modifiers=4))


def encounter(folder: Path) -> None:
    tracker = Tracker.init(folder / "ambush.toml", template="ambush", force=True)
    names = [creature.name for creature in tracker.status().creatures]
    one = tracker.damage(names[0], 1)
    assert_type(one, Change[DamageEvent])
    print("damage", one.record.actor, one.record.hp_after)
    several = tracker.damage(names[:2], 1)
    assert_type(several, Change[DamageEvent | SeveralEvent])
    if isinstance(several.record, SeveralEvent):
        print("several", several.record.names)
    blessed = tracker.effect_add(names[0], "blessed", "advantage", rounds=1)
    assert_type(blessed, Change[EffectEvent])
    odds_now = forecast(tracker, runs=200, seed=1, jobs=1)
    print("forecast", [(chance.side, round(chance.rate, 2)) for chance in odds_now.chances])
    tracker.undo()


def main() -> int:
    rolls()
    odds()
    with tempfile.TemporaryDirectory() as folder:
        encounter(Path(folder))
    return 0


if __name__ == "__main__":
    sys.exit(main())
