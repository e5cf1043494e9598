"""The outermost layer of the app: what every request passes and every answer carries.

- ``Host`` must name the served host (`Guard.hosts`), else 421: a page of another site whose
  name resolves to this address (DNS rebinding) gets nothing. A ``Host`` that is no host name
  and port at all (``localhost:abc``, ``[::1]junk``, ``::1`` without brackets) is 400.
- A request target in absolute form (``GET http://localhost:8765/view.json``, RFC 9112
  section 3.2.2) names its host there: that host is checked as ``Host`` would be, and the
  route is its path; a target that is neither a path nor ``http://`` absolute form is 400.
- Headers over `MAX_HEADERS` bytes in all are 431 (uvicorn's h11 refuses a head that arrives
  in pieces past its own limit with 400).
- A body over `Guard.max_body` bytes is 413: at once by its ``Content-Length``, else as soon
  as the bytes read pass the limit (a chunked body is never read in full).
- A seat (the ``TOKEN`` of ``/seat/TOKEN/...``) holds at most `Guard.per_seat` requests at
  once, its event streams included; past it 429: one seat's key cannot take the server's
  connections from the others (the TV's page and ``/view.json`` go on answering).
- A client gone before its body is whole (a phone off the Wi-Fi, or a body too slow, which
  ``serve`` cuts off) ends its request quietly: nothing to answer, nothing on the GM's terminal.
- Every answer, errors included, carries `SECURITY_HEADERS` (and ``Cache-Control: no-cache``,
  ``no-store`` for a seat's and for every error, unless it sets its own); none carries a
  CORS header.

Refusals are JSON ``{"error": TEXT}``.
"""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Callable, Iterable
from urllib.parse import unquote, urlsplit

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", b"default-src 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
# A seat's request is a few hundred bytes; anything past this is refused unread.
MAX_BODY = 4096
# The request's headers, names and values together (a browser's are well under 2 KiB).
MAX_HEADERS = 8192
# A seat's page holds one stream and sends a preview and an act at a time: two tabs and a
# retry are within this.
PER_SEAT = 6
SEAT_PREFIX = "/seat/"


# RFC 9110 section 7.2: a name (dot-separated labels, one final dot allowed) or a bracketed
# IPv6 literal, then an optional port of digits.
_HOST = re.compile(
    r"(?:\[(?P<literal>[0-9a-f:.]+)\]|(?P<name>(?:[a-z0-9_-]+\.)*[a-z0-9_-]+)\.?)(?::[0-9]{1,5})?"
)


# RFC 1123 section 2.1: a label of letters, digits and hyphens, not starting or ending with a
# hyphen; an underscore is let through too, as the Host header check and browsers let it.
_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")


def host_name(header: str) -> str | None:
    """The name of a ``Host`` header, without its port, lower case (``[::1]:80`` -> ``::1``,
    ``Localhost.:8765`` -> ``localhost``); "" for an empty header, None for one that is no
    host and port."""
    header = header.strip().lower()
    if not header:
        return ""
    found = _HOST.fullmatch(header)
    if found is None:
        return None
    return found["literal"] or found["name"]


def allowable_name(text: str) -> str | None:
    """*text* as a name ``serve --allow-host`` may add (lower case, no brackets), or None: a
    host name of labels of letters, digits and inner hyphens (1-63 each, 253 in all, one
    final dot allowed) or an IP address (IPv6 with or without brackets), with no port."""
    name = text.strip().lower()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        pass
    labels = name.removesuffix(".").split(".")
    if len(name) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        return None
    return name.removesuffix(".")


class BodyTooLarge(Exception):
    """The request's body passed the limit while it was read."""


def refusal(status: int, text: str) -> tuple[Message, Message]:
    """The two ASGI messages of a JSON refusal (the headers are added on the way out)."""
    body = json.dumps({"error": text}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    return (
        {"type": "http.response.start", "status": status, "headers": headers},
        {"type": "http.response.body", "body": body},
    )


class Guard:
    """ASGI middleware around the whole app (see the module).

    Args:
        app: the app it guards.
        hosts: the host names a request may name (lower case, no port).
        max_body: the largest body, in bytes.
        per_seat: the most requests one seat's token holds at once.
    """

    def __init__(
        self,
        app: ASGIApp,
        hosts: Iterable[str],
        max_body: int = MAX_BODY,
        per_seat: int = PER_SEAT,
    ) -> None:
        self.app = app
        self.hosts = frozenset(host.lower() for host in hosts)
        self.max_body = max_body
        self.per_seat = per_seat
        self.held: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_guarded(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = message.get("headers", [])
                # A seat's answers are its player's alone; an error is no page to keep either,
                # and a forged token's 404 must read exactly as an unknown path's.
                private = seat is not None or message["status"] >= 400
                message = {**message, "headers": with_security(headers, private=private)}
            await send(message)

        scope, problem = self.absolute(scope)
        problem = problem or self.refuse(scope["headers"])
        seat = seat_key(scope["path"])
        if problem is None and seat is not None and self.held.get(seat, 0) >= self.per_seat:
            problem = (
                429,
                f"this seat has {self.per_seat} requests open, the most one seat may hold",
            )
        if problem is not None:
            for message in refusal(*problem):
                await send_guarded(message)
            return
        if seat is not None:
            self.held[seat] = self.held.get(seat, 0) + 1
        try:
            await self.limited(scope, receive, send_guarded, lambda: started)
        except ClientDisconnect:
            pass  # the client is gone: no one to answer
        finally:
            if seat is not None:
                self.release(seat)

    def release(self, seat: str) -> None:
        """One request of *seat* ended."""
        left = self.held[seat] - 1
        if left:
            self.held[seat] = left
        else:
            del self.held[seat]

    async def limited(
        self, scope: Scope, receive: Receive, send: Send, started: Callable[[], bool]
    ) -> None:
        """Run the app on a body read up to `max_body` (413 past it, unless the answer began)."""
        seen = 0

        async def receive_limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_body:
                raise BodyTooLarge(seen)
            return message

        try:
            await self.app(scope, receive_limited, send)
        except BodyTooLarge:
            if started():
                raise
            for message in refusal(413, f"the body is over {self.max_body} bytes"):
                await send(message)

    def absolute(self, scope: Scope) -> tuple[Scope, tuple[int, str] | None]:
        """*scope* with an absolute-form target made a path and its host made the ``Host``
        header; or why it is refused (400: no path and no ``http://`` URL)."""
        raw = scope.get("raw_path") or scope["path"].encode("latin-1")
        if raw.startswith(b"/"):
            return scope, None
        target = urlsplit(raw.decode("latin-1"))
        if target.scheme.lower() != "http" or not target.netloc or "@" in target.netloc:
            return scope, (400, "the request target must be a path or an http:// URL without user")
        path = target.path or "/"
        headers = [(k, v) for k, v in scope["headers"] if k != b"host"]
        headers.append((b"host", target.netloc.encode("latin-1")))
        return {
            **scope,
            "path": unquote(path),
            "raw_path": path.encode("latin-1"),
            "headers": headers,
        }, None

    def refuse(self, raw: list[tuple[bytes, bytes]]) -> tuple[int, str] | None:
        """Why a request with the headers *raw* is refused (status, reason), or None."""
        if sum(len(name) + len(value) for name, value in raw) > MAX_HEADERS:
            return 431, f"the headers are over {MAX_HEADERS} bytes"
        headers = dict(raw)
        host = headers.get(b"host", b"").decode("latin-1")
        name = host_name(host)
        if name is None:
            return 400, f"Host {host[:100]!r} is not a host name and port"
        if name not in self.hosts:
            return 421, "this server does not serve that host name"
        length = headers.get(b"content-length", b"0").decode("latin-1")
        if not length.isdigit():
            return 400, "Content-Length is not a whole number"
        if int(length) > self.max_body:
            return 413, f"the body is over {self.max_body} bytes"
        return None


def seat_key(path: str) -> str | None:
    """The seat token a request's *path* names (``/seat/TOKEN`` and below), or None."""
    if not path.startswith(SEAT_PREFIX):
        return None
    return path[len(SEAT_PREFIX) :].split("/", 1)[0] or None


def with_security(
    headers: Iterable[tuple[bytes, bytes]], *, private: bool = False
) -> list[tuple[bytes, bytes]]:
    """*headers* with `SECURITY_HEADERS` (replacing any of the same name) and a cache rule:
    ``no-store`` for a *private* answer (a seat's, or an error), else ``no-cache``, where the
    answer set none of its own."""
    names = {name for name, _ in SECURITY_HEADERS}
    kept = [(name, value) for name, value in headers if name.lower() not in names]
    if not any(name.lower() == b"cache-control" for name, _ in kept):
        kept.append((b"cache-control", b"no-store" if private else b"no-cache"))
    return [*kept, *SECURITY_HEADERS]
