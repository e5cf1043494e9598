"""Rolls as JSON lines and with odds: one roll's text made fast for ``--repeat``, the ``odds`` key (L4).

The ``odds`` object itself is written by `d4cli.output.serialize.odds_json`, which a roll loads only
with ``--odds``.

The roll objects themselves are the journal's facts (`d4cli.journal.roll_facts`)."""

from __future__ import annotations

import json
from collections.abc import Callable

from d4cli.journal.roll_facts import extra_json
from d4cli.output.serialize import JsonObject
from d4cli.rules.pool import PoolResult

# The keys of a pool object that come from the dice (R6, R7), in `pool_json`'s order;
# every other key follows from the plan.
ROLLED = ("dice", "extra", "total", "success", "damage")
_JSON_BOOL = {None: "null", True: "true", False: "false"}


def pool_lines(
    to_json: Callable[[PoolResult], JsonObject], first: PoolResult
) -> Callable[[PoolResult], str]:
    """The JSON text (one line, ``json.dumps``) of ``to_json(result)`` for any roll of *first*'s plan.

    *to_json* is `pool_json`, with ``label`` and ``odds`` added as the command asks: they
    follow from the plan too. Only the `ROLLED` values change from roll to roll, so the
    text of *first*'s object is cut around them once and each roll fills in its own
    (its dice, extra dice, total, ``success`` and ``damage`` as the `d4cli.rules.pool.PoolResult`
    has them). The template must give *first*'s text exactly, else every roll goes
    through ``json.dumps``: the text is the serializer's either way.
    """
    obj = to_json(first)
    whole = json.dumps(obj)

    def dumped(result: PoolResult) -> str:
        return json.dumps(to_json(result))

    marks = [json.dumps(f"\x00{key}\x00") for key in ROLLED]
    text = json.dumps({**obj, **{key: json.loads(mark) for key, mark in zip(ROLLED, marks)}})
    if not all(key in obj for key in ROLLED) or [text.find(mark) for mark in marks] != sorted(
        text.find(mark) for mark in marks
    ):
        return dumped
    pieces = []
    for mark in marks:
        head, found, text = text.partition(mark)
        if not found:
            return dumped
        pieces.append(head)
    a, b, c, d, e = pieces
    tail = text

    def line(result: PoolResult) -> str:
        total, extra, damage = result.total, result.extra, result.damage
        # A list of whole numbers and a whole number read as in JSON; None is null.
        return (
            f"{a}{list(result.dice)}{b}{json.dumps(extra_json(extra)) if extra else '[]'}"
            f"{c}{'null' if total is None else total}{d}{_JSON_BOOL[result.success]}"
            f"{e}{'null' if damage is None else damage}{tail}"
        )

    return line if line(first) == whole else dumped


def with_odds(obj: JsonObject, odds: JsonObject | None) -> JsonObject:
    """*obj* with the ``odds`` key (L4): a `d4cli.output.serialize.odds_json` object, or None."""
    obj["odds"] = odds
    return obj
