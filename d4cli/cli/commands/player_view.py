"""What the players see: ``reveal``, ``conceal``, ``alias`` (docs/cli.md "The player view").

A thin skin like `d4cli.cli.commands.encounter`: each is an ordinary journaled
change (`d4cli.fight.visibility`) through the store's one transaction, with
``--note``, ``--json``, ``undo`` and ``redo``.
"""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from typing import Annotated

import typer

from d4cli.cli.commands.common import JsonOption, NoteOption
from d4cli.cli.commands.encounter import FileOption, apply_change
from d4cli.cli.completion import complete_creature
from d4cli.rules.errors import InputError

Name = Annotated[
    str,
    typer.Argument(
        metavar="NAME",
        help="The creature (its name in the file).",
        autocompletion=complete_creature,
    ),
]


def reveal_command(
    name: Name, note: NoteOption = None, file: FileOption = None, json_: JsonOption = False
) -> None:
    """Put a hidden creature on the player view (board --players, serve).

    Example: d4cli reveal "Goblin Shaman"
    """
    from d4cli.fight.visibility import reveal

    apply_change(file, lambda encounter: reveal(encounter, name), json_, note)


def conceal_command(
    name: Name, note: NoteOption = None, file: FileOption = None, json_: JsonOption = False
) -> None:
    """Take a creature off the player view; its turns and rolls go on as before (R13).

    Example: d4cli conceal "Goblin Shaman"
    """
    from d4cli.fight.visibility import conceal

    apply_change(file, lambda encounter: conceal(encounter, name), json_, note)


def alias_command(
    name: Name,
    text: Annotated[
        str | None,
        typer.Argument(
            metavar="TEXT", help="The name the players see (unique, N1).", show_default=False
        ),
    ] = None,
    clear: Annotated[
        bool, typer.Option("--clear", help="Show its own name to the players again.")
    ] = False,
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Show a creature to the players under another name; --clear: by its own name again (N1).

    Example: d4cli alias "Goblin Shaman" "Goblin 2"
    """
    from d4cli.fight.visibility import set_alias

    if clear == (text is not None):
        raise InputError("TEXT", None, "give the name the players see, or --clear (not both)")
    apply_change(file, lambda encounter: set_alias(encounter, name, text), json_, note)


def board_command(
    players: Annotated[
        bool, typer.Option("--players", help="Show only what the players may see (the projection).")
    ] = False,
    once: Annotated[
        bool, typer.Option("--once", help="Print one frame and exit (plain text in a pipe).")
    ] = False,
    at: Annotated[
        str | None,
        typer.Option(
            "--at",
            metavar="SEQ",
            help="One frame as it stood after journal entry SEQ (replayed; read-only).",
        ),
    ] = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Show the encounter on a full screen that redraws when the file changes; q or Ctrl-C quits.

    Without --players it is the GM's board (everything, and the newest log lines).
    --json prints one frame's data and exits: the projection (with --players) or the status.
    --at SEQ prints one frame as it stood after journal entry SEQ.

    Example: d4cli board --players
    """
    from d4cli.cli.board import print_once, run_live
    from d4cli.cli.settings import resolve_path

    path = resolve_path(file)
    replayed = None
    if at is not None:  # as it stood after entry SEQ: history does not change, so one frame
        from d4cli.cli.commands.replay import status_at

        entry, then = status_at(file, at)
        replayed = (int(entry["seq"]), then)
    if json_:  # one frame's data: the projection (--players) or the status, as JSON
        from d4cli.output.stdout import emit_json
        from d4cli.store import read_encounter

        encounter = read_encounter(path) if replayed is None else replayed[1]
        if players:
            from d4cli.fight.public_view import public_view
            from d4cli.output.serialize.public_view import public_view_json

            emit_json(public_view_json(public_view(encounter)))
        else:
            from d4cli.output.serialize.views import status_json

            emit_json(status_json(encounter))
        return
    if once or replayed is not None:
        print_once(path, players, replayed)
        return
    code = run_live(path, players)
    if code:
        raise typer.Exit(code)


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
    from d4cli.cli.serve import serve
    from d4cli.cli.settings import resolve_path
    from d4cli.rules.limits import parse_whole
    from d4cli.rules.names import check_text

    port_number = parse_whole(port, "--port", (0, 65535))
    check_text(host, "--host", name=True)
    path = resolve_path(file)
    code = serve(path, host.strip(), port_number)
    if code:
        raise typer.Exit(code)
