"""``d4cli board``: the encounter on a full screen that redraws itself when the file changes.

The loop polls the stat of the encounter file and its journal a few times a
second (`POLL_SECONDS`; a change is drawn well within half a second and an idle
board costs next to nothing) and redraws through Rich Live on the alternate
screen (`d4cli.output.render.board_frame`). On a terminal it reads single keys: ``q``
quits (exit 0); Ctrl-C quits too (exit 130), and so do Ctrl-\\, a hang-up and a
kill (exit 128 + the signal's number); every way the terminal is left as it was.
With ``--players`` it draws the projection only (`d4cli.fight.players_view`);
``--once`` prints one frame and exits (in a pipe: plain text, 80 columns unless
``COLUMNS`` says otherwise).

Under the title, the odds line: each side's chance to win from the state as it is and how
the last change moved it (`d4cli.api.live_odds`), on the players' board only with
``[player_view] odds_shown``. The live board computes it in a worker thread
(`d4cli.cli.odds_worker`) and shows "…" until it is in; ``--once`` computes it first.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import termios
import time
import tty
from typing import Any

from d4cli.api import D4Error
from d4cli.api.encounter import read_head
from d4cli.api.front_ends import public_view
from d4cli.api.live_odds import SideOdds
from d4cli.api.seat_requests import SeatDesk
from d4cli.api.tracker import Tracker
from d4cli.cli.odds_worker import OddsWorker, odds_now
from d4cli.output.render import console
from d4cli.output.render.board_frame import frame_text, gm_frame, live_screen, odds_markup
from d4cli.output.render.entry_lines import summary
from d4cli.output.render.players_board import players_frame
from d4cli.output.render.seat_tables import building_line, pending_line
from d4cli.output.serialize.seats_json import draft_json

POLL_SECONDS = 0.2
LOG_LINES = 8


class Board:
    """What the board draws: the last good encounter (the GM's, or the one the players' view is
    the projection of: `d4cli.api.encounter.Reader.shown`) and the players' view with its roll feed, and a
    problem when the file is unreadable now."""

    def __init__(self, tracker: Tracker, players: bool, upto: int | None = None) -> None:
        self.tracker = tracker
        self.players = players
        self.upto = upto  # ``--at SEQ``: the log lines end at entry SEQ
        self.encounter: Any = None
        self.view: Any = None  # the players' PublicView (None on the GM's board)
        self.problem: str | None = None
        self.worker: OddsWorker | None = None  # the live board's; else `odds` is set once
        self.odds: tuple[SideOdds, ...] | None = None

    def read(self) -> None:
        """Read the file again; keep the last good encounter when it cannot be read.

        Raises:
            FileError: the file cannot be read and there is no good encounter yet.
        """
        try:
            if self.players:
                self.view, self.encounter = self.tracker.shown()
            else:
                self.encounter = self.tracker.status()
            self.problem = None
            if self.worker is not None and self.odds_shown():
                self.worker.ask(self.encounter)
        except D4Error as error:
            if self.encounter is None:
                raise
            self.problem = str(error)

    def odds_shown(self) -> bool:
        """The GM's board always has the odds line; the players' only with ``odds_shown``."""
        view = self.encounter.player_view
        return not self.players or (view is not None and view.odds_shown)

    def odds_line(self) -> str | None:
        if not self.odds_shown():
            return None
        if self.worker is None:
            return odds_markup(self.odds, False)
        line, computing = self.worker.line, self.worker.computing
        # "…" alone only before the first answer: a fight that cannot be simulated shows no line.
        return odds_markup(line, computing and (line is not None or self.worker.version == 0))

    def frame(self, height: int, width: int) -> Any:
        odds = self.odds_line()
        if self.players:
            unreadable = self.problem is not None
            return players_frame(self.view, height, width, unreadable=unreadable, odds=odds)
        return gm_frame(
            self.encounter,
            self._log_lines(),
            height,
            problem=self.problem,
            width=width,
            odds=odds,
        )

    def _log_lines(self) -> list[str]:
        try:
            last = None if self.upto is not None else LOG_LINES
            entries = self.tracker.history(last).entries
        except D4Error:
            return []
        if self.upto is not None:
            upto = self.upto
            entries = [
                entry
                for entry in entries
                if (seq := read_head(entry).seq) is not None and seq <= upto
            ][-LOG_LINES:]
        lines = [f"[dim]#{read_head(entry).seq}[/] {summary(entry)}" for entry in entries]
        if self.upto is not None:
            return lines
        waiting = pending_line(self._pending())
        return [*lines, *([] if waiting is None else [waiting]), *self._building()]

    def _pending(self) -> int:
        """How many seats' requests wait for the GM (0 when the requests file cannot be read)."""
        try:
            return len(SeatDesk(self.tracker).pending())
        except D4Error:
            return 0

    def _building(self) -> list[str]:
        """A line for each action a seat is building now (none when the file cannot be read)."""
        try:
            drafts = SeatDesk(self.tracker).building()
        except D4Error:
            return []
        return [building_line(draft_json(draft)) for draft in drafts]


def print_once(tracker: Tracker, players: bool, at: tuple[int, Any] | None = None) -> None:
    """One frame on stdout: as Rich draws it on a terminal, else as plain text (``COLUMNS`` or 80 wide).

    *at*: ``(seq, encounter)``, the encounter as it stood after journal entry seq (``--at``).
    """
    board = Board(tracker, players, None if at is None else at[0])
    if at is None:
        board.read()
    else:  # as it stood then: the projection of that state, without a feed
        board.encounter = at[1]
        board.view = public_view(at[1])
    if board.odds_shown():
        board.odds = odds_now(board.encounter, players)
    if sys.stdout.isatty():
        out = console()
        out.print(board.frame(out.size.height, out.size.width))
        return

    width = os.environ.get("COLUMNS", "")
    columns = int(width) if width.isdigit() and 20 <= int(width) <= 1000 else 80
    lines = os.environ.get("LINES", "")
    height = int(lines) if lines.isdigit() and int(lines) >= 5 else 24
    sys.stdout.write(frame_text(board.frame(height, columns), columns))


def run_live(tracker: Tracker, players: bool) -> int:
    """The live board until ``q`` (exit 0) or Ctrl-C (exit 130).

    Raises:
        FileError: the file cannot be read at the start.
    """

    board = Board(tracker, players)
    board.worker = OddsWorker(players)
    board.read()
    keys = _Keys()
    stamp = tracker.stamp()
    # Ctrl-\ (SIGQUIT), a hang-up or a kill would end the process where it stands, the terminal
    # left on the alternate screen without echo: each ends the loop instead, and the screen
    # and the keys are given back on the way out.
    previous = {number: signal.signal(number, _stop) for number in STOP_SIGNALS}
    drawn = board.worker.version
    try:
        with keys, live_screen() as live:
            size = live.console.size
            live.update(board.frame(size.height, size.width), refresh=True)
            while True:
                if keys.fd is not None:
                    ready, _, _ = select.select([keys.fd], [], [], POLL_SECONDS)
                    if ready and keys.read() in ("q", "Q"):
                        return 0
                else:
                    time.sleep(POLL_SECONDS)
                now = tracker.stamp()
                if now != stamp or live.console.size != size:
                    stamp, size = now, live.console.size
                    board.read()
                    live.update(board.frame(size.height, size.width), refresh=True)
                elif board.worker.version != drawn:  # the odds came in
                    drawn = board.worker.version
                    live.update(board.frame(size.height, size.width), refresh=True)
    except KeyboardInterrupt:
        return 130
    except _Stopped as stopped:
        return 128 + stopped.number  # as a shell reports a process ended by that signal
    finally:
        board.worker.stop()
        for number, handler in previous.items():
            signal.signal(number, handler)


# The signals that end a live board as Ctrl-C does (those this system has).
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGQUIT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class _Stopped(Exception):
    """A signal of `STOP_SIGNALS` arrived."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def _stop(number: int, frame: object) -> None:
    raise _Stopped(number)


class _Keys:
    """Single keys from a terminal's stdin (cbreak mode: no echo, no line buffering; Ctrl-C still a signal)."""

    def __init__(self) -> None:
        self.fd: int | None = None
        self._saved: Any = None

    def __enter__(self) -> _Keys:
        try:
            if not sys.stdin.isatty():
                return self

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
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
