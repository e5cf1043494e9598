"""``d4cli recap``: the fight so far from its journal, its luck, and where it falls among simulated fights."""

# No `from __future__ import annotations`: Typer reads the annotations on every run
# (see d4cli/cli/commands/roll.py).
from typing import Annotated, Any

import typer

from d4cli.cli.commands.common import FileOption, JsonOption
from d4cli.output.stdout import emit_json
from d4cli.rules.errors import InputError

FORMATS = ("table", "markdown", "csv", "svg")


def recap_command(
    from_seq: Annotated[
        str | None,
        typer.Option(
            "--from-seq", metavar="N", help="Recap the entries after entry N (default: the init)."
        ),
    ] = None,
    runs: Annotated[
        str | None,
        typer.Option(
            "--runs",
            metavar="N",
            help="Simulated fights to place the real one among (0..1,000,000; default 1,000; 0: none).",
        ),
    ] = None,
    seed: Annotated[
        str | None, typer.Option("--seed", metavar="N", help="Seed of the simulated fights' dice.")
    ] = None,
    format_: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="table|markdown|csv|svg",
            help="Output for people, a handbook, a spreadsheet, or the damage per round per side as an SVG chart on stdout.",
        ),
    ] = "table",
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """The fight from its journal: per creature damage, actions, Team Actions, Load, turns unable to act, downs;
    damage per round; luck of every roll; the fight placed among simulated ones (R2, R8, R11, R16, R18).

    Only the changes that stand count (undone ones are gone). Nothing is written.
    --format svg prints the damage per round per side chart as one SVG document.

    Example: d4cli recap --format svg > recap.svg
    """
    import os

    from d4cli.rules.limits import SEED, parse_whole

    if format_ not in FORMATS:
        raise InputError("--format", format_, "must be table, markdown, csv or svg")
    if json_ and format_ != "table":
        raise InputError("--json", None, f"--json and --format {format_} ask for two formats")
    start_at = None if from_seq is None else parse_whole(from_seq, "--from-seq", (0, 10**18))
    count = 1000 if runs is None else parse_whole(runs, "--runs", (0, 1_000_000))
    if seed is not None:
        number = parse_whole(seed, "--seed", SEED)
    elif os.environ.get("D4CLI_SEED"):
        number = parse_whole(os.environ["D4CLI_SEED"], "D4CLI_SEED", SEED)
    else:
        number = int.from_bytes(os.urandom(4), "big")
    obj = build_report(file, start_at, count, number)  # the serializer's object (`recap_json`)
    if json_:
        emit_json(obj)
    elif format_ == "table":
        from d4cli.output.render.recap import print_recap

        print_recap(obj)
    elif format_ == "svg":
        from d4cli.output.render.svg import recap_svg

        print(recap_svg(obj))
    else:
        from d4cli.output.render.recap import csv_recap, markdown_recap

        print(markdown_recap(obj) if format_ == "markdown" else csv_recap(obj))


def build_report(file: str | None, start_at: int | None, runs: int, seed: int) -> dict[str, Any]:
    """The ``recap --json`` object of the encounter file: replay, figures, luck, placement.

    Raises:
        InputError: no fight yet (no entry after the start), ``--from-seq`` before
            the init or at or past the newest entry, a start state that cannot be rebuilt.
    """
    from d4cli.cli.commands.replay import state_after, state_lines
    from d4cli.cli.settings import resolve_path
    from d4cli.fight.recap import recap
    from d4cli.odds.luck import entry_luck, luck_by_creature
    from d4cli.output.serialize.recap import recap_json
    from d4cli.store.replay import replay_texts

    path = resolve_path(file)
    replay = replay_texts(path)
    if not replay.entries:
        raise InputError("recap", None, "no fight yet: this encounter has no journal")
    first, last = replay.entries[0].get("seq"), replay.entries[-1].get("seq")
    seq = first if start_at is None else start_at
    assert isinstance(seq, int) and isinstance(last, int)
    if seq >= last:
        if start_at is None:
            raise InputError("recap", None, "no fight yet: nothing in the log since the init")
        raise InputError(
            "--from-seq", start_at, f"leaves nothing to recap: the newest entry is #{last}"
        )
    try:
        _, start = state_after(path, replay, seq)
    except InputError as error:
        raise InputError("--from-seq", seq, error.problem) from None
    keep = [
        n
        for n, entry in enumerate(replay.entries)
        if isinstance(entry.get("seq"), int) and entry["seq"] > seq
    ]
    steps = list(state_lines(path, replay, keep))
    figures = recap(start, seq, steps)
    rolls = [roll for roll in (entry_luck(entry) for entry, _ in steps) if roll is not None]
    placement, why_not = None, None
    if runs == 0:
        why_not = "not asked for (--runs 0)"
    else:
        from d4cli.sim.placement import place

        try:
            placement = place(start, figures.rounds, figures.damage_by_side, runs, seed)
        except InputError as error:
            why_not = f"the simulator cannot play it ({error.field}: {error.problem})"
    return recap_json(figures, rolls, luck_by_creature(rolls), placement, why_not)
