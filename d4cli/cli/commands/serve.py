"""``d4cli serve``: the players' view as a live web page (docs/cli.md "The player view")."""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from typing import Annotated

import typer

from d4cli.cli.changes import open_tracker
from d4cli.cli.options import FileOption
from d4cli.cli.serve import serve
from d4cli.rules.limits import parse_whole
from d4cli.rules.names import check_text


def serve_command(
    host: Annotated[
        str,
        typer.Option(
            "--host",
            metavar="HOST",
            help="Address to listen on; anything but 127.0.0.1 lets others on that network read the view.",
        ),
    ] = "127.0.0.1",
    port: Annotated[
        str, typer.Option("--port", metavar="N", help="Port to listen on, 1-65535 (0: a free one).")
    ] = "8765",
    file: FileOption = None,
) -> None:
    """Serve the player view as a live web page (GET /, /view.json, /events) until Ctrl-C.

    Example: d4cli serve --port 8765   (open http://127.0.0.1:8765/)
    """
    port_number = parse_whole(port, "--port", (0, 65535))
    check_text(host, "--host", name=True)
    code = serve(open_tracker(file), host.strip(), port_number)
    if code:
        raise typer.Exit(code)
