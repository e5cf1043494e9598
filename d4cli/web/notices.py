"""What ``d4cli serve`` tells the GM's terminal of trouble the players' pages cannot name: a side
file of the seats that cannot be read (`follow_side_files`), a write the disk refused. Each line
is said once, and again only when it changes or comes back after it cleared (`Notices`), so a
page that retries does not fill the terminal.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from anyio import to_thread

from d4cli.api import D4Error

# How often the side files are read for `follow_side_files` (each a few hundred bytes).
SIDE_SECONDS = 2.0


class Notices:
    """Lines for the GM, by topic, each said once while it holds.

    Args:
        warn: writes one line on the GM's terminal.
    """

    def __init__(self, warn: Callable[[str], None]) -> None:
        self.warn = warn
        self.said: dict[str, frozenset[str]] = {}

    def hold(self, topic: str, lines: Sequence[str]) -> None:
        """*lines* are what *topic* has to say now: say those not said since the topic was last
        clear (none: the topic is clear)."""
        before = self.said.get(topic, frozenset())
        for line in lines:
            if line not in before:
                self.warn(line)
        self.said[topic] = frozenset(lines)

    def clear(self, topic: str) -> None:
        """*topic* has nothing to say now: its next line is said again."""
        self.said.pop(topic, None)


async def follow_side_files(
    problems: Callable[[], Sequence[D4Error]], notices: Notices, seconds: float = SIDE_SECONDS
) -> None:
    """Until cancelled, every *seconds*: read the side files' *problems* (in a worker thread)
    and tell the GM each new one, with what it stops."""
    while True:
        found = await to_thread.run_sync(problems)
        notices.hold("side files", [f"{problem}{_stops(problem)}" for problem in found])
        await asyncio.sleep(seconds)


def _stops(problem: D4Error) -> str:
    """What a bad side file stops, by its name."""
    path = str(getattr(problem, "path", ""))
    if path.endswith(".drafts"):
        return "; the board shows no actions being built until it is fixed (acts go on)"
    if path.endswith(".seats"):
        return "; no seat's page opens until it is fixed"
    return "; the seats' pages and requests wait until it is fixed"
