"""The closed sets of the encounter, in one place: the kinds of journal entry, the reset mode
(R12), the Team Action grant (R11) and the action outcome (R2, R7).

A record's ``kind`` (`d4cli.fight.events`, `d4cli.fight.actions`, `d4cli.fight.sheet_check`,
`d4cli.fight.sheets`, `d4cli.fight.visibility`) is one of the plain strings below: it names the
record's entry in the journal and in ``log --json``, and ``log --kind`` accepts exactly
`LOG_KINDS` (plus any other kind an old journal holds). The other sets are string enums: each
member is its string, and JSON and TOML write the value.
"""

from __future__ import annotations

from enum import StrEnum

# --- journal entry kinds -----------------------------------------------------------------------

INIT = "init"
ADD = "add"
REMOVE = "remove"
TURN_START = "turn-start"
TURN_END = "turn-end"
ACT = "act"
TEAM = "team"
EXHAUST = "exhaust"
DAMAGE = "damage"
HEAL = "heal"
MOVE = "move"
EFFECT = "effect"
CHECK = "check"
ACTION_ADD = "action-add"
ACTION_REMOVE = "action-remove"
NOTE = "note"
REVEAL = "reveal"
CONCEAL = "conceal"
ALIAS = "alias"
SET = "set"
NEXT = "next"

# In the order ``log --kind`` lists them (docs/cli.md "log").
LOG_KINDS: tuple[str, ...] = (
    INIT,
    ADD,
    REMOVE,
    TURN_START,
    TURN_END,
    ACT,
    TEAM,
    EXHAUST,
    DAMAGE,
    HEAL,
    MOVE,
    EFFECT,
    CHECK,
    ACTION_ADD,
    ACTION_REMOVE,
    NOTE,
    REVEAL,
    CONCEAL,
    ALIAS,
    SET,
    NEXT,
)


# --- string enums ------------------------------------------------------------------------------


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
