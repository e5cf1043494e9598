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
- Every answer, errors included, carries `SECURITY_HEADERS` (and ``Cache-Control: no-cache``
  unless it sets its own); none carries a CORS header.

Refusals are JSON ``{"error": TEXT}``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from urllib.parse import unquote, urlsplit

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


# RFC 9110 section 7.2: a name (dot-separated labels, one final dot allowed) or a bracketed
# IPv6 literal, then an optional port of digits.
_HOST = re.compile(
    r"(?:\[(?P<literal>[0-9a-f:.]+)\]|(?P<name>(?:[a-z0-9_-]+\.)*[a-z0-9_-]+)\.?)(?::[0-9]{1,5})?"
)


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
    """

    def __init__(self, app: ASGIApp, hosts: Iterable[str], max_body: int = MAX_BODY) -> None:
        self.app = app
        self.hosts = frozenset(host.lower() for host in hosts)
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_guarded(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": with_security(message.get("headers", []))}
            await send(message)

        scope, problem = self.absolute(scope)
        problem = problem or self.refuse(scope["headers"])
        if problem is not None:
            for message in refusal(*problem):
                await send_guarded(message)
            return
        seen = 0

        async def receive_limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_body:
                raise BodyTooLarge(seen)
            return message

        try:
            await self.app(scope, receive_limited, send_guarded)
        except BodyTooLarge:
            if started:
                raise
            for message in refusal(413, f"the body is over {self.max_body} bytes"):
                await send_guarded(message)

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


def with_security(headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """*headers* with `SECURITY_HEADERS` (replacing any of the same name) and a cache rule."""
    names = {name for name, _ in SECURITY_HEADERS}
    kept = [(name, value) for name, value in headers if name.lower() not in names]
    if not any(name.lower() == b"cache-control" for name, _ in kept):
        kept.append((b"cache-control", b"no-cache"))
    return [*kept, *SECURITY_HEADERS]
