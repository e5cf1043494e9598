"""What a write route (a seat's request, for one) checks before it reads the body.

`read_write` runs them in order: the ``Origin`` is the served origin (else 403: another site's
page cannot post here, and neither can a client that names none), the body is JSON (else 415),
the key (a seat) is under its rate (else 429 with ``Retry-After``), then the JSON is parsed
(400 when it is not, has a key twice, NaN or Infinity, or nests too deep). The body's size is the `d4cli.web.guard.Guard`'s (413). Every refusal is a
Starlette ``HTTPException``, which the app answers as JSON ``{"error": TEXT}``.

The rate is a moving window of the `limits` library, kept in this process's memory.
"""

from __future__ import annotations

import json
import math
import time
from email.message import Message
from typing import Any

from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.exceptions import HTTPException
from starlette.requests import Request

# A player taps a button; a few requests a second per seat is more than any hand makes.
WRITES_PER_SECOND = 3


def check_origin(request: Request) -> None:
    """The request's ``Origin`` is ``http://`` + its ``Host`` (which the guard has checked), or
    one of the app's ``state.origins`` (``--public-url``, `d4cli.web.asgi_app.Settings.origins`).

    Raises:
        HTTPException: 403, the Origin is missing or another.
    """
    origin = request.headers.get("origin")
    served = f"{request.url.scheme}://{request.headers.get('host', '')}".lower()
    public: frozenset[str] = getattr(request.app.state, "origins", frozenset())
    if origin is None or (origin.lower() != served and origin.lower() not in public):
        raise HTTPException(403, f"Origin {origin!r}: writes are taken from {served} only")


def check_json(request: Request) -> None:
    """The body is declared ``application/json``, with no charset or ``utf-8`` (the body is
    read as UTF-8, as JSON is).

    Raises:
        HTTPException: 415, another Content-Type or none, or another charset.
    """
    header = Message()
    header["content-type"] = request.headers.get("content-type", "")
    kind = header.get_content_type() if "content-type" in request.headers else "none"
    if kind != "application/json":
        raise HTTPException(415, f"Content-Type {kind!r}: send application/json")
    charset = header.get_param("charset")
    if charset is not None and str(charset).lower() not in ("utf-8", "utf8"):
        raise HTTPException(415, f"charset {str(charset)!r}: send JSON in UTF-8")


class RateLimit:
    """At most *per_second* hits a second for each key (a moving window).

    Args:
        per_second: hits allowed in any one second, per key (a whole number >= 1).
    """

    def __init__(self, per_second: int = WRITES_PER_SECOND) -> None:
        self.item = RateLimitItemPerSecond(per_second)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def hit(self, key: str) -> None:
        """Count one hit of *key*.

        Raises:
            HTTPException: 429 with ``Retry-After`` (whole seconds, at least 1) past the rate.
        """
        if self.limiter.hit(self.item, key):
            return
        reset = self.limiter.get_window_stats(self.item, key).reset_time
        wait = max(1, math.ceil(reset - time.time()))
        raise HTTPException(
            429,
            f"too many requests: at most {self.item.amount} a second",
            {"Retry-After": str(wait)},
        )


async def read_write(request: Request, limit: RateLimit, key: str) -> Any:
    """Check a write (Origin, Content-Type, the rate of *key*), then its body's JSON.

    Raises:
        HTTPException: 403, 415, 429 as above; 400 when the body is not JSON (UTF-8).
    """
    check_origin(request)
    check_json(request)
    limit.hit(key)
    body = await request.body()
    try:
        return json.loads(body, object_pairs_hook=_unique, parse_constant=_no_constant)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise HTTPException(400, f"the body is not JSON: {error}") from None
    except NotJson as error:
        raise HTTPException(400, f"the body is not JSON: {error}") from None
    except RecursionError:
        # The body's size bounds the depth to some thousands: past the parser's own limit.
        raise HTTPException(400, "the body is not JSON: nested too deep") from None


class NotJson(ValueError):
    """Text Python's parser takes but JSON (RFC 8259) does not, or a key given twice."""


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are each given once (a key given twice would be read as the last,
    whatever a check on the first saw)."""
    found: dict[str, Any] = {}
    for name, value in pairs:
        if name in found:
            raise NotJson(f"key {name[:40]!r} is given twice")
        found[name] = value
    return found


def _no_constant(name: str) -> Any:
    raise NotJson(f"{name} is not a JSON number")
