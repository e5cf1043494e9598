"""``d4cli serve``'s join URLs: each seat's ``http://HOST:PORT/seat/TOKEN`` on the GM's terminal,
and with ``--qr`` a QR code of each and one of the TV page (segno, drawn in half-block
characters, each with its URL and creature under it, each within an 80x24 screen) for a phone
to scan. ``--public-url`` names the origin players outside the room open (`public_origin`).

The URL holds the seat's key: it goes to the GM's terminal (stderr) alone, never to the log
or the players' page.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from urllib.parse import urlsplit

import segno

from d4cli.api import InputError
from d4cli.api.seats import Seat
from d4cli.web.addresses import is_loopback

# A code and the line under it fit a terminal of this many lines (and 80 columns).
SCREEN_LINES = 24
# The quiet zone around a code, in modules: the standard's 4 where the screen has room, else 2
# (phones read a code with 2 well on a terminal's plain background).
BORDERS = (4, 2)
LOOPBACK_HINT = (
    "d4cli: these URLs name this machine's loopback, which no phone can open: "
    "'d4cli serve --lan' opens the table to the network "
    "(or --public-url URL, behind a proxy or a tunnel)\n"
)


def public_origin(url: str) -> str:
    """The origin (``https://table.example.org``, lower case, no trailing slash) of a
    ``--public-url``.

    Raises:
        InputError: ``--public-url``: not an absolute http(s) URL of a host, or one with a
            user, a path other than ``/``, a query or a fragment.
    """
    problem = (
        "must be an absolute http:// or https:// URL of a host, such as https://table.example.org"
    )
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        raise InputError("--public-url", url, problem) from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise InputError("--public-url", url, problem)
    if parts.username is not None or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise InputError("--public-url", url, "must be the origin alone: no user, path or query")
    host = parts.hostname.lower()
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme.lower()}://{host}" + ("" if port is None else f":{port}")


def join_url(origin: str, seat: Seat) -> str:
    """The URL a player opens to sit at *seat*: *origin* (``http://HOST:PORT``) + its join path."""
    return origin + seat.join_path


def qr_text(url: str) -> str:
    """*url* as a QR code in half-block characters (two rows of modules a line): error
    correction L or better (segno raises it while the size stays), the standard quiet zone
    where the code and a line under it fit `SCREEN_LINES`, else a narrower one."""
    code = segno.make(url, error="l", micro=False)
    border = next(
        (b for b in BORDERS if (code.symbol_size(border=b)[1] + 1) // 2 < SCREEN_LINES),
        BORDERS[-1],
    )
    out = io.StringIO()
    code.terminal(out=out, compact=True, border=border)
    return out.getvalue()


def join_lines(origin: str, seats: Sequence[tuple[str, Seat]], qr: bool) -> str:
    """The text for the GM's terminal: a line per seat (*seats*: pairs of its creature's name
    and the seat); with *qr*, then a code per seat with its creature and URL under it, and one
    of the TV page; a hint when *origin* names loopback, which no phone can open."""
    parts = []
    if not seats:
        parts.append("d4cli: no seats yet ('d4cli seat add NAME' gives a creature one)\n")
    for name, seat in seats:
        parts.append(f"d4cli: {name}'s seat: {join_url(origin, seat)}\n")
    if qr:
        for name, seat in seats:
            url = join_url(origin, seat)
            parts.append(qr_text(url) + f"{name}'s seat: {url}\n")
        parts.append(qr_text(origin + "/") + f"the TV page: {origin}/\n")
        if is_loopback(urlsplit(origin).hostname or ""):
            parts.append(LOOPBACK_HINT)
    return "".join(parts)


def print_join(origin: str, seats: Sequence[tuple[str, Seat]], qr: bool) -> None:
    """Write `join_lines` on the GM's terminal (stderr)."""
    sys.stderr.write(join_lines(origin, seats, qr))
    sys.stderr.flush()
