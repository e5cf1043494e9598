"""``d4cli handbook``: the rules, the odds grids and the reset modes of an encounter as one Markdown
document, or as HTML a browser prints to PDF."""

# No `from __future__ import annotations`: Typer reads the annotations on every run
# (see d4cli/cli/commands/roll.py).
import sys
from typing import Annotated

import typer

from d4cli.api import InputError
from d4cli.api.inputs import SEED, parse_whole
from d4cli.api.simulation import pool_jobs, simulate
from d4cli.api.templates import template_path
from d4cli.cli.out_file import checked_out, write_out
from d4cli.output.render import escape
from d4cli.output.render.entry_lines import print_lines
from d4cli.output.render.handbook import handbook_markdown

DEFAULT_EXAMPLE = "ambush"
FORMATS = ("markdown", "html")
HTML_TITLE = "d4cli: the designer's handbook"


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
            "--out", metavar="PATH", help="Write the document here instead of printing it."
        ),
    ] = None,
    format_: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="markdown|html",
            help="Markdown, or HTML with print CSS that a browser prints to PDF as a chapter.",
        ),
    ] = "markdown",
    runs: Annotated[
        str, typer.Option("--runs", metavar="N", help="Simulated fights per mode (1..1,000,000).")
    ] = "1000",
    seed: Annotated[
        str, typer.Option("--seed", metavar="N", help="Seed of the simulated fights.")
    ] = "1",
) -> None:
    """The designer's handbook in Markdown: rules, odds grids, modes.

    One Markdown document for the designer's handbook: every rule with its
    example, the exact odds grids (pool and check against DC, expected damage, D4
    against d20) and the reset modes compared (R1-R20, C1-C8, L1-L4, N1).

    --format html writes it as one HTML chapter with print CSS, for a browser to
    print to PDF.

    Example: d4cli handbook --from duel --out handbook.md
    """

    count = parse_whole(runs, "--runs", (1, 1_000_000))
    number = parse_whole(seed, "--seed", SEED)
    if format_ not in FORMATS:
        raise InputError("--format", format_, "must be markdown or html")
    target = checked_out(out)
    path = template_path(from_ or DEFAULT_EXAMPLE)
    report = simulate(path, runs=count, seed=number, jobs=pool_jobs(count)).report(
        with_engine=False
    )
    text = handbook_markdown(report)
    if format_ == "html":
        from d4cli.output.handbook_html import handbook_html  # markdown-it: --format html only

        text = handbook_html(text, HTML_TITLE)
    if target is None:
        sys.stdout.write(text)
        return
    write_out(target, text)

    print_lines([f"Wrote {escape(target)}: {text.count(chr(10)):,} lines"])
