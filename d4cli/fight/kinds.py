"""Every kind of journal entry, in one place: the records take their ``kind`` from here.

A record's ``kind`` (`d4cli.fight.events`, `d4cli.fight.actions`, `d4cli.fight.sheet_check`,
`d4cli.fight.sheets`) names its entry in the journal and in ``log --json``;
``log --kind`` accepts exactly `LOG_KINDS` (plus any other kind an old journal
holds). Plain strings and no imports: ``log`` reads this without loading the
record classes.
"""

from __future__ import annotations

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
)
