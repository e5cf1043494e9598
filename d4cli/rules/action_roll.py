"""The d20 Action Roll (C1-C7): leveled Advantage, crits and the Rule of Three.

Pure functions on plain data; `roll_check` takes an injected `DiceSource` and
returns a `CheckResult` that carries every step.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

# The DC tiers (C2) and their parser live in `d4cli.rules.dc` (light: `act` needs only them).
from d4cli.rules.dc import DC_TIERS as DC_TIERS
from d4cli.rules.dc import parse_dc as parse_dc
from d4cli.rules.dice import DiceSource, roll_dice
from d4cli.rules.limits import ADVANTAGE_LEVEL, DISADVANTAGE_COUNT, check_range
from d4cli.rules.records import notebook


class Outcome(StrEnum):
    """How an Action Roll ends against its DC (C2, C4, C6, C7); its JSON is the value."""

    SUCCESS = "success"
    FAILURE = "failure"
    SUCCESS_AND = "success-and"
    FAILURE_BUT = "failure-but"
    IMPOSSIBLE = "impossible"


class Critical(StrEnum):
    """A natural 20 (C5) or a natural 1 (C6)."""

    SUCCESS = "success"
    FAILURE = "failure"


SUCCESS = Outcome.SUCCESS
FAILURE = Outcome.FAILURE
SUCCESS_AND = Outcome.SUCCESS_AND
FAILURE_BUT = Outcome.FAILURE_BUT
IMPOSSIBLE = Outcome.IMPOSSIBLE


@notebook
class CheckRequest(NamedTuple):
    """What an Action Roll asks for (C1-C4, C7).

    Attributes:
        attribute / proficiency / specialization: whole-number modifiers (C1).
        dc: the Difficulty Class (C2), or None to roll without one.
        advantage_level: 0..5 (C3).
        disadvantage: how many Disadvantages apply (C4).
        rule_of_three: grade results as "succeeds, and..." / "fails, but..." (C7).
    """

    attribute: int = 0
    proficiency: int = 0
    specialization: int = 0
    dc: int | None = None
    advantage_level: int = 0
    disadvantage: int = 0
    rule_of_three: bool = False

    @property
    def modifiers(self) -> int:
        return self.attribute + self.proficiency + self.specialization


@notebook
class Levels(NamedTuple):
    """Advantage after Disadvantage (C4).

    Attributes:
        effective_level: the Advantage Level that is rolled.
        subtract_die: a d6 is subtracted (one Disadvantage, no Advantage).
        impossible: two or more Disadvantages: nothing is rolled.
    """

    effective_level: int
    subtract_die: bool
    impossible: bool


def apply_disadvantage(advantage_level: int, disadvantage: int) -> Levels:
    """Combine an Advantage Level with a count of Disadvantages (C3, C4).

    One Disadvantage lowers the level by 1, or, at level 0, subtracts 1d6; two
    or more make the action impossible whatever the Advantage.

    Raises:
        InputError: a level outside 0..5 (C3) or a negative count.
    """
    check_range(advantage_level, "advantage_level", ADVANTAGE_LEVEL)
    check_range(disadvantage, "disadvantage", DISADVANTAGE_COUNT)
    if disadvantage >= 2:
        return Levels(0, False, True)
    if disadvantage == 1:
        if advantage_level >= 1:
            return Levels(advantage_level - 1, False, False)
        return Levels(0, True, False)
    return Levels(advantage_level, False, False)


def advantage_bonus(dice: tuple[int, ...] | list[int]) -> int:
    """The Advantage bonus of a set of d6s (C3): the highest, +1 for each 6 beyond the first.

    >>> advantage_bonus((4, 6)), advantage_bonus((6, 6)), advantage_bonus((6, 6, 6)), advantage_bonus(())
    (6, 7, 8, 0)
    """
    if not dice:
        return 0
    sixes = sum(1 for die in dice if die == 6)
    return max(dice) + max(0, sixes - 1)


def grade(natural: int, total: int, dc: int | None, rule_of_three: bool) -> Outcome | None:
    """The outcome of a rolled check (C2, C6, C7).

    A natural 1 always fails and is never softened (C6); otherwise success when
    ``total >= dc``. With the Rule of Three a miss by 1 or 2 is "failure-but" and
    a success by 4 or more is "success-and". None without a DC.
    """
    if dc is None:
        return None
    if natural == 1:
        return FAILURE
    margin = total - dc
    if margin >= 0:
        return SUCCESS_AND if rule_of_three and margin >= 4 else SUCCESS
    return FAILURE_BUT if rule_of_three and margin >= -2 else FAILURE


@notebook
class CheckResult(NamedTuple):
    """A rolled (or impossible) Action Roll (C1-C7).

    Attributes:
        natural: the d20 before any bonus, None when impossible.
        advantage_dice: the d6s rolled for Advantage (C3).
        disadvantage_die: the d6 subtracted for Disadvantage (C4), or None.
        crit_die: the extra d6 of a natural 20 (C5), or None.
        total: the Result (C1), None when impossible.
        outcome: "success", "failure", "success-and", "failure-but",
            "impossible", or None without a DC.
    """

    request: CheckRequest
    levels: Levels
    natural: int | None = None
    advantage_dice: tuple[int, ...] = ()
    disadvantage_die: int | None = None
    crit_die: int | None = None
    total: int | None = None
    outcome: Outcome | None = None

    @property
    def impossible(self) -> bool:
        return self.levels.impossible

    @property
    def advantage_bonus(self) -> int:
        return advantage_bonus(self.advantage_dice)

    @property
    def critical(self) -> Critical | None:
        """``success`` on a natural 20 (C5), ``failure`` on a natural 1 (C6), else None."""
        if self.natural == 20:
            return Critical.SUCCESS
        if self.natural == 1:
            return Critical.FAILURE
        return None

    @property
    def margin(self) -> int | None:
        """``total - dc``: how far the Result beat (>= 0) or missed (< 0) the DC."""
        dc = self.request.dc
        return None if dc is None or self.total is None else self.total - dc

    @property
    def success(self) -> bool | None:
        if self.impossible:
            return False
        if self.outcome is None:
            return None
        return self.outcome in (SUCCESS, SUCCESS_AND)


def roll_check(request: CheckRequest, rng: DiceSource) -> CheckResult:
    """Make an Action Roll (C1-C7).

    Dice are taken in this order: the d20, the Advantage d6s, the Disadvantage
    d6, then the critical d6 on a natural 20. An impossible check (C4) rolls
    nothing.

    Raises:
        InputError: as `apply_disadvantage`.
    """
    levels = apply_disadvantage(request.advantage_level, request.disadvantage)
    if levels.impossible:
        return CheckResult(request, levels, outcome=IMPOSSIBLE)
    natural = rng.randint(1, 20)
    advantage_dice = roll_dice(levels.effective_level, 6, rng)
    disadvantage_die = rng.randint(1, 6) if levels.subtract_die else None
    crit_die = rng.randint(1, 6) if natural == 20 else None
    total = (
        natural
        + request.modifiers
        + advantage_bonus(advantage_dice)
        - (disadvantage_die or 0)
        + (crit_die or 0)
    )
    outcome = grade(natural, total, request.dc, request.rule_of_three)
    return CheckResult(
        request, levels, natural, advantage_dice, disadvantage_die, crit_die, total, outcome
    )
