"""``d4cli recap``: the fight so far from its journal, its luck, and where it falls among simulated fights."""

# No `from __future__ import annotations`: Typer reads the annotations on every run
# (see d4cli/cli/commands/roll.py).
import os
from typing import Annotated

import typer

from d4cli.api import InputError
from d4cli.api.inputs import SEED, parse_whole
from d4cli.api.recap import recap_report
from d4cli.cli.options import FileOption, JsonOption
from d4cli.cli.tracker_access import open_tracker
from d4cli.output.render.recap_tables import csv_recap, markdown_recap, print_recap
from d4cli.output.render.svg import recap_svg
from d4cli.output.serialize.recap_json import recap_json
from d4cli.output.stdout import emit_json

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
    evening: Annotated[
        bool,
        typer.Option(
            "--evening",
            help="Every fight of the evening (the archived ones and this one) summed: fights won, rounds, per creature damage, Load, reactions, luck.",
        ),
    ] = False,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """The fight from its journal: damage, Loads, luck, downs.

    The fight from its journal: per creature damage, actions, Team Actions, Load,
    turns unable to act, downs; damage per round; luck of every roll; the fight
    placed among simulated ones (R2, R8, R11, R16, R18).

    Only the changes that stand count (undone ones are gone). Nothing is written.
    --format svg prints the damage per round per side chart as one SVG document.

    Example: d4cli recap --format svg > recap.svg
    """

    if format_ not in FORMATS:
        raise InputError("--format", format_, "must be table, markdown, csv or svg")
    if json_ and format_ != "table":
        raise InputError("--json", None, f"--json and --format {format_} ask for two formats")
    if evening:
        _evening(file, format_, json_)
        return
    start_at = None if from_seq is None else parse_whole(from_seq, "--from-seq", (0, 10**18))
    count = 1000 if runs is None else parse_whole(runs, "--runs", (0, 1_000_000))
    if seed is not None:
        number = parse_whole(seed, "--seed", SEED)
    elif os.environ.get("D4CLI_SEED"):
        number = parse_whole(os.environ["D4CLI_SEED"], "D4CLI_SEED", SEED)
    else:
        number = int.from_bytes(os.urandom(4), "big")
    obj = recap_json(*recap_report(open_tracker(file).path, start_at, count, number))
    if json_:
        emit_json(obj)
    elif format_ == "table":
        print_recap(obj)
    elif format_ == "svg":
        print(recap_svg(obj))
    else:
        print(markdown_recap(obj) if format_ == "markdown" else csv_recap(obj))


def _evening(file: str | None, format_: str, json_: bool) -> None:
    """``recap --evening``: the evening's code loads here alone."""
    from d4cli.api.evening_recap import evening_recap
    from d4cli.output.render.evening_tables import csv_evening, markdown_evening, print_evening
    from d4cli.output.serialize.evening_json import evening_json

    if format_ == "svg":
        raise InputError("--format", format_, "with --evening: table, markdown or csv")
    obj = evening_json(*evening_recap(open_tracker(file)))
    if json_:
        emit_json(obj)
    elif format_ == "markdown":
        print(markdown_evening(obj))
    elif format_ == "csv":
        print(csv_evening(obj))
    else:
        print_evening(obj)
