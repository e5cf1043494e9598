"""``d4cli serve``: bind the socket, build the web app (`d4cli.web`), run uvicorn until Ctrl-C.

One event loop serves every client; `d4cli.web.broadcast.Broadcaster` follows the file. The
GM's terminal gets the banner, the warning for a host other than loopback, and the reason
whenever the file cannot be read (the players only learn the table is not ready).
Connections that send nothing for `IDLE_SECONDS` are closed, before their first request too,
and so is one whose request body is not whole `BODY_SECONDS` after its head.
With every address served (``--lan``), the join URLs name this machine's address on its default
route's interface (`d4cli.web.addresses`), or ``--public-url``.
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import json
import logging
import resource
import socket
import sys
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from urllib.parse import urlsplit

import h11
import uvicorn
from starlette.routing import BaseRoute
from uvicorn.protocols.http.h11_impl import H11Protocol

from d4cli.api import InputError
from d4cli.api.encounter import side_problems
from d4cli.api.live_odds import players_odds
from d4cli.api.tracker import Tracker
from d4cli.web.addresses import LOOPBACK_NAMES, Machine, join_address, machine_names, this_machine
from d4cli.web.asgi_app import Settings, make_app
from d4cli.web.broadcast import Broadcaster
from d4cli.web.guard import with_security
from d4cli.web.notices import Notices, follow_side_files

IDLE_SECONDS = 5
# A seat's body is a few hundred bytes: sent with its head, whole within this many seconds.
BODY_SECONDS = 5
# The largest request head (line and headers) h11 buffers; past it, 400 and the connection closes.
MAX_HEAD_BYTES = 8192


class IdleClosing(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, where a request's head must be whole within `IDLE_SECONDS`
    of the connection's start (or of the answer before): uvicorn arms its idle timeout only
    after an answer and stops it at any byte, so a silent or trickling client would stay.
    And its body within `BODY_SECONDS` of the head, or the connection closes: uvicorn waits for
    a body for ever, so bodies trickled a byte at a time would hold the connections."""

    body_seconds: float = BODY_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.body_cycle: object = None
        self.head_deadline = self.loop.time() + self.timeout_keep_alive
        self.timeout_keep_alive_task = self.loop.call_at(
            self.head_deadline, self.timeout_keep_alive_handler
        )

    def on_response_complete(self) -> None:
        if self.conn.their_state is h11.SEND_BODY:
            # Answered before its body came whole (a refusal): the rest is never read, and a
            # connection kept for it would be held by whoever trickles it.
            self.transport.close()
            return
        super().on_response_complete()
        self.head_deadline = self.loop.time() + self.timeout_keep_alive

    def send_400_response(self, msg: str) -> None:
        """A request h11 cannot parse (no Host, a bad line, a head over `MAX_HEAD_BYTES`): 400
        as JSON with the security headers, as every other refusal, then the connection closes
        (uvicorn's own says it in plain text, without them)."""
        text = f"not a valid HTTP/1.1 request (a Host, a request line, headers within {MAX_HEAD_BYTES} bytes)"
        body = json.dumps({"error": text}).encode()
        headers = with_security(
            [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ]
        )
        for event in (h11.Response(status_code=400, headers=headers), h11.Data(data=body)):
            self.transport.write(self.conn.send(event))
        self.transport.write(self.conn.send(h11.EndOfMessage()))
        self.transport.close()

    def handle_events(self) -> None:
        super().handle_events()
        cycle = self.cycle
        if self.conn.their_state is h11.SEND_BODY and cycle is not self.body_cycle:
            self.body_cycle = cycle
            self.loop.call_later(self.body_seconds, self.body_late, cycle)

    def body_late(self, cycle: object) -> None:
        """Close the connection when *cycle*'s body is still coming (the app's read of it
        ends as a disconnect, which `d4cli.web.guard.Guard` answers quietly)."""
        if self.cycle is cycle and self.conn.their_state is h11.SEND_BODY:
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        waiting = self.conn.their_state is h11.IDLE and not self.transport.is_closing()
        if waiting and self.timeout_keep_alive_task is None:
            self.timeout_keep_alive_task = self.loop.call_at(
                self.head_deadline, self.timeout_keep_alive_handler
            )


class Quiet(logging.Filter):
    """Keeps off the GM's terminal what uvicorn says of a client the server dropped (a stream
    ended because its client stopped reading) and of connections still open at Ctrl-C."""

    EXPECTED = ("ASGI callable returned without completing response", "Cancel ")

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(self.EXPECTED)


def warn(text: str) -> None:
    """One warning line on the GM's terminal (stderr)."""
    sys.stderr.write(f"d4cli: warning: {text}\n")
    sys.stderr.flush()


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on *host*:*port* (port 0: a free one).

    Raises:
        InputError: the port is in use, or the host cannot be bound (naming ``--port`` or ``--host``).
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise InputError("--host", host, f"cannot be bound: {reason}") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise InputError(
                "--port", port, "is in use: give another --port (or stop what listens there)"
            ) from None
        if error.errno == errno.EACCES:
            raise InputError("--port", port, "needs privileges: give a port from 1024 up") from None
        raise InputError("--host", host, f"cannot be bound: {error.strerror or error}") from None
    sock.set_inheritable(True)
    return sock


def served_hosts(
    host: str,
    bound: str,
    allowed: Iterable[str],
    machine: Machine | None = None,
    public: str | None = None,
) -> frozenset[str]:
    """The names a request's ``Host`` may give: *host* as typed, the bound address, the loopback
    names when bound to loopback; when bound to every address, every address of this machine
    and its names (`d4cli.web.addresses.machine_names` of *machine*, read now when None); the
    host of the *public* origin (``--public-url``) and the *allowed* names (``--allow-host``)."""
    address = ipaddress.ip_address(bound)
    # 0.0.0.0 is no name to serve: pages of other sites reach loopback through it.
    names = set(allowed) if address.is_unspecified else {host, bound, *allowed}
    if address.is_loopback:
        names.update(LOOPBACK_NAMES)
    if address.is_unspecified:
        names.update(machine_names(machine or this_machine()))
    if public is not None:
        names.add(urlsplit(public).hostname or "")
    return frozenset(name.lower().strip("[]") for name in names if name)


def join_origin(bound: str, port: int, machine: Machine | None = None) -> str:
    """The origin join URLs name (``http://HOST:PORT``): the bound address, or when every
    address is bound, this machine's address a phone can open (`join_address`; loopback when
    it has none)."""
    address = ipaddress.ip_address(bound)
    shown = bound
    if address.is_unspecified:
        shown = join_address(machine or this_machine()) or str(
            ipaddress.ip_address("::1" if address.version == 6 else "127.0.0.1")
        )
    return f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"


def connection_limit(max_streams: int) -> int:
    """How many connections uvicorn holds before it answers 503 itself, in plain text.

    uvicorn counts every open connection, those that have not sent their head yet too, so a
    burst of streams must find room enough for the app's own refusal past *max_streams*
    (JSON, ``Retry-After``, the security headers): twice the cap and a thousand more, within
    the process's descriptor limit.
    """
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    room = 2 * max_streams + 1000
    if soft != resource.RLIM_INFINITY:
        room = min(room, soft - 64)
    return max(room, max_streams + 100)


def serve(
    tracker: Tracker,
    host: str,
    port: int,
    allowed: Iterable[str] = (),
    max_streams: int = 500,
    routes: Sequence[BaseRoute] | Callable[[Broadcaster], Sequence[BaseRoute]] = (),
    banner: Callable[[str], None] | None = None,
    public: str | None = None,
) -> int:
    """Serve the player view of the encounter of *tracker* until Ctrl-C (exit 130); *routes*
    (or what *routes* makes of the broadcaster, for routes that stream) are served beside the
    read routes (behind the same guard). *banner* is called with the origin join URLs name
    (*public*, the ``--public-url`` origin, else `join_origin`) once the socket is bound,
    before the first request. Requests naming *public* as their ``Host`` and ``Origin`` are
    served as the bound address is.

    Raises:
        InputError: the port or host cannot be bound.
        FileError: the file cannot be read at the start (later, the page says it is not ready).
    """
    broadcaster = Broadcaster(
        tracker.view, tracker.stamp, warn, max_streams, odds=partial(players_odds, tracker.reader)
    )
    sock = bind(host, port)
    bound, bound_port = str(sock.getsockname()[0]), int(sock.getsockname()[1])
    machine = this_machine() if ipaddress.ip_address(bound).is_unspecified else None
    hosts = served_hosts(host, bound, allowed, machine, public)
    extra = routes(broadcaster) if callable(routes) else routes
    origins = frozenset(() if public is None else (public,))
    notices = Notices(warn)
    side_files = partial(follow_side_files, partial(side_problems, tracker.path), notices)
    app = make_app(broadcaster, Settings(hosts, max_streams, origins=origins), extra, [side_files])
    config = uvicorn.Config(
        app,
        http=IdleClosing,
        ws="none",  # no WebSocket route: an Upgrade is an ordinary request, through the guard
        lifespan="on",
        log_config=None,
        log_level="error",
        access_log=False,
        server_header=False,
        timeout_keep_alive=IDLE_SECONDS,
        timeout_graceful_shutdown=1,
        h11_max_incomplete_event_size=MAX_HEAD_BYTES,
        limit_concurrency=connection_limit(max_streams),
    )
    local = join_origin(bound, bound_port, machine)
    if not ipaddress.ip_address(bound).is_loopback:
        warn(
            f"--host {host}: anyone on that network can read the player view "
            f"(it answers to {', '.join(sorted(hosts))}; --allow-host NAME adds a name)"
        )
    sys.stderr.write(
        f"d4cli: serving the player view of {tracker.path} at {local}/ (Ctrl-C stops)\n"
    )
    sys.stderr.flush()
    if banner is not None:
        banner(public or local)
    logging.getLogger("uvicorn.error").addFilter(Quiet())
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        return 130
    finally:
        sock.close()
    return 130
