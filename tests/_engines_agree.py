"""Whether two engines' tallies of one setup agree: every figure within the 99% interval of the difference.

Each figure of `d4cli.sim.report.mode_report` that has a 95% interval is compared:
the two estimates must differ by no more than the 99% interval of their difference. A
share of runs (wins, draws, a creature down) is compared as two proportions (the pooled
standard error); any other figure by its pooled spread: each engine's per-run standard
deviation read off its own (normal) interval, pooled by runs, times ``sqrt(1/n_a + 1/n_b)``
(so a few reference runs that happen to agree exactly do not shrink the spread to the
batch engine's alone). A figure that rests on the events of a handful of runs is not
normal and is left out: one whose numerator is non-zero in fewer than `FEW` runs of either
engine (at least ``sum**2 / sum_of_squares`` runs are non-zero, Cauchy-Schwarz). Figures that are one event seen twice (in a duel one
side's wins are the other's downs) count once. Across many figures some misses are
expected by chance (1 in 100); `allowed_misses` is the most that chance gives with
probability 99.9%, and a real fault shows as far more, or as one miss of many standard
errors.
"""

from __future__ import annotations

import math
from typing import Any

from d4cli.sim.report import Z95, mode_report
from d4cli.sim.tally import FIGURES, Tally

Z99 = 2.5758293035489004
FEW = 20


def _events(tally: Tally) -> dict[str, float]:
    """For each figure over per-run sums: the fewest runs its numerator can be non-zero in."""
    width = len(tally.sums)

    def runs_with(total: int, squares: int) -> float:
        return (
            math.inf
            if total == 0 and squares == 0
            else (total * total / squares if squares else 0.0)
        )

    def column(i: int) -> float:
        return runs_with(tally.sums[i], tally.products[i * width + i])

    out = {
        "actions per turn": column(2),
        "reactions per round": column(3),
        "stuck share": column(4),
    }
    sides = width - len(FIGURES)
    out.update({f"side {n}": column(len(FIGURES) + n) for n in range(sides)})
    for c in range(tally.creatures):
        dealt, squared = tally.per_creature[4 * c + 1], tally.per_creature[4 * c + 2]
        out[f"creature {c}"] = runs_with(dealt, squared)
    return out


def _shares(report: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """``name -> (count, runs)`` of every share of runs."""
    runs = report["runs"]
    out = {f"wins {side}": (figure["wins"], runs) for side, figure in report["wins"].items()}
    out["draws"] = (report["draws"]["draws"], runs)
    for creature in report.get("creatures", ()):
        out[f"{creature['name']} down"] = (creature["down"]["downs"], runs)
    return out


def _figures(report: dict[str, Any]) -> dict[str, tuple[float, float, float, int]]:
    """``name -> (value, low, high, n)`` of every other figure with a 95% interval over n."""
    out: dict[str, tuple[float, float, float, int]] = {}
    plain = {
        "rounds to finish": report["rounds"] | {"value": report["rounds"]["mean"]},
        "actions per turn": report["actions_per_turn"],
        "reactions per round": report["reactions_per_round"],
        "stuck share": report["stuck_share"],
        **{f"damage per round {s}": f for s, f in report["damage_per_round"].items()},
    }
    for creature in report.get("creatures", ()):
        name = creature["name"]
        plain[f"{name} damage per fight"] = creature["damage_per_fight"]
        plain[f"{name} share of side"] = creature["share_of_side"]
    for name, figure in plain.items():
        if figure["value"] is not None and figure["low"] is not None:
            n = report["rounds"]["finished"] if name == "rounds to finish" else report["runs"]
            out[name] = (figure["value"], figure["low"], figure["high"], n)
    return out


def deviations(
    a: Tally, b: Tally, mode: str, sides: tuple[str, ...], max_rounds: int, creatures=()
) -> dict[str, float]:
    """Each shared figure's difference in standard errors of the difference (0 where both agree
    exactly; infinity where both are certain and differ)."""
    ra = mode_report(mode, a, sides, max_rounds, creatures)
    rb = mode_report(mode, b, sides, max_rounds, creatures)
    out = {}
    sa, sb = _shares(ra), _shares(rb)
    for name in sa:
        (xa, na), (xb, nb) = sa[name], sb[name]
        pooled = (xa + xb) / (na + nb)
        spread = math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb))
        gap = abs(xa / na - xb / nb)
        out[name] = 0.0 if gap <= 1e-12 else (math.inf if spread == 0 else gap / spread)
    fa, fb = _figures(ra), _figures(rb)
    ea, eb = _events(a), _events(b)
    rests_on = {name: name for name in ("actions per turn", "reactions per round", "stuck share")}
    for number, side in enumerate(sides):
        rests_on[f"damage per round {side}"] = f"side {number}"
    for number, (name, _side) in enumerate(creatures):
        rests_on[f"{name} damage per fight"] = f"creature {number}"
        rests_on[f"{name} share of side"] = f"creature {number}"
    for name in fa.keys() & fb.keys():
        basis = rests_on.get(name)
        if basis is not None and min(ea[basis], eb[basis]) < FEW:
            continue
        (va, la, ha, na), (vb, lb, hb, nb) = fa[name], fb[name]
        sd_a, sd_b = (ha - la) / 2 / Z95 * math.sqrt(na), (hb - lb) / 2 / Z95 * math.sqrt(nb)
        pooled = math.sqrt((na * sd_a**2 + nb * sd_b**2) / (na + nb))
        spread = pooled * math.sqrt(1 / na + 1 / nb)
        gap = abs(va - vb)
        out[name] = 0.0 if gap <= 1e-12 else (math.inf if spread == 0 else gap / spread)
    return out


def allowed_misses(checks: int, chance: float = 0.01, certainty: float = 0.999) -> int:
    """The most misses at *chance* each that *checks* independent checks give with *certainty*."""
    total = 0.0
    for k in range(checks + 1):
        total += math.comb(checks, k) * chance**k * (1 - chance) ** (checks - k)
        if total >= certainty:
            return k
    return checks


def misses(found: dict[str, float]) -> list[str]:
    """The figures outside the 99% interval of the difference, one event seen twice once
    (the same gap to 9 digits)."""
    seen: dict[float, str] = {}
    for name, z in sorted(found.items()):
        if z > Z99:
            seen.setdefault(round(z, 9), name)
    return sorted(seen.values())
