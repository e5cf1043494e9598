"""The ``odds`` object of a roll (L4): what ``--odds`` adds to a pool's, a check's or plain
dice' JSON, and what the seats' preview shows.

Loaded only where odds are asked for (``--odds``, a seat's preview), with the exact odds
themselves (docs/performance.md): the functions that compute them are named here too.
"""

from __future__ import annotations

from fractions import Fraction

from d4cli.odds.check_odds import CheckOdds
from d4cli.odds.distribution import Distribution, fraction_text
from d4cli.odds.roll_odds import PoolOdds, check_odds, dice_odds, pool_odds
from d4cli.output.serialize import JsonObject

# What `--odds` computes, named beside what it writes, so that a view that handles the option
# loads both with one import.
__all__ = ["check_odds", "check_odds_json", "dice_odds", "odds_json", "pool_odds"]


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
