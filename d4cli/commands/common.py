"""Options and helpers shared by the command modules (docs/cli.md "Everywhere")."""

from __future__ import annotations

import json
import os
import sys
from typing import Annotated, Any

import typer

from d4cli.limits import SEED, TIMES, parse_whole

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
SeedOption = Annotated[
    str | None,
    typer.Option("--seed", metavar="N", help="Seed the dice (0..2**63-1); else D4CLI_SEED."),
]
TimesOption = Annotated[
    str | None, typer.Option("--times", metavar="N", help="Roll N times (1..1,000,000).")
]
QuietOption = Annotated[
    bool, typer.Option("--quiet", "-q", help="Print only the essential number (total or damage).")
]
OddsOption = Annotated[
    bool, typer.Option("--odds", help="Add the exact odds of this roll (L4).")
]


def make_rng(seed: str | None) -> Any:
    """Return the dice source: seeded from --seed, else D4CLI_SEED, else from the OS.

    Raises:
        InputError: a seed that is not a whole number within 0..2**63-1.
    """
    import random

    if seed is None:
        env = os.environ.get("D4CLI_SEED")
        if env is None or env == "":
            return random.Random()
        return random.Random(parse_whole(env, "D4CLI_SEED", SEED))
    return random.Random(parse_whole(seed, "--seed", SEED))


def parse_times(times: str | None) -> int:
    """The --times count (1 when not given)."""
    return 1 if times is None else parse_whole(times, "--times", TIMES)


def emit_json(obj: dict[str, Any]) -> None:
    """Write one JSON object as one line on stdout and flush it (JSON Lines)."""
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()
