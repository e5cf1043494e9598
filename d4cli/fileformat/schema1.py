"""Schema 1 of the encounter file, read as it is (R19).

Schema 1 stored ``next_turn`` (whose turn a plain ``turn start`` began) and
knew nothing of ``had_turn``, ``last_turn``, ``round_reset`` or ``max_hp``.
`d4cli.fileformat.encounter_toml` reads such a file with these key lists, and
`upgrade_turns` turns its ``next_turn`` into R19's bookkeeping; the first change
writes the file in the current schema (``undo`` of that change restores the old bytes).
"""

from __future__ import annotations

from d4cli.fight.encounter_state import Encounter

OLD_TOP_KEYS = ("schema_version", "name", "mode", "round", "current", "next_turn", "creature")
OLD_CREATURE_KEYS = (
    "name",
    "aspects",
    "load_buffer",
    "exhaustion",
    "load",
    "evasion",
    "hp",
    "notes",
    "pending",
)


def upgrade_turns(encounter: Encounter, next_turn: str | None) -> Encounter:
    """A schema 1 encounter read as it is: its stored ``next_turn`` becomes R19's bookkeeping.

    Schema 1 played the round in file order: the creatures before ``next_turn``
    (and the current one) have had their turn, and the default order follows
    the creature before ``next_turn``; without ``next_turn`` the round is over.
    So the next ``turn start`` goes where schema 1 said it would.
    """
    if encounter.round == 0 or not encounter.creatures:
        return encounter
    count = len(encounter.creatures)
    done = count if next_turn is None else encounter.position_of(next_turn)
    creatures = tuple(
        creature._replace(had_turn=True)
        if position < done or creature.name == encounter.current
        else creature
        for position, creature in enumerate(encounter.creatures)
    )
    if next_turn is None:
        last = encounter.current or encounter.creatures[-1].name
    else:
        last = encounter.creatures[(done - 1) % count].name
    return encounter._replace(creatures=creatures, last_turn=last)
