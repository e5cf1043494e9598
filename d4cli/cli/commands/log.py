"""``d4cli log``: the changes that stand, one plain line each, or JSON; filtered (docs/cli.md "Encounter")."""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

import sys
from collections.abc import Sequence
from typing import Annotated

import typer

from d4cli.api import InputError
from d4cli.api.encounter import public_entry, read_head
from d4cli.api.inputs import LAST, ROUND, check_text, escape_control, parse_whole
from d4cli.api.tracker import Tracker
from d4cli.cli.completion.creatures import complete_creature
from d4cli.cli.options import FileOption, JsonOption, SourceList
from d4cli.cli.tracker_access import open_tracker
from d4cli.output.render.logtext import LOG_KINDS, check_kinds, entry_filter, write_log
from d4cli.output.serialize.encounter_json import log_json_chunks
from d4cli.output.serialize.replay_json import state_line_json
from d4cli.output.stdout import emit_json, write_chunks
from d4cli.output.wrap import say


def log_command(
    last: Annotated[
        str | None,
        typer.Option("--last", metavar="N", help="Only the newest N changes (before the filters)."),
    ] = None,
    round_: Annotated[
        str | None, typer.Option("--round", metavar="N", help="Only the changes made in round N.")
    ] = None,
    creature: Annotated[
        str | None,
        typer.Option(
            "--creature",
            metavar="NAME",
            autocompletion=complete_creature,
            help="Only the changes whose actor or target is NAME (N1).",
        ),
    ] = None,
    kind: Annotated[
        SourceList,
        typer.Option(
            "--kind",
            metavar="KIND",
            help="Only changes of this kind (act, turn-start, ...); repeatable.",
        ),
    ] = None,
    states: Annotated[
        bool,
        typer.Option(
            "--states",
            help="With --json: one line per entry, {seq, entry, state}, the state as status --json.",
        ),
    ] = False,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Show the changes that stand, oldest first, one line each.

    Rolls, Loads, damage, turns, notes.

    Example: d4cli log --round 2 --creature Aria --kind act
    """

    if states and not json_:
        raise InputError("--states", None, "streams JSON Lines: add --json")
    count = None if last is None else parse_whole(last, "--last", LAST)
    round_number = None if round_ is None else parse_whole(round_, "--round", ROUND)
    name = None if creature is None else check_text(creature, "--creature")
    if states:
        warning = _states(open_tracker(file), count, round_number, name, kind or ())
    else:
        # Streamed: the entries are read from the journal as they are written out, never all held.
        stream = open_tracker(file).log(count)
        known = LOG_KINDS
        if any(
            k.strip().lower() not in LOG_KINDS for k in kind or ()
        ):  # a kind only this journal has
            seen = {read_head(entry).kind for entry in stream.entries()} - set(LOG_KINDS)
            known = LOG_KINDS + tuple(sorted(k for k in seen if isinstance(k, str)))
        keep = entry_filter(round_number, name, check_kinds(kind or (), known))
        entries = stream.entries() if keep is None else filter(keep, stream.entries())
        if json_:
            write_chunks(log_json_chunks(entries))
        else:
            newest = stream.newest
            if keep is not None:  # the widths come from the newest entry shown: one pass to find it
                newest = None
                for entry in filter(keep, stream.entries()):
                    newest = entry
            write_log(
                entries,
                empty="Nothing in the log yet." if keep is None else "No change matches.",
                newest=newest,
            )
        warning = stream.warning
    if warning is not None:
        # A damaged newest journal line: the readable entries are shown, the damage named.
        sys.stdout.flush()
        say("d4cli: warning: ", escape_control(warning))


def _states(
    tracker: Tracker,
    count: int | None,
    round_number: int | None,
    name: str | None,
    kinds: Sequence[str],
) -> str | None:
    """``log --states --json``: one {seq, entry, state} line per entry chosen; the warning, if any."""

    replay = tracker.replay()
    entries = [public_entry(entry) for entry in replay.entries]
    if count is not None:
        entries = entries[-count:] if count else []
    seen = {read_head(entry).kind for entry in entries} - set(LOG_KINDS)
    known = LOG_KINDS + tuple(sorted(kind for kind in seen if isinstance(kind, str)))
    keep = entry_filter(round_number, name, check_kinds(kinds, known))
    offset = len(replay.entries) - len(entries)
    chosen = [offset + n for n, entry in enumerate(entries) if keep is None or keep(entry)]
    for entry, state in tracker.states(replay, chosen):
        emit_json(state_line_json(entry, state))
    return replay.warning
