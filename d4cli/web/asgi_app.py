"""The ASGI app of ``d4cli serve``: the read routes, the stream cap, JSON errors, the guard.

Routes (GET and HEAD; any other method is 405 with ``Allow``, any other path 404, and no part
of a request reaches the file system):

- ``/``: the page (`d4cli.output.page`), ``/assets/page.css`` and ``/assets/page.js``;
- ``/view.json``: the projection's JSON plus ``readable`` and ``seq``;
- ``/events``: Server-Sent Events, the current event at once and one per change, a ping
  comment every `PING_SECONDS`; past `Settings.max_streams` open streams, 503.

Every body comes from the one `Broadcaster` snapshot, made from the `PublicView` alone.
`make_app` takes further routes (the write routes use `d4cli.web.writes`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from typing import Any, NamedTuple

from sse_starlette import EventSourceResponse
from sse_starlette.sse import SendTimeoutError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from d4cli.output.page import ASSETS, asset
from d4cli.web.broadcast import DROPPED, Broadcaster, StreamsFull
from d4cli.web.guard import MAX_BODY, BodyTooLarge, Guard

PING_SECONDS = 15
# A stream whose client takes longer than this to take one message is ended.
SEND_TIMEOUT_SECONDS = 10.0
MAX_STREAMS = 500
ASSET_TYPES = {"page.css": "text/css; charset=utf-8", "page.js": "text/javascript; charset=utf-8"}


class Settings(NamedTuple):
    """How the app is served: the host names it answers to, the stream cap, the body limit,
    the origins a write may come from besides the request's own (``--public-url``: behind a TLS
    proxy the page's origin is ``https://`` while the proxy asks over ``http://``)."""

    hosts: frozenset[str]
    max_streams: int = MAX_STREAMS
    max_body: int = MAX_BODY
    origins: frozenset[str] = frozenset()


class Stream(EventSourceResponse):
    """One client's event stream, taken off the broadcaster however it ends."""

    def __init__(self, broadcaster: Broadcaster, queue: asyncio.Queue[bytes]) -> None:
        self.broadcaster, self.queue = broadcaster, queue
        super().__init__(
            self.events(), ping=PING_SECONDS, sep="\n", send_timeout=SEND_TIMEOUT_SECONDS
        )

    async def events(self) -> AsyncIterator[bytes]:
        while (message := await self.queue.get()) != DROPPED:
            yield message

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        except SendTimeoutError:
            pass  # a client that stopped reading: its stream ends, the connection closes
        finally:
            self.broadcaster.unsubscribe(self.queue)


def read_routes(broadcaster: Broadcaster) -> list[BaseRoute]:
    """The players' routes, all read from *broadcaster*."""

    async def page(request: Request) -> Response:
        return Response(broadcaster.current.page, media_type="text/html; charset=utf-8")

    async def view_json(request: Request) -> Response:
        return Response(broadcaster.current.json, media_type="application/json")

    async def events(request: Request) -> Response:
        try:
            queue = broadcaster.subscribe()
        except StreamsFull:
            raise HTTPException(
                503,
                f"{broadcaster.max_streams} streams are open, the most this server takes: try again later",
                {"Retry-After": "5"},
            ) from None
        return Stream(broadcaster, queue)

    async def assets(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            raise HTTPException(404, "not found")
        return Response(asset(name), media_type=ASSET_TYPES[name])

    async def no_icon(request: Request) -> Response:
        # Browsers ask for it on every page; an empty answer keeps their consoles clean.
        return Response(status_code=204)

    return [
        Route("/", page, methods=["GET"]),
        Route("/favicon.ico", no_icon, methods=["GET"]),
        Route("/index.html", page, methods=["GET"]),
        Route("/view.json", view_json, methods=["GET"]),
        Route("/events", events, methods=["GET"]),
        Route("/assets/{name}", assets, methods=["GET"]),
    ]


async def json_error(request: Request, error: Exception) -> Response:
    """Every HTTP error as ``{"error": TEXT}``, with its headers (``Allow``, ``Retry-After``)."""
    if isinstance(error, BodyTooLarge):
        return JSONResponse({"error": "the body is too large"}, 413)
    assert isinstance(error, HTTPException)
    text = error.detail if error.status_code != 404 else "not found"
    return JSONResponse({"error": text}, error.status_code, error.headers)


def make_app(
    broadcaster: Broadcaster,
    settings: Settings,
    routes: Sequence[BaseRoute] = (),
    tasks: Sequence[Callable[[], Coroutine[Any, Any, None]]] = (),
) -> ASGIApp:
    """The app: `read_routes` and *routes*, errors as JSON, inside `Guard`; while it runs (its
    lifespan) *broadcaster* follows the file and each of *tasks* runs (until cancelled)."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        running = [asyncio.create_task(task()) for task in (broadcaster.run, *tasks)]
        try:
            yield
        finally:
            for task in running:
                task.cancel()

    app = Starlette(
        routes=[*read_routes(broadcaster), *routes],
        exception_handlers={HTTPException: json_error, BodyTooLarge: json_error},
        lifespan=lifespan,
    )
    app.state.origins = settings.origins  # read by `d4cli.web.writes.check_origin`
    return Guard(app, settings.hosts, settings.max_body)
