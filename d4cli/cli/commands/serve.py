"""``d4cli serve``: the players' view as a live web page (docs/cli.md "The players' page")."""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from typing import Annotated

import typer

from d4cli.api import InputError
from d4cli.api.inputs import check_text, parse_whole
from d4cli.api.seats import Seats
from d4cli.cli.options import FileOption, SeedOption
from d4cli.cli.serve_join import print_join, public_origin
from d4cli.cli.tracker_access import open_tracker
from d4cli.cli.web_server import serve
from d4cli.web.guard import allowable_name
from d4cli.web.seat_routes import seat_routes

DEFAULT_HOST = "127.0.0.1"
EVERY_ADDRESS = "0.0.0.0"


def serve_command(
    host: Annotated[
        str,
        typer.Option(
            "--host",
            metavar="HOST",
            help="Address to listen on; anything but loopback lets others on that network read the view.",
        ),
    ] = DEFAULT_HOST,
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
    lan: Annotated[
        bool,
        typer.Option(
            "--lan",
            help="Listen on every address (--host 0.0.0.0): phones on this network join by this machine's address.",
        ),
    ] = False,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            metavar="URL",
            help="The https:// or http:// origin players outside the room open (a proxy or a tunnel); join URLs name it.",
        ),
    ] = None,
    qr: Annotated[
        bool,
        typer.Option(
            "--qr",
            help="Also draw each seat's join URL and the TV page as QR codes in the terminal.",
        ),
    ] = False,
    seed: SeedOption = None,
    file: FileOption = None,
) -> None:
    """Serve the player view and the seats' pages on the web.

    Serve the player view as a live web page (GET /, /view.json, /events) and each
    seat's page (GET /seat/TOKEN) until Ctrl-C; print each seat's join URL.

    Example: d4cli serve --lan --qr   (phones on this network scan a code)
    """
    port_number = parse_whole(port, "--port", (0, 65535))
    streams = parse_whole(max_streams, "--max-streams", (1, 10000))
    check_text(host, "--host", name=True)
    if lan:
        if host.strip() not in (DEFAULT_HOST, EVERY_ADDRESS):
            raise InputError("--lan", None, "is --host 0.0.0.0: give one of --lan and --host")
        host = EVERY_ADDRESS
    public = None if public_url is None else public_origin(public_url)
    names = [_allowed(name) for name in allow_host or ()]
    tracker = open_tracker(file, seed, dice=True)
    # The seats as the server starts: a seat given later has its URL in 'd4cli seat list'.
    seats = [(seat.creature, seat) for seat in Seats(tracker.path).list()]
    code = serve(
        tracker,
        host.strip(),
        port_number,
        names,
        streams,
        routes=lambda broadcaster: seat_routes(tracker, broadcaster),
        banner=lambda origin: print_join(origin, seats, qr),
        public=public,
    )
    if code:
        raise typer.Exit(code)


def _allowed(text: str) -> str:
    """An ``--allow-host`` value: a host name or an IP address, without a port.

    Raises:
        InputError: anything else (``*``, ``a/b``, ``evil.com:99999``), naming ``--allow-host``.
    """
    name = allowable_name(check_text(text, "--allow-host", name=True))
    if name is None:
        raise InputError(
            "--allow-host",
            text,
            "must be a host name (letters, digits, dots, hyphens) or an IP address, without a port",
        )
    return name
