"""What the GM hides from the players: hidden creatures, aliases, HP displays (schema 3).

Pure, like every transition of the fight model. The file's ``[player_view]``
table is `d4cli.fight.view_settings.PlayerView`. The three changes `reveal`, `conceal` and
`set_alias` each return ``(new_encounter, record)``; the record (`RevealEvent`,
`ConcealEvent`, `AliasEvent`) is journaled like any other change, so ``undo``
and ``redo`` take it back and put it again byte-for-byte.

What the players then see is computed by `d4cli.fight.players_view`.
"""

from __future__ import annotations

from typing import NamedTuple, TypeVar

from d4cli.fight.closed_sets import ALIAS, CONCEAL, REVEAL
from d4cli.fight.encounter_state import Encounter, alias_clash
from d4cli.rules.errors import InputError
from d4cli.rules.names import check_text
from d4cli.rules.records import notebook


@notebook
class RevealEvent(NamedTuple):
    """A hidden creature is on the player view again."""

    @property
    def allowed(self) -> bool:
        return True

    @property
    def kind(self) -> str:
        return REVEAL

    round: int
    turn: str | None
    actor: str
    hidden_before: bool
    hidden_after: bool
    alias_before: str | None
    alias_after: str | None


@notebook
class ConcealEvent(NamedTuple):
    """A creature left the player view (the GM still sees it; the rules are the same)."""

    @property
    def allowed(self) -> bool:
        return True

    @property
    def kind(self) -> str:
        return CONCEAL

    round: int
    turn: str | None
    actor: str
    hidden_before: bool
    hidden_after: bool
    alias_before: str | None
    alias_after: str | None


@notebook
class AliasEvent(NamedTuple):
    """The name the players see changed (``alias_after`` None: its own name again)."""

    @property
    def allowed(self) -> bool:
        return True

    @property
    def kind(self) -> str:
        return ALIAS

    round: int
    turn: str | None
    actor: str
    hidden_before: bool
    hidden_after: bool
    alias_before: str | None
    alias_after: str | None


ViewEvent = RevealEvent | ConcealEvent | AliasEvent


_Change = TypeVar("_Change", RevealEvent, ConcealEvent, AliasEvent)


def _change_view(
    cls: type[_Change],
    encounter: Encounter,
    position: int,
    *,
    hidden: bool | None = None,
    alias: str | None = None,
) -> tuple[Encounter, _Change]:
    """The encounter with the creature at *position* given *hidden* and *alias* (None: unchanged;
    alias ``""``: its own name), and the *cls* record of the change."""
    old = encounter.creatures[position]
    new = old._replace(
        hidden=old.hidden if hidden is None else hidden, alias=old.alias if alias is None else alias
    )
    event = cls(
        encounter.round,
        encounter.current,
        old.name,
        old.hidden,
        new.hidden,
        old.alias or None,
        new.alias or None,
    )
    return encounter.with_creature(position, new), event


def reveal(encounter: Encounter, name: str) -> tuple[Encounter, RevealEvent]:
    """Put the creature *name* (N1) on the player view; one not hidden stays as it is.

    Raises:
        InputError: no such creature.
    """
    return _change_view(RevealEvent, encounter, encounter.position_of(name), hidden=False)


def conceal(encounter: Encounter, name: str) -> tuple[Encounter, ConcealEvent]:
    """Take the creature *name* (N1) off the player view; its turns and rolls go on (R13).

    Raises:
        InputError: no such creature.
    """
    return _change_view(ConcealEvent, encounter, encounter.position_of(name), hidden=True)


def set_alias(encounter: Encounter, name: str, alias: str | None) -> tuple[Encounter, AliasEvent]:
    """Show the creature *name* to the players as *alias* (None: as its own name again).

    An alias is a name like any other (N1): it may not match another creature's
    name or alias, or the players could not tell the two apart.

    Raises:
        InputError: no such creature; a blank alias or one with control characters
            (naming ``TEXT``); an alias matching another creature's name or alias, or only looking
            like one (N1, TR39 skeletons).
    """
    position = encounter.position_of(name)
    if alias is not None:
        check_text(alias, "TEXT", name=True)
        clash = alias_clash(encounter.creatures, position, alias)
        if clash is not None:
            raise InputError("TEXT", alias, f"{clash} (N1): the players could not tell them apart")
    return _change_view(AliasEvent, encounter, position, alias="" if alias is None else alias)
