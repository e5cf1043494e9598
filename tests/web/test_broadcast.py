"""The broadcaster: one render per change, a bounded queue per stream, a client that does not
read dropped, memory flat however many changes pass."""

from __future__ import annotations

import asyncio
import tracemalloc

import pytest
from _serve import hidden_skirmish
from _web import Served

from d4cli.web.broadcast import DROPPED, QUEUE_SIZE, StreamsFull


def test_a_client_that_does_not_read_is_dropped_and_holds_a_bounded_queue():
    hidden_skirmish()
    broadcaster = Served().broadcaster

    async def work():
        reader, idle = broadcaster.subscribe(), broadcaster.subscribe()
        got = []
        for _ in range(QUEUE_SIZE * 3):
            broadcaster.publish(broadcaster.current.view)
            got.append(reader.get_nowait())
            assert idle.qsize() <= QUEUE_SIZE
        return reader, idle, got

    reader, idle, got = asyncio.run(work())
    assert idle not in broadcaster.queues and reader in broadcaster.queues
    assert idle.qsize() == 1 and idle.get_nowait() == DROPPED
    assert len(set(got)) == len(got) and reader.get_nowait() == broadcaster.current.event


def test_the_cap_counts_open_queues():
    hidden_skirmish()
    broadcaster = Served(max_streams=2).broadcaster

    async def work():
        first, _ = broadcaster.subscribe(), broadcaster.subscribe()
        with pytest.raises(StreamsFull):
            broadcaster.subscribe()
        broadcaster.unsubscribe(first)
        return broadcaster.subscribe()

    assert asyncio.run(work()).get_nowait() == broadcaster.current.event


def test_memory_stays_flat_over_many_changes_with_streams_open():
    hidden_skirmish()
    broadcaster = Served().broadcaster

    async def work():
        queues = [broadcaster.subscribe() for _ in range(50)]

        def changes(n: int) -> None:
            for _ in range(n):
                broadcaster.publish(broadcaster.current.view)
                for queue in queues:
                    queue.get_nowait()

        changes(50)
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        changes(500)
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        return after - before

    grown = asyncio.run(work())
    assert grown < 64 * 1024  # one snapshot is about 6 KB: 500 changes keep none of the old ones
