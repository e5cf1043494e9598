"""The store's one transaction as the tests drive it: a pure transition through `d4cli.api.encounter.Tracker`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from d4cli.api.tracker import Tracker
from d4cli.store.transaction import Clock, local_now


def change(
    path: Path,
    transition: Callable[[Any], tuple[Any, Any]],
    *,
    timeout: float | None = None,
    clock: Clock = local_now,
) -> tuple[Any, Any]:
    """Apply *transition* under the lock and journal it, even when it changes nothing;
    ``(encounter after, record)``, the old encounter when the record is refused."""
    done = Tracker(path, lock_timeout=timeout, clock=clock).change(transition, always_logged=True)
    return done.encounter, done.record
