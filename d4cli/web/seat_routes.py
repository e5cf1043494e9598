"""The seats' routes of ``d4cli serve``: a player's own page, its reads, its preview and its act.

- ``GET /seat/TOKEN``: the seat's page (`d4cli.output.seat_page`), assets under
  ``/seat-assets/``;
- ``GET /seat/TOKEN/view.json``: the table as ``/view.json`` has it, plus the seat's creature
  and requests (`d4cli.output.seat_page.seat_page_json`);
- ``GET /seat/TOKEN/events``: Server-Sent Events from the one broadcaster (each counts under
  the stream cap), plus a message whenever the seats or the requests change (`SeatWatch`);
  a revoked or reset token's stream ends;
- ``POST /seat/TOKEN/preview``: the pool, gate and exact odds of an action being built;
- ``POST /seat/TOKEN/act``: the action, queued for the GM (202) or carried out at once (200).

The body of ``/preview`` and ``/act`` is one object (`seat_action` makes a
`d4cli.api.front_ends.SeatAction` of it)::

    {"aspect": "Finesse", "cost": 1, "advantage": ["torch"], "disadvantage": [],
     "extra": ["1d4"], "target": "Goblin 2", "faces": null, "creature": "Aria"}

``aspect`` (an Aspect) or ``action`` (a named action), exactly one of them, is the one key it
must have (both reach ``act``'s one argument, which takes either); ``key`` the page's own key
for this request (exactly once: the same key again answers with the first request); ``cost`` a whole
number or null (1, or the named action's); ``advantage``, ``disadvantage`` and ``extra``
lists of text; ``target`` the name the players see, or null or "" for none; ``faces`` null
("roll") or the entered faces, whole numbers; ``creature`` the creature the page thinks it
acts for, or null. Any other key, or a value of another type, is refused naming the key.
The values themselves are checked by the library (`d4cli.api.front_ends.SeatDesk.submit`).

A token that finds no seat answers exactly as an unknown path does (404, the same body and
headers), looked up in constant time (`d4cli.api.front_ends.Seats.find`) before anything else is read.
A POST then passes `d4cli.web.writes.read_write` (Origin 403, JSON 415, a rate per seat 429,
bad JSON 400; the guard's Host 421 and body 413 came first). Bad input is 400
``{"error", "field"}``, nothing queued or written; a file that cannot be read is 503 with no
reason (the reason may name what the GM hides; the GM's terminal has it). File work runs in
worker threads: the event loop never waits for the lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from anyio import to_thread
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from d4cli.api import FileError, InputError
from d4cli.api.encounter import LockTimeout, Tracker, WriteFailed
from d4cli.api.seat_board import SeatBoard
from d4cli.api.seats import SEAT_ENDED, Seat, SeatAction, Seats
from d4cli.output.seat_page import (
    SEAT_ASSETS,
    preview_json,
    request_json,
    seat_asset,
    seat_page_html,
    seat_page_json,
)
from d4cli.web.asgi_app import Stream
from d4cli.web.broadcast import POLL_SECONDS, Broadcaster, StreamsFull
from d4cli.web.notices import Notices
from d4cli.web.writes import RateLimit, read_write

# What a seat's stream gets when its requests or the seats change: the page reads its view again.
SEAT_EVENT = b'event: seat\ndata: {"seat": true}\n\n'
# A preview follows typing (debounced by the page): more a second than a seat's acts.
PREVIEWS_PER_SECOND = 10
ASSET_TYPES = {"seat.css": "text/css; charset=utf-8", "seat.js": "text/javascript; charset=utf-8"}
PRIVATE = {"Cache-Control": "no-store"}  # a seat's answers are its player's alone
UNSAVED = (
    "the GM's computer could not save it (its disk may be full): nothing was done; the GM is told"
)


class SeatWatch:
    """One poll of the seats' and requests' files for every seat stream (no task per client).

    Args:
        stamp: a cheap value that moves with the two files (`SeatBoard.stamp`).
        valid: whether a token still finds a seat.
        drop: ends a stream (`Broadcaster.drop`).
    """

    def __init__(
        self,
        stamp: Callable[[], object],
        valid: Callable[[str], bool],
        drop: Callable[[asyncio.Queue[bytes]], None],
    ) -> None:
        self.stamp, self.valid, self.drop = stamp, valid, drop
        self.streams: dict[asyncio.Queue[bytes], str] = {}
        self.task: asyncio.Task[None] | None = None
        self._stamp = stamp()

    def add(self, queue: asyncio.Queue[bytes], token: str) -> None:
        """Follow the stream of *queue* for *token*; the poll runs while any stream is open."""
        self.streams[queue] = token
        if self.task is None:
            self._stamp = self.stamp()
            self.task = asyncio.get_running_loop().create_task(self.run())

    def remove(self, queue: asyncio.Queue[bytes]) -> None:
        """Forget a stream that ended; the last one stops the poll."""
        self.streams.pop(queue, None)
        if not self.streams and self.task is not None:
            self.task.cancel()
            self.task = None

    async def run(self) -> None:
        while True:
            await asyncio.sleep(POLL_SECONDS)
            await self.check()

    async def check(self) -> None:
        """When the files moved: end the streams of tokens that no longer find a seat, and
        send `SEAT_EVENT` to the others (a stream that does not read is dropped)."""
        stamp = self.stamp()
        if stamp == self._stamp:
            return
        self._stamp = stamp
        tokens = set(self.streams.values())
        valid = await to_thread.run_sync(lambda: {t for t in tokens if self.valid(t)})
        for queue, token in list(self.streams.items()):
            try:
                if token not in valid:
                    raise asyncio.QueueFull
                queue.put_nowait(SEAT_EVENT)
            except asyncio.QueueFull:
                self.streams.pop(queue, None)
                self.drop(queue)


class SeatStream(Stream):
    """A seat's event stream: the broadcaster's, followed by `SeatWatch` too."""

    def __init__(
        self, broadcaster: Broadcaster, queue: asyncio.Queue[bytes], watch: SeatWatch
    ) -> None:
        self.watch = watch
        super().__init__(broadcaster, queue)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.watch.remove(self.queue)


def _as_sent(error: InputError, body: Any) -> InputError:
    """*error* naming ``action`` where the body named its act so and the library says ``aspect``
    (both reach ``act``'s one argument, which takes an Aspect or a named action)."""
    if error.field == "aspect" and isinstance(body, dict) and "action" in body:
        return InputError("action", error.value, error.problem, mentions=error.mentions)
    return error


def _refused(error: InputError) -> JSONResponse:
    """Bad input as 400 ``{"error", "field"}``."""
    return JSONResponse({"error": str(error), "field": error.field}, 400, PRIVATE)


class SeatRoutes:
    """The seats' routes over the encounter of *tracker* (its dice, clock and lock timeout),
    their streams on *broadcaster*; *limit* is each seat's rate of acts (3 a second),
    *preview_limit* of previews (`PREVIEWS_PER_SECOND`)."""

    def __init__(
        self,
        tracker: Tracker,
        broadcaster: Broadcaster,
        limit: RateLimit | None = None,
        preview_limit: RateLimit | None = None,
    ) -> None:
        self.broadcaster = broadcaster
        self.seats = Seats(tracker.path, lock_timeout=tracker.door.lock_timeout)
        self.board = SeatBoard(tracker)
        self.acts = limit or RateLimit()
        self.previews = preview_limit or RateLimit(PREVIEWS_PER_SECOND)
        self.notices = Notices(broadcaster.warn)
        self.watch = SeatWatch(
            self.board.stamp, lambda token: self.seats.find(token) is not None, broadcaster.drop
        )

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/seat/{token}", self.page, methods=["GET"]),
            Route("/seat/{token}/view.json", self.view_json, methods=["GET"]),
            Route("/seat/{token}/events", self.events, methods=["GET"]),
            Route("/seat/{token}/preview", self.preview, methods=["POST"]),
            Route("/seat/{token}/act", self.act, methods=["POST"]),
            Route("/seat-assets/{name}", self.assets, methods=["GET"]),
        ]

    async def seat_of(self, request: Request) -> tuple[str, Seat]:
        """The token of *request* and its seat; 404 as for an unknown path when it finds none."""
        token = request.path_params["token"]
        try:
            seat = await to_thread.run_sync(self.seats.find, token)
        except FileError:
            seat = None  # a damaged seats file finds no seat; the GM's commands say why
        if seat is None:
            raise HTTPException(404, "not found")
        return token, seat

    async def page(self, request: Request) -> Response:
        await self.seat_of(request)
        return Response(seat_page_html(), media_type="text/html; charset=utf-8", headers=PRIVATE)

    async def view_json(self, request: Request) -> Response:
        token, _ = await self.seat_of(request)
        try:
            shown = await _run(lambda: seat_page_json(self.board.page(token)))
        except InputError as error:
            if error.problem == SEAT_ENDED:  # a real seat whose creature left this fight: 410
                body = {"error": error.problem, "field": "token"}
                return JSONResponse(body, status_code=410, headers=PRIVATE)
            raise HTTPException(404, "not found") from None  # revoked meanwhile
        return JSONResponse(shown, headers=PRIVATE)

    async def events(self, request: Request) -> Response:
        token, _ = await self.seat_of(request)
        try:
            queue = self.broadcaster.subscribe()
        except StreamsFull:
            raise HTTPException(
                503,
                f"{self.broadcaster.max_streams} streams are open, the most this server takes: try again later",
                {"Retry-After": "5"},
            ) from None
        self.watch.add(queue, token)
        return SeatStream(self.broadcaster, queue, self.watch)

    async def preview(self, request: Request) -> Response:
        token, seat = await self.seat_of(request)
        body = await read_write(request, self.previews, seat.creature)
        try:
            action = seat_action(body)
            previewed = await _run(lambda: self.board.preview(token, action))
        except InputError as error:
            if error.field == "token":
                raise HTTPException(404, "not found") from None  # revoked, or its creature gone
            return _refused(_as_sent(error, body))
        return JSONResponse(preview_json(previewed.plan, previewed.odds), headers=PRIVATE)

    async def act(self, request: Request) -> Response:
        """202 with the request queued for the GM, 200 with it carried out (its roll inside);
        a key sent before answers with its request as it stands, nothing queued again."""
        token, seat = await self.seat_of(request)
        body = await read_write(request, self.acts, seat.creature)
        try:
            action = seat_action(body)
            submitted = await _run(lambda: self.board.desk.submit(token, action), self.notices)
            shown = await _run(lambda: self.board.request(token, submitted.request.number))
        except InputError as error:
            if error.field == "token":
                raise HTTPException(404, "not found") from None  # revoked meanwhile
            return _refused(_as_sent(error, body))
        mode = "auto" if submitted.auto else "approve"
        answer = {"request": None if shown is None else request_json(shown), "mode": mode}
        code = 202 if submitted.request.status == "pending" else 200
        return JSONResponse(answer, code, headers=PRIVATE)

    async def assets(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in SEAT_ASSETS:
            raise HTTPException(404, "not found")
        return Response(seat_asset(name), media_type=ASSET_TYPES[name])


async def _run(call: Callable[[], Any], notices: Notices | None = None) -> Any:
    """*call* in a worker thread; a file that cannot be read or written, or a held lock, is 503.
    A write the disk refused is said on the GM's terminal through *notices* (once while it lasts)."""
    try:
        done = await to_thread.run_sync(call)
    except WriteFailed as error:
        if notices is not None:
            notices.hold("write", [f"{error}; the seats' requests are refused until it is fixed"])
        raise HTTPException(503, UNSAVED, {"Retry-After": "5"}) from None
    except LockTimeout:
        raise HTTPException(
            503, "the GM's command holds the table: try again", {"Retry-After": "1"}
        ) from None
    except FileError:
        raise HTTPException(503, "the table is not ready yet", {"Retry-After": "2"}) from None
    if notices is not None:
        notices.clear("write")
    return done


def seat_routes(
    tracker: Tracker,
    broadcaster: Broadcaster,
    limit: RateLimit | None = None,
    preview_limit: RateLimit | None = None,
) -> list[BaseRoute]:
    """The routes of `SeatRoutes` (see the module)."""
    return SeatRoutes(tracker, broadcaster, limit, preview_limit).routes()


# --- the JSON body of a preview or an act ------------------------------------------------

KEYS = (
    "aspect",
    "action",
    "cost",
    "advantage",
    "disadvantage",
    "extra",
    "target",
    "faces",
    "creature",
    "key",
)
# More than any hand builds; the body's size (4 KiB) bounds the rest.
MAX_ITEMS = 40
MAX_FACES = 500


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _texts(body: dict[str, Any], key: str) -> tuple[str, ...]:
    value = body.get(key, [])
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InputError(key, None, "must be a list of text")
    if len(value) > MAX_ITEMS:
        raise InputError(key, len(value), f"at most {MAX_ITEMS} items")
    return tuple(item for item in value if item.strip())


def _text(body: dict[str, Any], key: str) -> str | None:
    value = body.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        raise InputError(key, None, "must be text or null")
    return value


def seat_action(body: Any) -> SeatAction:
    """The `SeatAction` of a request's parsed JSON *body*.

    Raises:
        InputError: naming the key: not an object (``body``), an unknown key, ``aspect``
            missing or not text, a value of another type than the module lists.
    """
    if not isinstance(body, dict):
        raise InputError("body", None, "must be a JSON object")
    unknown = sorted(key for key in body if key not in KEYS)
    if unknown:
        raise InputError(unknown[0][:40], None, "is not a key of an action: " + ", ".join(KEYS))
    if "aspect" in body and "action" in body:
        raise InputError("action", None, "give an Aspect or a named action, not both")
    field = "action" if "action" in body else "aspect"
    aspect = body.get(field)
    if not isinstance(aspect, str) or not aspect.strip():
        raise InputError(field, None, "give an Aspect (aspect) or a named action (action)")
    cost = body.get("cost")
    if cost is not None and not _whole(cost):
        raise InputError("cost", None, "must be a whole number or null")
    faces = body.get("faces")
    if faces is not None:
        if not isinstance(faces, list) or not all(_whole(face) for face in faces):
            raise InputError("faces", None, "must be null (roll) or a list of whole numbers")
        if len(faces) > MAX_FACES:
            raise InputError("faces", len(faces), f"at most {MAX_FACES} faces")
    return SeatAction(
        aspect=aspect,
        cost=cost,
        advantage=_texts(body, "advantage"),
        disadvantage=_texts(body, "disadvantage"),
        extra=_texts(body, "extra"),
        target=_text(body, "target"),
        faces=None if faces is None else tuple(faces),
        creature=_text(body, "creature"),
        key=_key(body),
    )


def _key(body: dict[str, Any]) -> str | None:
    value = body.get("key")
    if value is not None and not isinstance(value, str):
        raise InputError("key", None, "must be text or null")
    return value
