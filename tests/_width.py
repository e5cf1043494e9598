"""Human output at a fixed terminal width, for snapshots at 80 and 120 columns."""

from __future__ import annotations

from typing import Any

from d4cli.output import render


def at_width(monkeypatch: Any, width: int) -> None:
    """Every Console d4cli builds lays out to *width* columns, as on a terminal that wide (no colour)."""

    class Fixed(render.PipeConsole):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["width"] = width
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(render, "PipeConsole", Fixed)
