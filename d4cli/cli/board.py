"""``d4cli board``: the encounter on a full screen that redraws itself when the file changes.

The loop polls the stat of the encounter file and its journal a few times a
second (`POLL_SECONDS`; a change is drawn well within half a second and an idle
board costs next to nothing) and redraws through Rich Live on the alternate
screen (`d4cli.output.render.board`). On a terminal it reads single keys: ``q``
quits (exit 0); Ctrl-C quits too (exit 130); either way the terminal is left as
it was. With ``--players`` it draws the projection only
(`d4cli.fight.public_view`); ``--once`` prints one frame and exits (in a pipe:
plain text, 80 columns unless ``COLUMNS`` says otherwise).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

POLL_SECONDS = 0.2
LOG_LINES = 8


def _stamp(path: Path) -> object:
    from d4cli.store.files import journal_path

    stamps: list[tuple[int, int, int] | None] = []
    for target in (path, journal_path(path)):
        try:
            info = os.stat(target)
        except OSError:
            stamps.append(None)
            continue
        stamps.append((info.st_mtime_ns, info.st_size, info.st_ino))
    return tuple(stamps)


class Board:
    """What the board draws: the last good encounter, and a problem when the file is unreadable now."""

    def __init__(self, path: Path, players: bool, upto: int | None = None) -> None:
        self.path = path
        self.players = players
        self.upto = upto  # ``--at SEQ``: the log lines end at entry SEQ
        self.encounter: Any = None
        self.problem: str | None = None

    def read(self) -> None:
        """Read the file again; keep the last good encounter when it cannot be read.

        Raises:
            FileError: the file cannot be read and there is no good encounter yet.
        """
        from d4cli.rules.errors import D4Error
        from d4cli.store import read_encounter

        try:
            self.encounter = read_encounter(self.path)
            self.problem = None
        except D4Error as error:
            if self.encounter is None:
                raise
            self.problem = str(error)

    def frame(self, height: int) -> Any:
        from d4cli.output.render.board import gm_frame, players_frame

        if self.players:
            from d4cli.fight.public_view import public_view

            return players_frame(public_view(self.encounter), unreadable=self.problem is not None)
        return gm_frame(self.encounter, self._log_lines(), height, problem=self.problem)

    def _log_lines(self) -> list[str]:
        from d4cli.output.render.encounter import summary
        from d4cli.rules.errors import D4Error
        from d4cli.store.history import read_history

        try:
            entries = read_history(self.path, None if self.upto is not None else LOG_LINES).entries
        except D4Error:
            return []
        if self.upto is not None:
            upto = self.upto
            entries = [
                entry
                for entry in entries
                if isinstance(entry.get("seq"), int) and entry["seq"] <= upto
            ][-LOG_LINES:]
        return [f"[dim]#{entry.get('seq')}[/] {summary(entry)}" for entry in entries]


def print_once(path: Path, players: bool, at: tuple[int, Any] | None = None) -> None:
    """One frame on stdout: as Rich draws it on a terminal, else as plain text (``COLUMNS`` or 80 wide).

    *at*: ``(seq, encounter)``, the encounter as it stood after journal entry seq (``--at``).
    """
    board = Board(path, players, None if at is None else at[0])
    if at is None:
        board.read()
    else:
        board.encounter = at[1]
    if sys.stdout.isatty():
        from d4cli.output.render import console

        out = console()
        out.print(board.frame(out.size.height))
        return
    from d4cli.output.render.board import frame_text

    width = os.environ.get("COLUMNS", "")
    columns = int(width) if width.isdigit() and 20 <= int(width) <= 1000 else 80
    lines = os.environ.get("LINES", "")
    height = int(lines) if lines.isdigit() and int(lines) >= 5 else 24
    sys.stdout.write(frame_text(board.frame(height), columns))


def run_live(path: Path, players: bool) -> int:
    """The live board until ``q`` (exit 0) or Ctrl-C (exit 130).

    Raises:
        FileError: the file cannot be read at the start.
    """
    import select

    from d4cli.output.render.board import live_screen

    board = Board(path, players)
    board.read()
    keys = _Keys()
    stamp = _stamp(path)
    try:
        with keys, live_screen() as live:
            size = live.console.size
            live.update(board.frame(size.height), refresh=True)
            while True:
                if keys.fd is not None:
                    ready, _, _ = select.select([keys.fd], [], [], POLL_SECONDS)
                    if ready and keys.read() in ("q", "Q"):
                        return 0
                else:
                    import time

                    time.sleep(POLL_SECONDS)
                now = _stamp(path)
                if now != stamp or live.console.size != size:
                    stamp, size = now, live.console.size
                    board.read()
                    live.update(board.frame(size.height), refresh=True)
    except KeyboardInterrupt:
        return 130


class _Keys:
    """Single keys from a terminal's stdin (cbreak mode: no echo, no line buffering; Ctrl-C still a signal)."""

    def __init__(self) -> None:
        self.fd: int | None = None
        self._saved: Any = None

    def __enter__(self) -> _Keys:
        try:
            if not sys.stdin.isatty():
                return self
            import termios
            import tty

            fd = sys.stdin.fileno()
            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)
            self.fd = fd
        except (OSError, ValueError, ImportError):
            self.fd = None
        return self

    def read(self) -> str:
        assert self.fd is not None
        try:
            return os.read(self.fd, 32).decode("utf-8", "replace")[:1]
        except OSError:
            return ""

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None and self._saved is not None:
            import termios

            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
