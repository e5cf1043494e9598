"""The web app of ``d4cli serve`` in this process: built on the test's encounter, talked to with
httpx over its ASGI interface, and its event stream read straight off the ASGI ``send``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import httpx
from starlette.routing import BaseRoute

from d4cli.api.encounter import Tracker
from d4cli.web.asgi_app import Settings, make_app
from d4cli.web.broadcast import Broadcaster

HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
SECURITY = {
    "content-security-policy": "default-src 'self'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


class Served:
    """The app, its broadcaster and the warnings it wrote for the GM."""

    def __init__(self, routes: Sequence[BaseRoute] = (), max_streams: int = 500) -> None:
        tracker = Tracker(Path("encounter.toml"))
        self.warnings: list[str] = []
        self.broadcaster = Broadcaster(
            tracker.view, tracker.stamp, self.warnings.append, max_streams
        )
        self.app = make_app(self.broadcaster, Settings(HOSTS, max_streams), routes)

    def client(self, host: str = "127.0.0.1") -> httpx.AsyncClient:
        return httpx.AsyncClient(
            transport=httpx.ASGITransport(app=self.app), base_url=f"http://{host}"
        )

    def run(
        self, work: Callable[[httpx.AsyncClient], Awaitable[Any]], host: str = "127.0.0.1"
    ) -> Any:
        async def go() -> Any:
            async with self.client(host) as client:
                return await work(client)

        return asyncio.run(go())


def events(data: bytes) -> list[dict]:
    """The ``data:`` messages of an event stream's bytes."""
    lines = (line.rstrip(b"\r") for line in data.split(b"\n"))
    return [json.loads(line[6:]) for line in lines if line.startswith(b"data: ")]


async def open_stream(
    app: Any, path: str = "/events", host: bytes = b"127.0.0.1"
) -> tuple[asyncio.Task, dict]:
    """Start a GET of *path* on *app*; the task and what it sent so far (``status``, ``headers``, ``body``)."""
    seen: dict[str, Any] = {"body": b"", "status": None, "headers": {}}
    gone = asyncio.Event()

    async def receive() -> dict:
        await gone.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            seen["status"] = message["status"]
            seen["headers"] = {k.decode(): v.decode() for k, v in message["headers"]}
        else:
            seen["body"] += message.get("body", b"")

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", host), (b"accept", b"text/event-stream")],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8765),
    }
    task = asyncio.create_task(app(scope, receive, send))
    seen["gone"] = gone
    for _ in range(50):
        await asyncio.sleep(0)
    return task, seen


async def close_stream(task: asyncio.Task, seen: dict) -> None:
    seen["gone"].set()
    try:
        await asyncio.wait_for(task, 5)
    except (asyncio.CancelledError, TimeoutError):
        task.cancel()
