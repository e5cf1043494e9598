"""``d4cli serve``: the players' view as a live web page (docs/cli.md "The players' page")."""

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
            help="Address to listen on; anything but loopback lets others on that network read the view.",
        ),
    ] = "127.0.0.1",
    port: Annotated[
        str, typer.Option("--port", metavar="N", help="Port to listen on, 1-65535 (0: a free one).")
    ] = "8765",
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            metavar="NAME",
            help="Also answer requests naming this host (a name or address the players type); repeatable.",
        ),
    ] = None,
    max_streams: Annotated[
        str,
        typer.Option("--max-streams", metavar="N", help="Most open pages at once, 1-10000."),
    ] = "500",
    file: FileOption = None,
) -> None:
    """Serve the player view as a live web page (GET /, /view.json, /events) until Ctrl-C.

    Example: d4cli serve --port 8765   (open http://127.0.0.1:8765/)
    """
    port_number = parse_whole(port, "--port", (0, 65535))
    streams = parse_whole(max_streams, "--max-streams", (1, 10000))
    check_text(host, "--host", name=True)
    names = [check_text(name, "--allow-host", name=True) for name in allow_host or ()]
    code = serve(open_tracker(file), host.strip(), port_number, names, streams)
    if code:
        raise typer.Exit(code)
