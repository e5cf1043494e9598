"""``roll pool --times N --json``: each line is the serializer's object of the rules' own roll, byte for byte."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from d4cli.cli.app import app
from d4cli.journal.roll_facts import pool_json
from d4cli.odds.roll_odds import pool_odds
from d4cli.output.serialize.rolls_json import with_odds
from d4cli.rules.dice import parse_extras
from d4cli.rules.pool import PoolRequest, plan_pool, roll_pool
from d4cli.sim.batched_dice import times_dice

runner = CliRunner()


def expected(
    request: PoolRequest, seed: int, count: int, *, label: str | None = None, odds: bool = False
) -> str:
    """The lines by definition: the first roll from ``--seed`` alone, the rest from `times_dice`, each `json.dumps`-ed."""
    plan = plan_pool(request)
    rng = random.Random(seed)
    rolls = [roll_pool(plan, rng)]
    dice = times_dice(rng)
    rolls += [roll_pool(plan, dice) for _ in range(count - 1)]
    lines = []
    for result in rolls:
        obj = pool_json(result)
        if label is not None:
            obj["label"] = label
        lines.append(json.dumps(with_odds(obj, pool_odds(plan)) if odds else obj))
    return "".join(line + "\n" for line in lines)


@pytest.mark.parametrize(
    ("args", "request_", "extra"),
    [
        ((), PoolRequest(6), {}),
        (("--dc", "14"), PoolRequest(6, dc=14), {}),
        (("--evasion", "12"), PoolRequest(6, evasion=12), {}),
        # (--odds with --times is refused: tests/cli/test_odds_cli.py)
        (
            ("--adv", "torch", "--dis", "dark", "--dis", "fog", "--label", "x"),
            PoolRequest(6, advantage=("torch",), disadvantage=("dark", "fog")),
            {"label": "x"},
        ),
        (
            ("--extra", "1d8+2", "--dc", "12"),
            PoolRequest(6, extra=parse_extras(["1d8+2"]), dc=12),
            {},
        ),
    ],
    ids=["plain", "dc", "evasion", "sources-label", "extra"],
)
def test_json_lines_are_the_serializer_of_each_roll(args, request_, extra):
    result = runner.invoke(
        app, ["roll", "pool", "6", *args, "--times", "5000", "--seed", "3", "--json"]
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == expected(
        request_, 3, 5000, **extra
    )  # more than a block of lines and a batch of d4s


def test_quiet_lines_and_json_lines_see_the_same_dice():
    args = ["roll", "pool", "5", "--times", "3000", "--seed", "8"]
    totals = [
        json.loads(line)["total"]
        for line in runner.invoke(app, [*args, "--json"]).stdout.splitlines()
    ]
    assert runner.invoke(app, [*args, "--quiet"]).stdout.split() == [str(total) for total in totals]
