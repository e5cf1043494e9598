"""Tab completion of the seats' requests that wait for the GM: ``approve <Tab>``, ``deny <Tab>``.

The requests are read through `d4cli.api.seat_requests.SeatDesk` from the encounter file named on the line
(`d4cli.cli.completion.creatures.typed_file`), else ``D4CLI_FILE``, else ``./encounter.toml``;
no file, no seats or a damaged side file give no candidates.
"""

from __future__ import annotations

from typing import Any

from d4cli.api.encounter import Tracker
from d4cli.api.front_ends import SeatDesk
from d4cli.cli.completion.creatures import typed_file
from d4cli.cli.settings import resolve_path


def request_help(creature: str, act: dict[str, Any]) -> str:
    """What a request asks, in a few words: ``Aria: Finesse at Goblin Archer``."""
    target = act.get("target")
    return f"{creature}: {act.get('aspect')}" + ("" if target is None else f" at {target}")


def complete_request(ctx: Any, incomplete: str) -> list[tuple[str, str]]:
    """The numbers of the requests waiting for the GM that start with *incomplete*, oldest
    first, each with what it asks (`request_help`) as its help."""
    try:
        rows = SeatDesk(Tracker(resolve_path(typed_file(ctx)))).pending()
    except Exception:  # noqa: BLE001 - a completer never fails or prints
        return []
    return [
        (str(row.number), request_help(row.creature, dict(row.act)))
        for row in rows
        if str(row.number).startswith(incomplete)
    ]
