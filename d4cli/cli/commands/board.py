"""``d4cli board``: the encounter on a full screen that redraws when the file changes (docs/cli.md "The player view")."""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from typing import Annotated

import typer

from d4cli.api import D4Error, FileError
from d4cli.api.encounter import Tracker
from d4cli.api.front_ends import public_view
from d4cli.api.inputs import parse_whole
from d4cli.api.replay import SEQ
from d4cli.cli.board_screen import print_once, run_live
from d4cli.cli.odds_worker import odds_now
from d4cli.cli.options import FileOption, JsonOption
from d4cli.cli.tracker_access import open_tracker, tell_side_files
from d4cli.output.serialize.encounter_json import status_json
from d4cli.output.serialize.public_view_json import odds_json, public_view_json
from d4cli.output.stdout import emit_json


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
    """A full-screen board that redraws when the file changes.

    It shows the encounter; q or Ctrl-C quits.

    Without --players it is the GM's board (everything, and the newest log lines).
    Its odds line: each side's chance to win from here, and how the last change
    moved it. The players see that line too when the file's player_view sets
    odds_shown = true.

    --json prints one frame's data and exits: the projection (with --players) or
    the status. --at SEQ prints one frame as it stood after journal entry SEQ.

    Example: d4cli board --players
    """
    tracker = open_tracker(file)
    try:
        _board(tracker, players, once, at, json_)
    except FileError:
        if not players:
            raise
        # Both of the players' streams are on their screen: nothing of the GM's file (names,
        # fields, values, its path) is said there, only where the GM finds out why.
        raise D4Error(NOT_READY) from None


# What a players' board says when the encounter file cannot be read.
NOT_READY = "the table is not ready: the GM's 'd4cli status' says why"


def _board(tracker: Tracker, players: bool, once: bool, at: str | None, json_: bool) -> None:
    replayed = None
    if at is not None:  # as it stood after entry SEQ: history does not change, so one frame
        seq = parse_whole(at, "--at", SEQ)
        # The players' replay hides what the GM hid then or since (a later conceal or alias).
        _, then = tracker.players_state_at(seq) if players else tracker.status_at(seq)
        replayed = (seq, then)  # the entry found is entry SEQ
    if json_:  # one frame's data: the projection (--players) or the status, as JSON
        if players:
            if replayed is None:
                view, encounter = tracker.shown()
            else:
                view, encounter = public_view(replayed[1]), replayed[1]
            settings = encounter.player_view
            odds = None
            if settings is not None and settings.odds_shown:
                odds = odds_json(odds_now(encounter, True), False)
            emit_json(public_view_json(view, odds))
        else:
            emit_json(status_json(tracker.status() if replayed is None else replayed[1]))
        return
    if once or replayed is not None:
        print_once(tracker, players, replayed)
        if not players:  # the GM's eyes only: a players' board names nothing of the GM's files
            tell_side_files(tracker.path)
        return
    code = run_live(tracker, players)
    if code:
        raise typer.Exit(code)
