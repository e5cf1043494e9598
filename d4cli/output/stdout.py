"""Text and JSON written straight to stdout, without Rich: one JSON object a line, text in blocks."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any


def emit_json(obj: dict[str, Any]) -> None:
    """Write one JSON object as one line on stdout and flush it (JSON Lines, docs/cli.md)."""
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def write_chunks(chunks: Iterable[str], block: int = 1 << 16) -> None:
    """Write text *chunks* on stdout in blocks of about *block* characters, then flush (streamed output)."""
    pending: list[str] = []
    size = 0
    for chunk in chunks:
        pending.append(chunk)
        size += len(chunk)
        if size >= block:
            sys.stdout.write("".join(pending))
            pending, size = [], 0
    sys.stdout.write("".join(pending))
    sys.stdout.flush()
