"""Changes that would change nothing: reported, exit 0, and nothing written or logged.

A command such as ``exhaust Aria +0``, ``heal`` at ``max_hp``, ``move`` to where
the creature already is or ``effect add`` of the very effect it has leaves the
encounter as it was. Journaling it would leave an ``undo`` step that does
nothing, so `or_unchanged` stops such a transition inside the store's
transaction (which then writes nothing: the file stays byte for byte) and the
command prints what it found with ``changed: false``. Rolls (``act``, ``team``,
``check``) are logged on purpose and never pass through here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from d4cli.fight.encounter import Encounter

R = TypeVar("R")

NOTHING_CHANGED = "nothing changed: nothing written or logged"


def unchanged_line(line: str, note: str | None) -> str:
    """The human line of a change that changed nothing: *line* (what the command found, from
    its ``changed: false`` object) and `NOTHING_CHANGED`, saying that a ``--note`` was not kept."""
    return f"{line}; {NOTHING_CHANGED}" + ("; the --note was not kept" if note is not None else "")


class Unchanged(Exception):
    """Raised by `or_unchanged`: the transition's *record*, which changed nothing."""

    def __init__(self, record: Any) -> None:
        super().__init__(NOTHING_CHANGED)
        self.record = record


def or_unchanged(
    transition: Callable[[Encounter], tuple[Encounter, R]],
) -> Callable[[Encounter], tuple[Encounter, R]]:
    """*transition*, raising `Unchanged` when its new encounter equals the old one."""

    def run(encounter: Encounter) -> tuple[Encounter, R]:
        new, record = transition(encounter)
        if new == encounter and getattr(record, "allowed", True):
            raise Unchanged(record)
        return new, record

    return run
