"""The words of the players' roll feed: one roll's steps as the players may see them.

Made from a `d4cli.fight.players_view.PublicRoll` alone, which holds only what the
players may see; the board (`d4cli.output.render.players_board`) and the page
(`d4cli.output.page`) say the same words. Plain text, no Rich: callers escape (N1).
"""

from __future__ import annotations

from d4cli.fight.players_view import PublicRoll

# An outcome (`d4cli.fight.closed_sets.ActOutcome`) in words, when no number is shown.
OUTCOME_WORDS = {
    "damage": "hit",
    "no-damage": "no damage",
    "success": "success",
    "failure": "failure",
    "success-and": "success, and...",
    "failure-but": "failure, but...",
}


def roll_steps(roll: PublicRoll) -> tuple[str, ...]:
    """The steps of *roll* in words, in order: what was used, the dice, the extra dice (R6),
    the total, what it was against (Evasion R7, DC C2), how it ended (damage R16)."""
    steps: list[str] = []
    if roll.using:
        steps.append(" + ".join(roll.using) + (" check" if roll.kind == "check" else ""))
    elif roll.kind == "check":
        steps.append("check")
    if roll.dice and roll.kind == "check":
        natural, *advantage = roll.dice
        steps.append(f"d20 {natural}")
        if advantage:
            steps.append("Advantage dice " + " ".join(str(value) for value in advantage))
    elif roll.dice:
        steps.append("dice " + " ".join(str(value) for value in roll.dice))
    for notation, dice in roll.extra or ():
        steps.append(f"{notation}: " + " ".join(str(value) for value in dice))
    if roll.total is not None:
        steps.append(f"total {roll.total}")
    against = _against(roll)
    if against:
        steps.append(against)
    result = _result(roll)
    if result:
        steps.append(result)
    return tuple(steps)


def roll_line(roll: PublicRoll) -> str:
    """*roll* in one line: ``Aria: Finesse; dice 2 1 3 1; total 7; vs Goblin 2, Evasion 10; no damage``."""
    return f"{roll.actor}: " + "; ".join(roll_steps(roll))


def _against(roll: PublicRoll) -> str:
    if roll.target is not None:
        evasion = f", Evasion {roll.evasion}" if roll.evasion is not None else ""
        return f"vs {roll.target}{evasion}"
    return f"vs DC {roll.dc}" if roll.dc is not None else ""


def _result(roll: PublicRoll) -> str:
    if roll.critical is not None:
        return f"critical {roll.critical}"
    if roll.damage is not None and roll.outcome in ("damage", "no-damage"):
        return f"{roll.damage} damage"
    return OUTCOME_WORDS.get(roll.outcome or "", "")
