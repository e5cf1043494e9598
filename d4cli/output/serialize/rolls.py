"""Rolls as JSON lines and with odds: one roll's text made fast for ``--repeat``, the ``odds`` key (L4).

The roll objects themselves are the journal's facts (`d4cli.journal.rolls`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

from d4cli.journal.rolls import extra_json
from d4cli.odds.distribution import Distribution, fraction_text
from d4cli.output.serialize import JsonObject
from d4cli.rules.pool import PoolResult

if TYPE_CHECKING:
    # Only `--odds` computes odds (the views import them where they handle it): types here.
    from d4cli.odds.check_odds import CheckOdds
    from d4cli.odds.roll_odds import PoolOdds

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
    """*obj* with the ``odds`` key (L4): an `odds_json` or `check_odds_json` object, or None."""
    obj["odds"] = odds
    return obj


def odds_json(odds: PoolOdds) -> JsonObject:
    """The ``odds`` object of a pool's or plain dice' odds (`check_odds_json`: a check's)."""
    obj = _distribution_json(odds)
    if odds.dc is not None:
        obj["p_success"] = odds.p_success
        obj["p_success_exact"] = fraction_text(odds.success_exact)
    if odds.evasion is not None:
        obj["expected_damage"] = odds.expected_damage
        obj["p_any_damage"] = odds.p_any_damage
        obj["p_any_damage_exact"] = fraction_text(odds.any_damage_exact)
    return obj


def check_odds_json(odds: CheckOdds) -> JsonObject:
    """The ``odds`` object of an Action Roll's odds (C1-C7), as `_distribution_json` says."""
    obj = _distribution_json(odds)
    if odds.success is not None:
        obj["p_success"] = odds.p_success
        obj["p_success_exact"] = fraction_text(odds.success)
    obj["p_critical_success"] = odds.p_critical_success
    obj["p_critical_success_exact"] = fraction_text(odds.critical_success)
    obj["p_critical_failure"] = odds.p_critical_failure
    obj["p_critical_failure_exact"] = fraction_text(odds.critical_failure)
    if odds.success_and is not None:
        obj["p_success_and"] = odds.p_success_and
        obj["p_success_and_exact"] = fraction_text(odds.success_and)
        obj["p_failure_but"] = odds.p_failure_but
        obj["p_failure_but_exact"] = fraction_text(odds.failure_but)
    return obj


def _distribution_json(odds: PoolOdds | CheckOdds) -> JsonObject:
    """The ``odds`` object of docs/cli.md (floats, exact to 1e-12).

    Keys: ``distribution`` (each total whose probability is not 0.0 as a
    float, as a string, to its probability) and ``distribution_omitted`` (the
    exact probability of the totals left out, a fraction string such as
    ``"0/1"``), ``mean``; with a DC ``p_success``; with an Evasion
    ``expected_damage`` (and ``p_any_damage``); for checks
    ``p_critical_success``, ``p_critical_failure`` and, with the Rule of Three
    and a DC, ``p_success_and`` and ``p_failure_but``. ``exact`` says whether
    the exact path was used (`d4cli.odds.dice_sums` gives the method).

    No float is 0.0 or 1.0 unless the probability is exactly 0 or 1
    (`d4cli.odds.distribution.edge_safe`). Each headline probability also comes exact, as a fraction
    string under the same key plus ``_exact`` (``p_success_exact: "667/1024"``);
    null only for a fixed-point roll whose smaller dice are themselves beyond
    the exact path (`Distribution.exact_at_least`).
    """
    distribution = odds.distribution
    listed, omitted = _listed_totals(distribution)
    obj: JsonObject = {
        "distribution": listed,
        "distribution_omitted": fraction_text(omitted),
        "mean": distribution.mean,
        "exact": distribution.exact,
    }
    return obj


def _listed_totals(distribution: Distribution) -> tuple[dict[str, float], Fraction]:
    """The totals whose probability is not 0.0 as a float, and the exact probability of the rest.

    Exact path: the rest is the sum of their counts. Fixed-point path: the rest
    lies in the two tails (sums of dice have no inner gaps), so it is
    ``1 - P(total >= first) + P(total > last)`` (`Distribution.exact_at_least`);
    when that cannot be had exactly, every total is listed and nothing omitted.
    """
    listed = {str(total): p for total, p in distribution.items() if p != 0.0}
    if len(listed) == len(distribution):
        return listed, Fraction(0)
    if distribution.exact:
        rest = sum(w for w, p in zip(distribution.weights, distribution.probabilities) if p == 0.0)
        return listed, Fraction(rest, distribution.denominator)
    totals = [int(total) for total in listed]
    below = distribution.exact_at_least(totals[0])
    above = distribution.exact_at_least(totals[-1] + 1)
    if below is None or above is None:
        return {str(total): p for total, p in distribution.items()}, Fraction(0)
    return listed, 1 - below + above
