"""One reader of the encounter for every stream: a change is read and rendered once, and the same
bytes are queued for each client.

Each stream has a bounded queue (`QUEUE_SIZE` messages); a client whose queue is full (it does
not read) is dropped: its queue is emptied and ends with `DROPPED`, so a slow client never
holds more than a few shared messages. `Broadcaster.run` polls the file's stamp on the event
loop (`POLL_SECONDS`) and reads the file in a worker thread only when the stamp moved: no
thread per client, and never the lock, so GM commands never wait for the server.

With ``[player_view] odds_shown`` the page shows the players' odds (`d4cli.api.live_odds`):
a change is published at once, its odds line marked computing, and once more when the odds,
computed in a worker thread one state at a time (a newer change skips an older state), are in.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import NamedTuple

from anyio import to_thread

from d4cli.api import D4Error
from d4cli.api.encounter import PublicView
from d4cli.api.live_odds import Odds, SideOdds, moved
from d4cli.output.odds_line import odds_text
from d4cli.output.page import page_html, view_fragment
from d4cli.output.serialize.public_view_json import not_ready_json, odds_json, public_view_json

POLL_SECONDS = 0.2
QUEUE_SIZE = 8
# What a dropped client's queue ends with.
DROPPED = b""
# The odds line as shown: each side's odds (None: none to show yet), and whether newer are computing.
OddsLine = tuple[tuple[SideOdds, ...] | None, bool]


class Snapshot(NamedTuple):
    """What the server shows now, each body rendered once: the view (None: the file cannot be
    read, the table is not ready), a change counter, the page, ``/view.json`` and one event,
    and the odds line (None: not shown)."""

    view: PublicView | None
    seq: int
    page: bytes
    json: bytes
    event: bytes
    odds: OddsLine | None = None


def snapshot(view: PublicView | None, seq: int, odds: OddsLine | None = None) -> Snapshot:
    """The bodies of *view* at counter *seq* with its *odds* line: no view gives ``readable:
    false`` and no names (nor odds)."""
    if view is None:
        odds = None
    line = None if odds is None else odds_text(*odds)
    shown = (
        not_ready_json()
        if view is None
        else public_view_json(view, None if odds is None else odds_json(*odds))
    )
    obj = {**shown, "readable": view is not None, "seq": seq}
    data = {
        "seq": seq,
        "readable": view is not None,
        "view": None if view is None else shown,
        "html": view_fragment(view, line),
    }
    # json.dumps never writes a raw line break, so the event is one data line.
    event = f"id: {seq}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"
    return Snapshot(
        view,
        seq,
        page_html(view, line).encode(),
        json.dumps(obj, ensure_ascii=False).encode(),
        event.encode(),
        odds,
    )


class StreamsFull(Exception):
    """As many streams are open as the server allows (the route answers 503)."""


class Broadcaster:
    """The newest snapshot of the encounter, and the queues of the open streams.

    Args:
        read: returns the players' view (`Tracker.view`); raises `D4Error` when the file is invalid.
        stamp: a cheap value that changes with the file (`Tracker.stamp`).
        warn: writes one line on the GM's terminal (the reason a file cannot be read).
        max_streams: how many streams may be open at once.
        odds: returns whether the players are shown the odds and, if so, theirs
            (`d4cli.api.live_odds.players_odds`); None: the page never shows odds.

    Raises:
        D4Error: the file cannot be read at the start (bad input for ``serve``).
    """

    def __init__(
        self,
        read: Callable[[], PublicView],
        stamp: Callable[[], object],
        warn: Callable[[str], None],
        max_streams: int,
        odds: Callable[[], tuple[bool, Odds | None]] | None = None,
    ) -> None:
        self.read, self.stamp, self.warn, self.max_streams = read, stamp, warn, max_streams
        self.queues: set[asyncio.Queue[bytes]] = set()
        self._stamp = stamp()
        self._problem: str | None = None
        self.current = snapshot(read(), 1)
        self.odds_of = odds
        self._odds: Odds | None = None  # the last odds computed, for the moves
        self._asked = 0  # the states whose odds were asked for; only the newest is computed
        self._computing = asyncio.Lock()
        self.odds_tasks: set[asyncio.Task[None]] = set()  # the odds being computed

    def subscribe(self) -> asyncio.Queue[bytes]:
        """A new stream's queue, holding the current event.

        Raises:
            StreamsFull: `max_streams` streams are open.
        """
        if len(self.queues) >= self.max_streams:
            raise StreamsFull(self.max_streams)
        queue: asyncio.Queue[bytes] = asyncio.Queue(QUEUE_SIZE)
        queue.put_nowait(self.current.event)
        self.queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[bytes]) -> None:
        """Forget a stream's queue (its stream ended); its place under `max_streams` is free."""
        self.queues.discard(queue)

    def publish(self, view: PublicView | None, odds: OddsLine | None = None) -> None:
        """Render *view* (and its *odds* line) once and queue its event for every stream; drop the
        streams that are full."""
        self.current = snapshot(view, self.current.seq + 1, odds)
        for queue in list(self.queues):
            try:
                queue.put_nowait(self.current.event)
            except asyncio.QueueFull:
                self.drop(queue)

    def drop(self, queue: asyncio.Queue[bytes]) -> None:
        """End a stream that does not read: empty its queue, then `DROPPED`."""
        self.queues.discard(queue)
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait(DROPPED)

    def _read(self) -> PublicView | None:
        try:
            view = self.read()
        except D4Error as error:
            if str(error) != self._problem:
                self._problem = str(error)
                self.warn(f"{error}; the players' page says the table is not ready")
            return None
        self._problem = None
        return view

    async def check(self) -> None:
        """Read the file again (in a worker thread) if its stamp moved; publish when the view changed."""
        stamp = self.stamp()
        if stamp == self._stamp:
            return
        self._stamp = stamp
        view = await to_thread.run_sync(self._read)
        odds = self.current.odds
        if odds is not None and odds[0] is not None:  # the last odds, marked computing
            odds = (odds[0], True)
        if view != self.current.view or odds != self.current.odds:
            self.publish(view, odds)
        self.ask_odds()

    def ask_odds(self) -> None:
        """Compute the players' odds of the file as it is now, in a task held in `odds_tasks`
        until done (a newer ask wins)."""
        if self.odds_of is None:
            return
        self._asked += 1
        task = asyncio.create_task(self.compute_odds(self._asked))
        self.odds_tasks.add(task)  # the loop keeps only weak references to tasks
        task.add_done_callback(self.odds_tasks.discard)

    async def compute_odds(self, asked: int) -> None:
        """The odds of ask *asked*, in a worker thread, one at a time; published when still the newest."""
        assert self.odds_of is not None
        async with self._computing:
            if asked != self._asked:
                return  # a newer state waits: this one's odds would be stale
            try:
                shown, odds = await to_thread.run_sync(self.odds_of)
            except D4Error:
                return  # unreadable: `check` says so, the page keeps its last odds
        if asked != self._asked:
            return
        line: OddsLine | None = None
        if shown:
            line = (moved(self._odds, odds), False)
        self._odds = odds if shown else None
        if line != self.current.odds:
            self.publish(self.current.view, line)

    async def run(self) -> None:
        """Follow the file until cancelled (the first odds are asked for at once)."""
        self.ask_odds()
        while True:
            await asyncio.sleep(POLL_SECONDS)
            await self.check()
