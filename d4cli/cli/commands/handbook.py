"""``d4cli handbook``: the rules, the odds grids and the reset modes of an encounter as one Markdown document."""

# No `from __future__ import annotations`: Typer reads the annotations on every run
# (see d4cli/cli/commands/roll.py).
import os
import sys
from typing import Annotated

import typer

from d4cli.api import InputError
from d4cli.api.inputs import SEED, check_text, parse_whole
from d4cli.api.simulation import pool_jobs, simulate
from d4cli.api.templates import template_path
from d4cli.output.render import escape
from d4cli.output.render.entry_lines import print_lines
from d4cli.output.render.handbook import handbook_markdown

DEFAULT_EXAMPLE = "ambush"


def handbook_command(
    from_: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="EXAMPLE|FILE",
            help="The encounter whose reset modes are compared (default: the bundled ambush).",
        ),
    ] = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out", metavar="PATH", help="Write the Markdown here instead of printing it."
        ),
    ] = None,
    runs: Annotated[
        str, typer.Option("--runs", metavar="N", help="Simulated fights per mode (1..1,000,000).")
    ] = "1000",
    seed: Annotated[
        str, typer.Option("--seed", metavar="N", help="Seed of the simulated fights.")
    ] = "1",
) -> None:
    """The designer's handbook in Markdown: rules, odds grids, modes.

    One Markdown document for the designer's handbook: every rule with its example, the exact odds
    grids (pool and check against DC, expected damage, D4 against d20) and the reset modes compared
    (R1-R20, C1-C8, L1-L4, N1).

    Example: d4cli handbook --from duel --out handbook.md
    """

    count = parse_whole(runs, "--runs", (1, 1_000_000))
    number = parse_whole(seed, "--seed", SEED)
    target = None
    if out is not None:
        target = check_text(out, "--out")
        folder = os.path.dirname(os.path.abspath(target))
        if not os.path.isdir(folder):
            raise InputError("--out", out, "its folder does not exist")
        if os.path.isdir(target):
            raise InputError("--out", out, "is a folder")
    path = template_path(from_ or DEFAULT_EXAMPLE)
    report = simulate(path, runs=count, seed=number, jobs=pool_jobs(count)).report(
        with_engine=False
    )
    text = handbook_markdown(report)
    if target is None:
        sys.stdout.write(text)
        return
    try:
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        raise InputError("--out", out, f"cannot be written: {error.strerror or error}") from None

    print_lines([f"Wrote {escape(target)}: {text.count(chr(10)):,} lines"])
