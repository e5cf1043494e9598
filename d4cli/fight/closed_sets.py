"""The closed sets of the encounter as string enums: reset mode (R12), Team Action grant (R11), action outcome (R2, R7).

Apart from the change records (`d4cli.fight.events`, which re-exports them) so that an
action's record names its outcome without building every other record class.
Each member is its string: JSON and TOML write the value.
"""

from __future__ import annotations

from enum import StrEnum


class Mode(StrEnum):
    """When Loads reset (R12): at a creature's own turn, or everyone at each round."""

    TURN = "turn"
    ROUND = "round"


class GrantKind(StrEnum):
    """What a Team Action grants the target's next roll (R11)."""

    ADVANTAGE = "advantage"
    DISADVANTAGE = "disadvantage"


class ActOutcome(StrEnum):
    """How an action ended: against a DC (R7), against Evasion (R7), or refused by the gate (R2)."""

    SUCCESS = "success"
    FAILURE = "failure"
    DAMAGE = "damage"
    NO_DAMAGE = "no-damage"
    REFUSED = "refused"
