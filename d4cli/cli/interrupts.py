"""What Ctrl-C during a run says: whether the change it was making was saved.

The store writes a change wholly or not at all; after an interrupt this says which, so that
running the command again cannot apply a change twice. Light on purpose: the root group
imports it on every run, before any command is loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from d4cli.api import D4Error

if TYPE_CHECKING:
    from d4cli.api.tracker import Tracker

NOTHING_SAVED = "interrupted: nothing was saved"
_NOT_DONE = {"undo": "interrupted: nothing was undone", "redo": "interrupted: nothing was redone"}

# The tracker this run opened last, with the stamp of its files then.
_opened: list[tuple[Tracker, Any]] = []
# The command this run runs (``undo``), once the command line names it.
_running: list[str] = []


def running(command: str) -> None:
    """This run runs *command*: an ``undo`` or ``redo`` interrupted before it moved anything
    says that nothing was undone (redone), not that nothing was saved."""
    _running[:] = [command]


def command_running() -> str | None:
    """The command this run runs (`running`), None before the command line names it."""
    return _running[0] if _running else None


def opened(tracker: Tracker) -> None:
    """*tracker* is the one this run works on: its files' stamp is taken now (none for a path
    that names no file, such as ``.``: the command refuses it)."""
    try:
        stamp = tracker.stamp()
    except ValueError:
        _opened.clear()
        return
    _opened[:] = [(tracker, stamp)]


def forget_opened() -> None:
    """A new run begins (``d4cli play`` runs many in one process): no tracker opened yet."""
    _opened.clear()
    _running.clear()


def interrupted() -> str:
    """What Ctrl-C during this run left, in words: ``interrupted: the change was saved as #N``,
    ``interrupted: nothing was saved`` (``nothing was undone`` for an ``undo``, also when
    interrupted before it opened the encounter), or (the files moved otherwise, as by
    ``undo``, or cannot be read now) where to look."""
    nothing = _NOT_DONE.get(_running[0], NOTHING_SAVED) if _running else NOTHING_SAVED
    if not _opened:
        return nothing
    tracker, stamp = _opened[-1]
    try:
        if tracker.door.began_change:  # a change: saved whole or not at all
            seq = tracker.saved_seq()
            if seq is None:
                return NOTHING_SAVED
            return f"interrupted: the change was saved as #{seq}"
        back = tracker.went_back()
        if back is not None:
            return _went_back(*back)
        if tracker.stamp() == stamp:
            return nothing
    except D4Error:
        pass
    return "interrupted: the encounter's files changed; 'd4cli log' shows what stands"


def _went_back(kind: str, before: int | None, now: int | None) -> str:
    """An interrupted undo or redo, in words, from the newest standing seq before and now."""
    if now == before:
        return _NOT_DONE[kind]
    if kind == "undo":
        return f"interrupted: the undo was done: #{before} is undone"
    return f"interrupted: the redo was done: #{now} stands again"
