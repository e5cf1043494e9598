"""A progress bar on stderr for a long run (``simulate``, ``forecast``): shown only on a
terminal, and only once the run has gone on past a second, so a quick run prints nothing."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rich.progress import Progress as RichProgress

from d4cli.output.render import console

# Seconds a run goes on before its bar shows.
SHOW_AFTER = 1.0


class Progress:
    """Called with the runs played so far and the runs in all (`d4cli.api.simulation`'s
    ``progress``); draws a transient bar named *label* on *stream* (default: stderr's console).

    *clock* (seconds, monotonic) and *stream* (a Rich console) are injected by tests; the bar
    shows only when *stream* is a terminal and *clock* has passed `SHOW_AFTER` since it was made.
    """

    def __init__(
        self,
        label: str = "simulating",
        *,
        clock: Callable[[], float] = time.monotonic,
        stream: Any = None,
    ) -> None:
        self.label = label
        self.clock = clock
        self.stream = stream if stream is not None else console(stderr=True)
        self.started = clock()
        self.bar: Any = None
        self.task: Any = None
        self.tty = bool(self.stream.is_terminal)

    def __call__(self, done: int, total: int) -> None:
        if not self.tty:
            return
        if self.bar is None and self.clock() - self.started > SHOW_AFTER:
            self.bar = RichProgress(console=self.stream, transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total)
        if self.bar is not None:
            self.bar.update(self.task, completed=done)

    def close(self) -> None:
        """Take the bar off the screen, if it was shown."""
        if self.bar is not None:
            self.bar.stop()
