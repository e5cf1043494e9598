"""``d4cli serve`` with seats under load: 300 open seat streams and 10 seats writing, against the
GM's own commands.

A real server (``d4cli serve --port 0``, ``seats = "auto"``) on an encounter of ten seated
heroes and an Ogre. It measures the GM's ``d4cli damage Ogre 1`` (a whole process, as the GM
types it) three times: with no client, while 300 seat streams (``GET /seat/TOKEN/events``,
30 per seat) are open and 10 seats each send an act (Cost 0, so the gate never refuses) every
``--interval`` seconds and read their ``view.json`` after it (as the page does), and once they
have all gone. It also samples the
server's memory (RSS) before, during and after, and checks that the server answers again
(the TV's ``/view.json`` and a seat's) once the load is gone.

    python benchmarks/seat_load.py [--streams 300] [--seats 10] [--damages 10] [--interval 2]
        [--smoke]

``--smoke`` is ``--streams 4 --seats 2 --damages 1 --interval 0.2``: a check that it runs,
whose figures mean nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from serve_streams import rss_kib, start

from d4cli.api.encounter import Tracker
from d4cli.api.seats import Seats

D4CLI = Path(sys.executable).parent / "d4cli"


def cpu_s(pid: int) -> float:
    """The CPU time (user and system) process *pid* has used, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def gm(folder: Path, *args: str) -> float:
    """One GM command in its own process; its wall time in seconds."""
    env = {**os.environ, "D4CLI_FILE": str(folder / "encounter.toml")}
    start = time.perf_counter()
    subprocess.run([str(D4CLI), *args], cwd=folder, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def setup(folder: Path, seats: int) -> list[str]:
    """The encounter and its seats; the seats' tokens."""
    gm(folder, "init")
    for n in range(seats):
        gm(folder, "add", f"Hero {n}", "--aspect", "Might=5", "--hp", "1000")
    gm(folder, "add", "Ogre", "--aspect", "Might=3", "--hp", "100000")
    path = folder / "encounter.toml"
    Tracker(path).set_view({"seats": "auto"})
    return [Seats(path).add(f"Hero {n}").token for n in range(seats)]


async def damages(folder: Path, count: int) -> list[float]:
    times = []
    for _ in range(count):
        times.append(await asyncio.to_thread(gm, folder, "damage", "Ogre", "1"))
        await asyncio.sleep(0.2)
    return times


async def stream(port: int, token: str, counts: list[int], index: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /seat/{token}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    try:
        while line := await reader.readline():
            if line.startswith(b"data: "):
                counts[index] += 1
    finally:
        writer.close()


async def seat_writes(
    port: int, token: str, stop: asyncio.Event, done: list[int], interval: float
) -> None:
    """One seat's acts until *stop*; ``done`` counts them, then the 429s and the 503s (the lock
    was held past its timeout), each sent again after its ``Retry-After``."""
    origin = f"http://127.0.0.1:{port}"
    headers = {"Origin": origin, "Content-Type": "application/json"}
    async with httpx.AsyncClient(base_url=origin, timeout=30) as client:
        while not stop.is_set():
            answer = await client.post(
                f"/seat/{token}/act",
                headers=headers,
                content=json.dumps({"aspect": "Might", "cost": 0}),
            )
            if answer.status_code == 200:
                done[0] += 1
                await client.get(f"/seat/{token}/view.json")
            elif answer.status_code in (429, 503):
                done[1 if answer.status_code == 429 else 2] += 1
                await asyncio.sleep(int(answer.headers["retry-after"]))
                continue
            else:
                raise RuntimeError(f"act: {answer.status_code} {answer.text}")
            await asyncio.sleep(interval)


async def measure(
    folder: Path,
    port: int,
    pid: int,
    tokens: list[str],
    streams: int,
    count: int,
    interval: float,
) -> dict[str, object]:
    figures: dict[str, object] = {"rss_idle_kib": rss_kib(pid)}
    figures["damage_idle"] = await damages(folder, count)
    counts = [0] * streams
    readers = [
        asyncio.create_task(stream(port, tokens[i % len(tokens)], counts, i))
        for i in range(streams)
    ]
    while min(counts) < 1:
        await asyncio.sleep(0.05)
    figures["rss_streams_kib"] = rss_kib(pid)
    stop, done = asyncio.Event(), [0, 0, 0]
    writers = [asyncio.create_task(seat_writes(port, t, stop, done, interval)) for t in tokens]
    began, cpu = time.perf_counter(), cpu_s(pid)
    await asyncio.sleep(1.0)
    figures["damage_load"] = await damages(folder, count)
    figures["rss_load_kib"] = rss_kib(pid)
    stop.set()
    await asyncio.gather(*writers)
    figures["acts"], figures["limited"], figures["busy"] = done
    figures["acts_s"] = time.perf_counter() - began
    figures["server_cpu"] = (cpu_s(pid) - cpu) / figures["acts_s"]
    figures["messages_min"] = min(counts)
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    await asyncio.sleep(1.5)
    figures["rss_after_kib"] = rss_kib(pid)
    figures["damage_after"] = await damages(folder, count)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
        tv = await client.get("/view.json")
        seat = await client.get(f"/seat/{tokens[0]}/view.json")
    figures["serves_after"] = tv.status_code == 200 and seat.status_code == 200
    return figures


def _ms(times: object) -> str:
    assert isinstance(times, list)
    return f"median {statistics.median(times) * 1000:.0f} ms, slowest {max(times) * 1000:.0f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=300)
    parser.add_argument("--seats", type=int, default=10)
    parser.add_argument("--damages", type=int, default=10)
    parser.add_argument(
        "--interval", type=float, default=2.0, help="seconds a seat waits between its acts"
    )
    parser.add_argument(
        "--smoke", action="store_true", help="--streams 4 --seats 2 --damages 1 --interval 0.2"
    )
    args = parser.parse_args(argv)
    if args.smoke:
        args.streams, args.seats, args.damages, args.interval = 4, 2, 1, 0.2
    folder = Path(tempfile.mkdtemp(prefix="d4cli-seats-"))
    try:
        tokens = setup(folder, args.seats)
        process, port = start(folder, args.streams + 50)
        try:
            time.sleep(0.5)
            figures = asyncio.run(
                measure(
                    folder, port, process.pid, tokens, args.streams, args.damages, args.interval
                )
            )
        finally:
            process.send_signal(signal.SIGINT)
            process.communicate(timeout=20)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    mib = {k: v / 1024 for k, v in figures.items() if k.startswith("rss") and isinstance(v, int)}
    print(
        f"serve with seats: {args.streams} seat streams, {args.seats} seats writing "
        f"(each an act every {args.interval:g} s and its view.json)"
    )
    print(f"  GM's damage, no client:          {_ms(figures['damage_idle'])}")
    print(f"  GM's damage, streams and writes: {_ms(figures['damage_load'])}")
    print(f"  GM's damage, once they are gone: {_ms(figures['damage_after'])}")
    print(
        f"  seats' acts carried out: {figures['acts']} in {figures['acts_s']:.1f} s; "
        f"{figures['limited']} past the rate (429), {figures['busy']} past the lock's timeout "
        f"(503); fewest messages on a stream: {figures['messages_min']}; "
        f"the server's CPU meanwhile: {figures['server_cpu']:.0%} of a core"
    )
    print(
        "  server RSS: idle {rss_idle_kib:.1f} MiB, streams open {rss_streams_kib:.1f} MiB, "
        "with the writes {rss_load_kib:.1f} MiB, after {rss_after_kib:.1f} MiB".format(**mib)
    )
    print(f"  serves again once they go: {'yes' if figures['serves_after'] else 'NO'}")
    return 0 if figures["serves_after"] else 1


if __name__ == "__main__":
    sys.exit(main())
