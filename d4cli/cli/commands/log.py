"""``d4cli log``: the changes that stand, one plain line each, or JSON; filtered (docs/cli.md "Encounter")."""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

import sys
from typing import Annotated

import typer

from d4cli.cli.commands.common import FileOption, JsonOption, SourceList, emit_json
from d4cli.cli.lazy import completer
from d4cli.rules.errors import InputError, escape_control
from d4cli.rules.limits import LAST, parse_whole
from d4cli.rules.names import check_text

# The completers, loaded only when Tab is pressed (`d4cli.cli.completion`).
complete_creature = completer("d4cli.cli.completion:complete_creature")


def log_command(
    last: Annotated[str | None, typer.Option("--last", metavar="N", help="Only the newest N changes (before the filters).")] = None,
    round_: Annotated[str | None, typer.Option("--round", metavar="N", help="Only the changes made in round N.")] = None,
    creature: Annotated[str | None, typer.Option("--creature", metavar="NAME", autocompletion=complete_creature, help="Only the changes whose actor or target is NAME (N1).")] = None,
    kind: Annotated[SourceList, typer.Option("--kind", metavar="KIND", help="Only changes of this kind (act, turn-start, ...); repeatable.")] = None,
    states: Annotated[bool, typer.Option("--states", help="With --json: one line per entry, {seq, entry, state}, the state as status --json.")] = False,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Show the changes that stand, oldest first, one line each: rolls, Loads, damage, turns, notes.

    Example: d4cli log --round 2 --creature Aria --kind act
    """
    from d4cli.cli.settings import resolve_path
    from d4cli.output.render.logtext import LOG_KINDS, check_kinds, entry_filter
    from d4cli.rules.limits import ROUND
    from d4cli.store.history import History, read_history
    from d4cli.store.journal import public_entry

    if states and not json_:
        raise InputError("--states", None, "streams JSON Lines: add --json")
    count = None if last is None else parse_whole(last, "--last", LAST)
    round_number = None if round_ is None else parse_whole(round_, "--round", ROUND)
    name = None if creature is None else check_text(creature, "--creature")
    if states:
        from d4cli.store.replay import replay_texts

        replay = replay_texts(resolve_path(file))
        history = History([public_entry(entry) for entry in replay.entries], replay.warning)
        if count is not None:
            history = History(history.entries[-count:] if count else [], history.warning)
    else:
        history = read_history(resolve_path(file), count)
    seen = {entry.get("kind") for entry in history.entries} - set(LOG_KINDS)
    known = LOG_KINDS + tuple(sorted(kind for kind in seen if isinstance(kind, str)))
    keep = entry_filter(round_number, name, check_kinds(kind or (), known))
    entries = history.entries if keep is None else [entry for entry in history.entries if keep(entry)]
    if states:
        from d4cli.cli.commands.replay import state_lines
        from d4cli.output.serialize.replay import state_line_json

        offset = len(replay.entries) - len(history.entries)
        chosen = [offset + n for n, entry in enumerate(history.entries) if keep is None or keep(entry)]
        for entry, state in state_lines(resolve_path(file), replay, chosen):
            emit_json(state_line_json(entry, state))
    elif json_:
        from d4cli.output.serialize.views import log_json

        emit_json(log_json(entries))
    else:
        from d4cli.output.render.logtext import write_log

        write_log(entries, empty="Nothing in the log yet." if keep is None else "No change matches.")
    if history.warning is not None:
        # A damaged newest journal line: the readable entries are shown, the damage named.
        sys.stdout.flush()
        sys.stderr.write(f"d4cli: warning: {escape_control(history.warning)}\n")
        sys.stderr.flush()
