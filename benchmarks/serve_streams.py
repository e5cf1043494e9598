"""``d4cli serve`` with many open streams: how long a change takes to reach all of them, and the
server's memory (RSS) before the streams, with them open, after many changes, and after they close.

A real server (``d4cli serve --port 0``) on the skirmish; one asyncio client opens N event
streams (``GET /events``) and reads them all. Each change is the file replaced by the other of
two versions (as a hand edit lands); its time is from the write to the moment the last of the
N streams has the new message. The server polls the file every 0.2 s, so that much of the time
is the poll's.

    python benchmarks/serve_streams.py [--streams 500] [--changes 20] [--smoke]

``--smoke`` is ``--streams 5 --changes 2``: a check that it runs, whose figures mean nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

D4CLI = Path(sys.executable).parent / "d4cli"


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def start(folder: Path, max_streams: int) -> tuple[subprocess.Popen[bytes], int]:
    """``d4cli serve`` on a free port in *folder* (also used by seat_load.py); it and its port."""
    process = subprocess.Popen(
        [str(D4CLI), "serve", "--port", "0", "--max-streams", str(max_streams)],
        cwd=folder,
        stderr=subprocess.PIPE,
        env={**os.environ, "D4CLI_FILE": str(folder / "encounter.toml")},
    )
    assert process.stderr is not None
    banner = process.stderr.readline().decode()
    found = re.search(r":(\d+)/", banner)
    assert found, banner
    return process, int(found.group(1))


class Streams:
    """N open event streams and, per stream, the newest ``id`` seen."""

    def __init__(self, port: int, n: int) -> None:
        self.port, self.n = port, n
        self.seen = [0] * n
        self.tasks: list[asyncio.Task[None]] = []
        self.writers: list[asyncio.StreamWriter] = []

    async def open(self) -> None:
        for index in range(self.n):
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            writer.write(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % self.port)
            self.writers.append(writer)
            self.tasks.append(asyncio.create_task(self.read(index, reader)))
        while min(self.seen) < 1:
            await asyncio.sleep(0.01)

    async def read(self, index: int, reader: asyncio.StreamReader) -> None:
        while line := await reader.readline():
            if line.startswith(b"id: "):
                self.seen[index] = int(line[4:])

    async def wait_for(self, seq: int) -> None:
        while min(self.seen) < seq:
            await asyncio.sleep(0.001)

    async def close(self) -> None:
        for writer in self.writers:
            writer.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def measure(folder: Path, port: int, pid: int, n: int, changes: int) -> dict[str, float]:
    path = folder / "encounter.toml"
    versions = [path.read_bytes(), (folder / "other.toml").read_bytes()]
    figures: dict[str, float] = {"rss_idle_kib": rss_kib(pid)}
    streams = Streams(port, n)
    began = time.perf_counter()
    await streams.open()
    figures["open_s"] = time.perf_counter() - began
    figures["rss_open_kib"] = rss_kib(pid)
    times = []
    for change in range(changes):
        await asyncio.sleep(0.3)
        path.write_bytes(versions[(change + 1) % 2])
        written = time.perf_counter()
        await streams.wait_for(change + 2)
        times.append(time.perf_counter() - written)
    figures["change_median_s"] = statistics.median(times)
    figures["change_max_s"] = max(times)
    figures["rss_changes_kib"] = rss_kib(pid)
    await streams.close()
    await asyncio.sleep(1.0)
    figures["rss_closed_kib"] = rss_kib(pid)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument("--smoke", action="store_true", help="--streams 5 --changes 2")
    args = parser.parse_args(argv)
    if args.smoke:
        args.streams, args.changes = 5, 2
    folder = Path(tempfile.mkdtemp(prefix="d4cli-serve-"))
    try:
        env = {**os.environ, "D4CLI_FILE": str(folder / "encounter.toml")}
        run = {"cwd": folder, "env": env, "check": True, "capture_output": True}
        subprocess.run([str(D4CLI), "init", "--from", "skirmish"], **run)  # type: ignore[call-overload]
        subprocess.run([str(D4CLI), "turn", "start"], **run)  # type: ignore[call-overload]
        first = (folder / "encounter.toml").read_bytes()
        subprocess.run([str(D4CLI), "damage", "Borin", "3"], **run)  # type: ignore[call-overload]
        (folder / "other.toml").write_bytes((folder / "encounter.toml").read_bytes())
        (folder / "encounter.toml").write_bytes(first)
        process, port = start(folder, args.streams + 10)
        try:
            time.sleep(0.5)
            figures = asyncio.run(measure(folder, port, process.pid, args.streams, args.changes))
        finally:
            process.send_signal(signal.SIGINT)
            process.communicate(timeout=20)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"serve: {args.streams} open streams, {args.changes} changes")
    print(f"  open all streams (first message each): {figures['open_s']:.2f} s")
    print(
        f"  a change to every stream: median {figures['change_median_s'] * 1000:.0f} ms, "
        f"slowest {figures['change_max_s'] * 1000:.0f} ms (the poll is 200 ms)"
    )
    print(
        "  server RSS: idle {:.1f} MiB, {} streams {:.1f} MiB, after the changes {:.1f} MiB, "
        "streams closed {:.1f} MiB".format(
            figures["rss_idle_kib"] / 1024,
            args.streams,
            figures["rss_open_kib"] / 1024,
            figures["rss_changes_kib"] / 1024,
            figures["rss_closed_kib"] / 1024,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
