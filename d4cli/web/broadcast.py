"""One reader of the encounter for every stream: a change is read and rendered once, and the same
bytes are queued for each client.

Each stream has a bounded queue (`QUEUE_SIZE` messages); a client whose queue is full (it does
not read) is dropped: its queue is emptied and ends with `DROPPED`, so a slow client never
holds more than a few shared messages. `Broadcaster.run` polls the file's stamp on the event
loop (`POLL_SECONDS`) and reads the file in a worker thread only when the stamp moved: no
thread per client, and never the lock, so GM commands never wait for the server.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import NamedTuple

from anyio import to_thread

from d4cli.api import D4Error, PublicView
from d4cli.output.page import page_html, view_fragment
from d4cli.output.serialize.public_view import not_ready_json, public_view_json

POLL_SECONDS = 0.2
QUEUE_SIZE = 8
# What a dropped client's queue ends with.
DROPPED = b""


class Snapshot(NamedTuple):
    """What the server shows now, each body rendered once: the view (None: the file cannot be
    read, the table is not ready), a change counter, the page, ``/view.json`` and one event."""

    view: PublicView | None
    seq: int
    page: bytes
    json: bytes
    event: bytes


def snapshot(view: PublicView | None, seq: int) -> Snapshot:
    """The bodies of *view* at counter *seq*: no view gives ``readable: false`` and no names."""
    shown = not_ready_json() if view is None else public_view_json(view)
    obj = {**shown, "readable": view is not None, "seq": seq}
    data = {
        "seq": seq,
        "readable": view is not None,
        "view": None if view is None else shown,
        "html": view_fragment(view),
    }
    # json.dumps never writes a raw line break, so the event is one data line.
    event = f"id: {seq}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"
    return Snapshot(
        view,
        seq,
        page_html(view).encode(),
        json.dumps(obj, ensure_ascii=False).encode(),
        event.encode(),
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

    Raises:
        D4Error: the file cannot be read at the start (bad input for ``serve``).
    """

    def __init__(
        self,
        read: Callable[[], PublicView],
        stamp: Callable[[], object],
        warn: Callable[[str], None],
        max_streams: int,
    ) -> None:
        self.read, self.stamp, self.warn, self.max_streams = read, stamp, warn, max_streams
        self.queues: set[asyncio.Queue[bytes]] = set()
        self._stamp = stamp()
        self._problem: str | None = None
        self.current = snapshot(read(), 1)

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

    def publish(self, view: PublicView | None) -> None:
        """Render *view* once and queue its event for every stream; drop the streams that are full."""
        self.current = snapshot(view, self.current.seq + 1)
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
        if view != self.current.view:
            self.publish(view)

    async def run(self) -> None:
        """Follow the file until cancelled."""
        while True:
            await asyncio.sleep(POLL_SECONDS)
            await self.check()
