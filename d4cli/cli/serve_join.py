"""``d4cli serve``'s join URLs: each seat's ``http://HOST:PORT/seat/TOKEN`` on the GM's terminal,
and with ``--qr`` a QR code of each (segno, drawn with block characters) for a phone to scan.

The URL holds the seat's key: it goes to the GM's terminal (stderr) alone, never to the log
or the players' page.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence

import segno

from d4cli.api import Seat


def join_url(origin: str, seat: Seat) -> str:
    """The URL a player opens to sit at *seat*: *origin* (``http://HOST:PORT``) + its join path."""
    return origin + seat.join_path


def qr_text(url: str) -> str:
    """*url* as a QR code (error correction M) in block characters, two rows of modules a line."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def join_lines(origin: str, seats: Sequence[tuple[str, Seat]], qr: bool) -> str:
    """The text for the GM's terminal: a line per seat (*seats*: pairs of its creature's name
    and the seat), each followed by its QR code with *qr*."""
    if not seats:
        return "d4cli: no seats yet ('d4cli seat add NAME' gives a creature one)\n"
    parts = []
    for name, seat in seats:
        url = join_url(origin, seat)
        parts.append(f"d4cli: {name}'s seat: {url}\n")
        if qr:
            parts.append(qr_text(url))
    return "".join(parts)


def print_join(origin: str, seats: Sequence[tuple[str, Seat]], qr: bool) -> None:
    """Write `join_lines` on the GM's terminal (stderr)."""
    sys.stderr.write(join_lines(origin, seats, qr))
    sys.stderr.flush()
