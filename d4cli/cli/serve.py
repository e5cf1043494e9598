"""``d4cli serve``: the players' page over HTTP (standard library only), live by Server-Sent Events.

Read-only. Routes, GET only: ``/`` (the page, `d4cli.output.page`), ``/view.json``
(the projection, `d4cli.output.serialize.public_view`) and ``/events`` (an
event stream: one ``data:`` message with the view's JSON and its HTML fragment,
then one more per change); any other method is 405, any other path 404, and no
part of a request ever reaches the file system. Every body is made from the
`PublicView` alone (`d4cli.fight.public_view`), so nothing the GM hides is sent.

One `Watcher` thread polls the encounter file's and its journal's stat a few
times a second (no lock: a change replaces the file whole) and, when the view
changed, wakes the streams. A file that cannot be read keeps the last good view,
marked unreadable (the reason goes to the GM's stderr, never to the players,
since it may name a hidden creature). GM commands never wait for the server:
it never takes the lock. Each client has one thread (``daemon_threads``); a
stream ends when its client goes away or the server stops.
"""

from __future__ import annotations

import errno
import json
import select
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from d4cli.api import PublicView, public_view
from d4cli.api.tracker import Tracker
from d4cli.cli.odds_worker import OddsWorker
from d4cli.output.odds_line import odds_text
from d4cli.output.page import page_html, view_fragment
from d4cli.output.serialize import JsonObject
from d4cli.output.serialize.public_view import odds_json, public_view_json
from d4cli.rules.errors import D4Error, InputError
from d4cli.sim.side_odds import SideOdds

POLL_SECONDS = 0.2
KEEPALIVE_SECONDS = 15.0
# How often a quiet stream looks whether its client went away (so its thread ends).
CLIENT_CHECK_SECONDS = 1.0


class Response(NamedTuple):
    """One HTTP answer: status, content type, body, extra headers."""

    status: int
    content_type: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()


class Snapshot(NamedTuple):
    """What the server shows now: the last good view, whether the file is readable, a change
    counter, and with ``[player_view] odds_shown`` the odds line: ``(sides, computing)``."""

    view: PublicView
    readable: bool
    seq: int
    odds: tuple[tuple[SideOdds, ...] | None, bool] | None = None


def view_json(snapshot: Snapshot) -> JsonObject:
    """The projection's JSON plus ``odds`` (`d4cli.output.odds_line.odds_json`; null when not shown)."""
    return public_view_json(
        snapshot.view, None if snapshot.odds is None else odds_json(*snapshot.odds)
    )


def fragment(snapshot: Snapshot) -> str:
    """The page's fragment of *snapshot*, with its odds line when shown."""
    odds = None if snapshot.odds is None else odds_text(*snapshot.odds)
    return view_fragment(snapshot.view, unreadable=not snapshot.readable, odds=odds)


def view_body(snapshot: Snapshot) -> bytes:
    """The ``/view.json`` body: `view_json` plus ``readable`` and ``seq``."""

    obj = {**view_json(snapshot), "readable": snapshot.readable, "seq": snapshot.seq}
    return json.dumps(obj, ensure_ascii=False).encode("utf-8")


def event_message(snapshot: Snapshot) -> bytes:
    """One Server-Sent Events message: ``id`` and ``data`` (``{seq, readable, view, html}``)."""

    data = {
        "seq": snapshot.seq,
        "readable": snapshot.readable,
        "view": view_json(snapshot),
        "html": fragment(snapshot),
    }
    # json.dumps never writes a raw line break, so the message is one data line.
    return f"id: {snapshot.seq}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


def respond(method: str, target: str, snapshot: Snapshot) -> Response:
    """The answer to *method* *target* for every route but the stream's (pure; see the module).

    ``/events`` answers 200 here with its first message (the handler then keeps it open).
    """

    path = urlsplit(target).path
    if method != "GET":
        return Response(
            405,
            "text/plain; charset=utf-8",
            b"405 method not allowed: this page is read-only (GET)\n",
            (("Allow", "GET"),),
        )
    if path in ("/", "/index.html"):
        odds = None if snapshot.odds is None else odds_text(*snapshot.odds)
        body = page_html(snapshot.view, unreadable=not snapshot.readable, odds=odds).encode("utf-8")
        return Response(200, "text/html; charset=utf-8", body)
    if path == "/view.json":
        return Response(200, "application/json", view_body(snapshot))
    if path == "/events":
        return Response(200, "text/event-stream", event_message(snapshot))
    return Response(404, "text/plain; charset=utf-8", b"404 not found\n")


class Watcher:
    """Follows the encounter file: the newest good view, and a condition the streams wait on.

    With ``[player_view] odds_shown`` it asks its `OddsWorker` for the players' odds of each
    new state (computed from the encounter without its hidden creatures) and publishes the
    view at once, its odds "…", then again when they are in.
    """

    def __init__(self, tracker: Tracker, warn: Any) -> None:
        self.tracker = tracker
        self.path = tracker.path
        self.warn = warn
        self.changed = threading.Condition()
        self.stopping = threading.Event()
        self._stamp: object = tracker.stamp()
        self._problem: str | None = None
        self.odds = OddsWorker(players=True)
        self._odds_seen = self.odds.version
        # Unreadable at the start is bad input (the D4Error goes up); later it keeps the last good view.
        encounter = tracker.status()
        self._shown = self._ask(encounter)
        self.snapshot = Snapshot(public_view(encounter), True, 1, self._odds())

    def _ask(self, encounter: Any) -> bool:
        """Ask for the odds of *encounter* when its players are shown them; whether they are."""
        settings = encounter.player_view
        shown = settings is not None and bool(settings.odds_shown)
        if shown:
            self.odds.ask(encounter)
        return shown

    def _odds(self) -> tuple[tuple[SideOdds, ...] | None, bool] | None:
        return (self.odds.line, self.odds.computing) if self._shown else None

    def check(self) -> None:
        """Read the file again if its stat changed; publish a new snapshot when what is shown
        changed (the view, or its odds once they are in)."""
        stamp = self.tracker.stamp()
        old = self.snapshot
        view, readable = old.view, old.readable
        if stamp != self._stamp:
            self._stamp = stamp
            view, readable = self._read(old)
        elif not self._shown or self.odds.version == self._odds_seen:
            return
        self._odds_seen = self.odds.version
        odds = self._odds()
        if (view, readable, odds) != (old.view, old.readable, old.odds):
            with self.changed:
                self.snapshot = Snapshot(view, readable, old.seq + 1, odds)
                self.changed.notify_all()

    def _read(self, old: Snapshot) -> tuple[PublicView, bool]:
        try:
            encounter = self.tracker.status()
            self._problem = None
        except D4Error as error:
            if str(error) != self._problem:
                self._problem = str(error)
                self.warn(f"{error}; the page keeps the last good view")
            return old.view, False
        self._shown = self._ask(encounter)
        return public_view(encounter), True

    def run(self) -> None:
        while not self.stopping.wait(POLL_SECONDS):
            self.check()

    def stop(self) -> None:
        self.stopping.set()
        self.odds.stop()
        with self.changed:
            self.changed.notify_all()

    def wait_after(self, seq: int, timeout: float) -> Snapshot:
        """The snapshot once its counter passes *seq*, or the current one after *timeout* or on stop."""
        with self.changed:
            self.changed.wait_for(
                lambda: self.snapshot.seq != seq or self.stopping.is_set(), timeout
            )
            return self.snapshot


def stream_events(out: Any, connection: socket.socket, watcher: Watcher, seq: int) -> None:
    """Write each new snapshot after *seq* to an event stream, with keep-alives, until the
    server stops or the client goes."""
    quiet_since = time.monotonic()
    while not watcher.stopping.is_set():
        snapshot = watcher.wait_after(seq, CLIENT_CHECK_SECONDS)
        if watcher.stopping.is_set() or client_gone(connection):
            return
        if snapshot.seq != seq:
            seq = snapshot.seq
            out.write(event_message(snapshot))
        elif time.monotonic() - quiet_since >= KEEPALIVE_SECONDS:
            out.write(b": keep-alive\n\n")
        else:
            continue
        quiet_since = time.monotonic()
        out.flush()


def client_gone(connection: socket.socket) -> bool:
    """The client closed its end (a stream's client never sends more): its thread can end."""
    try:
        readable, _, _ = select.select([connection], [], [], 0)
        return bool(readable) and not connection.recv(1, socket.MSG_PEEK)
    except OSError:
        return True


def make_handler(watcher: Watcher) -> type[BaseHTTPRequestHandler]:
    """The request handler class bound to *watcher*."""

    class Handler(BaseHTTPRequestHandler):
        server_version = "d4cli"
        sys_version = ""
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
            pass  # the GM's terminal is not a web log

        def _send(self, answer: Response, *, stream: bool = False) -> None:
            self.send_response(answer.status)
            self.send_header("Content-Type", answer.content_type)
            self.send_header("Cache-Control", "no-cache")
            self.send_header("X-Content-Type-Options", "nosniff")
            for name, value in answer.headers:
                self.send_header(name, value)
            if stream:
                self.send_header("Connection", "close")
                self.close_connection = True
            else:
                self.send_header("Content-Length", str(len(answer.body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(answer.body)
                self.wfile.flush()

        def _answer(self) -> None:
            snapshot = watcher.snapshot
            answer = respond(self.command, self.path, snapshot)
            streaming = answer.status == 200 and answer.content_type == "text/event-stream"
            try:
                self._send(answer, stream=streaming)
                if streaming:
                    self._stream(snapshot.seq)
            except (BrokenPipeError, ConnectionResetError, TimeoutError):
                self.close_connection = True

        def _stream(self, seq: int) -> None:
            stream_events(self.wfile, self.connection, watcher, seq)

        def __getattr__(self, name: str) -> Any:
            # Every method (POST, PUT, DELETE, HEAD, ...) gets the same answer as GET's router: 405.
            if name.startswith("do_"):
                return self._answer
            raise AttributeError(name)

        do_GET = _answer

    return Handler


class PlayerViewServer(ThreadingHTTPServer):
    daemon_threads = True  # a client's thread never keeps the process alive
    allow_reuse_address = True
    block_on_close = False


def bind(host: str, port: int, watcher: Watcher) -> PlayerViewServer:
    """A server bound to *host*:*port* (port 0: a free one).

    Raises:
        InputError: the port is in use, or the host cannot be bound (naming ``--port`` or ``--host``).
    """

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise InputError(
            "--host", host, f"cannot be bound: {getattr(error, 'strerror', None) or error}"
        ) from None
    family = infos[0][0]
    PlayerViewServer.address_family = family
    try:
        return PlayerViewServer((host, port), make_handler(watcher))
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise InputError(
                "--port", port, "is in use: give another --port (or stop what listens there)"
            ) from None
        if error.errno == errno.EACCES:
            raise InputError("--port", port, "needs privileges: give a port from 1024 up") from None
        raise InputError("--host", host, f"cannot be bound: {error.strerror or error}") from None


def serve(tracker: Tracker, host: str, port: int) -> int:
    """Serve the player view of the encounter of *tracker* until Ctrl-C (exit 130).

    Raises:
        InputError: the port or host cannot be bound.
        FileError: the file cannot be read at the start (later, the last good view is kept).
    """

    def warn(text: str) -> None:
        sys.stderr.write(f"d4cli: warning: {text}\n")
        sys.stderr.flush()

    path = tracker.path
    watcher = Watcher(tracker, warn)
    server = bind(host, port, watcher)
    bound_host, bound_port = str(server.server_address[0]), int(server.server_address[1])
    shown = f"[{bound_host}]" if ":" in str(bound_host) else bound_host
    if host not in ("127.0.0.1", "localhost", "::1"):
        warn(f"--host {host}: anyone on that network can read the player view")
    sys.stderr.write(
        f"d4cli: serving the player view of {path} at http://{shown}:{bound_port}/ (Ctrl-C stops)\n"
    )
    sys.stderr.flush()
    poller = threading.Thread(target=watcher.run, name="d4cli-watch", daemon=True)
    poller.start()
    try:
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        return 130
    finally:
        watcher.stop()
        server.server_close()
    return 0
