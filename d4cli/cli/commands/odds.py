"""``d4cli odds``: grids of exact odds for designers (R5-R7, C1-C7, L2, L4).

``odds pool``    P(success) by Aspect (or pool size) x DC, at a Load and Net Advantage.
``odds check``   P(success) of the d20 Action Roll by Advantage Level and Disadvantage x DC.
``odds damage``  expected damage by Aspect (or pool size) x Evasion.
``odds compare`` the two systems side by side over the same DCs.

Ranges are written ``1..8``, ``4..20/2`` (a step), ``6`` or a comma list of
these (``1,3,5..8``). Output as a Rich table, ``--format markdown`` (a GitHub
pipe table), ``csv``, ``json`` (``--json`` is the same as ``--format json``) or ``svg``
(the grid as a heat map).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated, TypedDict

import typer

from d4cli.api import InputError
from d4cli.api.inputs import (
    ADVANTAGE_LEVEL,
    ASPECT,
    DC,
    DC_TIERS,
    DISADVANTAGE_COUNT,
    EVASION,
    LOAD,
    MAX_DICE,
    MODIFIER,
    parse_extras,
    parse_whole,
)
from d4cli.api.odds import (
    Grid,
    check_grid,
    check_odds_size,
    compare_grid,
    damage_grid,
    dice_sum,
    grid_cells,
    pool_grid,
)
from d4cli.api.rolls import ExtraDice, pool_size
from d4cli.cli.completion import complete_format
from d4cli.output import render
from d4cli.output.render.heatmap import grid_svg
from d4cli.output.render.odds_charts import format_grid, grid_pages
from d4cli.output.serialize.grids_json import grid_json
from d4cli.output.stdout import emit_json


class PoolRows(TypedDict, total=False):
    """The rows of a grid of pools, as keyword arguments of `d4cli.odds.grids.pool_grid` and kin."""

    extra: Sequence[ExtraDice]
    pool_sizes: Sequence[int]
    aspects: Sequence[int]
    load: int
    net_advantage: int


app = typer.Typer(
    help="Tables of exact odds: P(success) and expected damage.\n\nFor designers.",
    no_args_is_help=True,
)

FORMATS = ("table", "markdown", "csv", "json", "svg")
# One axis of a grid never has more values than a grid has cells.
MAX_AXIS = 10_000

AspectRange = Annotated[
    str | None,
    typer.Option(
        "--aspect", metavar="RANGE", help="Rows by Aspect, e.g. 1..8 (sized by R5; default 1..8)."
    ),
]
PoolRange = Annotated[
    str | None,
    typer.Option("--pool", metavar="RANGE", help="Rows by pool size in d4s instead, e.g. 1..10."),
]
DcRange = Annotated[
    str,
    typer.Option(
        "--dc", metavar="RANGE", help="Columns: DCs, e.g. 4..20, 4..20/2, easy,medium,hard."
    ),
]
LoadOption = Annotated[
    str, typer.Option("--load", metavar="N", help="Action Load for --aspect rows (R5).")
]
NetOption = Annotated[
    str,
    typer.Option("--net-advantage", metavar="N", help="Net Advantage for --aspect rows (R4, R5)."),
]
ExtraOption = Annotated[
    list[str] | None,
    typer.Option("--extra", metavar="NdX[+M]", help="Extra dice on every roll (R6); repeatable."),
]
FormatOption = Annotated[
    str,
    typer.Option(
        "--format",
        metavar="FORMAT",
        autocompletion=complete_format,
        help="table, markdown, csv, json or svg (a heat map); csv adds each column exact, as a fraction, where the grid is exact.",
    ),
]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print one JSON object (= --format json).")
]


@app.command("pool")
def pool_command(
    aspect: AspectRange = None,
    pool: PoolRange = None,
    dc: DcRange = "4..20",
    load: LoadOption = "0",
    net_advantage: NetOption = "0",
    extra: ExtraOption = None,
    format_: FormatOption = "table",
    json_: JsonOption = False,
) -> None:
    """P(success) of a D4 pool by Aspect (or pool size) and DC (R5-R7).

    Example: d4cli odds pool --aspect 1..8 --dc 4..20 --format markdown
    """
    fmt = _format(format_, json_)
    rows = _PoolRows.parse(aspect, pool, load, net_advantage, extra)
    dcs = parse_range(dc, "--dc", DC, tiers=True)
    _check_cells(rows.count, len(dcs), rows.field, "--dc")
    _emit(pool_grid(dcs, **rows.kwargs()), fmt)


@app.command("damage")
def damage_command(
    aspect: AspectRange = None,
    pool: PoolRange = None,
    evasion: Annotated[
        str, typer.Option("--evasion", metavar="RANGE", help="Columns: Evasions, e.g. 0..12.")
    ] = "0..12",
    load: LoadOption = "0",
    net_advantage: NetOption = "0",
    extra: ExtraOption = None,
    format_: FormatOption = "table",
    json_: JsonOption = False,
) -> None:
    """Expected damage max(0, total - Evasion) by Aspect or pool and Evasion (R5-R7).

    Example: d4cli odds damage --pool 1..10 --evasion 0..12 --extra 1d8
    """
    fmt = _format(format_, json_)
    rows = _PoolRows.parse(aspect, pool, load, net_advantage, extra)
    evasions = parse_range(evasion, "--evasion", EVASION)
    _check_cells(rows.count, len(evasions), rows.field, "--evasion")
    _emit(damage_grid(evasions, **rows.kwargs()), fmt)


@app.command("check")
def check_command(
    advantage: Annotated[
        str,
        typer.Option("--advantage", metavar="RANGE", help="Advantage Levels, within 0..5 (C3)."),
    ] = "0..5",
    disadvantage: Annotated[
        str,
        typer.Option(
            "--disadvantage", metavar="RANGE", help="Disadvantage counts (C4), e.g. 0..1."
        ),
    ] = "0..1",
    dc: DcRange = "5..25",
    modifier: Annotated[
        str,
        typer.Option(
            "--modifier", metavar="N", help="Attribute + Proficiency + Specialization (C1)."
        ),
    ] = "0",
    format_: FormatOption = "table",
    json_: JsonOption = False,
) -> None:
    """P(success) of a d20 Action Roll by Advantage Level, Disadvantage, DC (C1-C6).

    Example: d4cli odds check --advantage 0..3 --dc 6..24/2 --modifier 3
    """
    fmt = _format(format_, json_)
    levels = parse_range(advantage, "--advantage", ADVANTAGE_LEVEL)
    counts = parse_range(disadvantage, "--disadvantage", DISADVANTAGE_COUNT)
    modifiers = parse_whole(modifier, "--modifier", MODIFIER)
    dcs = parse_range(dc, "--dc", DC, tiers=True)
    _check_cells(len(levels) * len(counts), len(dcs), "--advantage/--disadvantage", "--dc")
    _emit(check_grid(dcs, advantage_levels=levels, disadvantages=counts, modifiers=modifiers), fmt)


@app.command("compare")
def compare_command(
    aspect: AspectRange = None,
    pool: PoolRange = None,
    modifier: Annotated[
        str,
        typer.Option(
            "--modifier",
            metavar="RANGE",
            help="d20 rows by modifier (C1), e.g. 0..5 (default 0..5).",
        ),
    ] = "0..5",
    dc: DcRange = "4..20",
    load: LoadOption = "0",
    net_advantage: NetOption = "0",
    extra: ExtraOption = None,
    advantage: Annotated[
        str, typer.Option("--advantage", metavar="L", help="Advantage Level of the d20 rows (C3).")
    ] = "0",
    disadvantage: Annotated[
        str, typer.Option("--disadvantage", metavar="N", help="Disadvantages of the d20 rows (C4).")
    ] = "0",
    format_: FormatOption = "table",
    json_: JsonOption = False,
) -> None:
    """D4 pool against d20 Action Roll: P(success) of both at one DC (R5-R7, C1-C6).

    Example: d4cli odds compare --aspect 2..6 --modifier 0..5 --dc 4..20
    """
    fmt = _format(format_, json_)
    rows = _PoolRows.parse(aspect, pool, load, net_advantage, extra, default_aspects="2..6")
    modifiers = parse_range(modifier, "--modifier", MODIFIER)
    level = parse_whole(advantage, "--advantage", ADVANTAGE_LEVEL)
    count = parse_whole(disadvantage, "--disadvantage", DISADVANTAGE_COUNT)
    dcs = parse_range(dc, "--dc", DC, tiers=True)
    _check_cells(rows.count + len(modifiers), len(dcs), f"{rows.field}/--modifier", "--dc")
    grid = compare_grid(
        dcs, modifiers=modifiers, advantage_level=level, disadvantage=count, **rows.kwargs()
    )
    _emit(grid, fmt)


# ---------------------------------------------------------------------------
# Parsing


def parse_range(
    text: str, field: str, bounds: tuple[int, int], *, tiers: bool = False
) -> tuple[int, ...]:
    """Read a range option: ``A``, ``A..B``, ``A..B/STEP``, or a comma list of these.

    Every number is a plain whole number within *bounds* (L1, L3); with
    *tiers*, DC tier names (``easy``, ``hard`` ... C2) are accepted too. Values
    keep their order; repeats are dropped.

    Args:
        text: the option's text.
        field: the option, for messages (``--dc``).
        bounds: the inclusive range every value must lie in.
        tiers: accept DC tier names.

    Returns:
        The values.

    Raises:
        InputError: a bad number, an empty range (``5..1``), a step below 1,
            or more than 10,000 values.
    """

    def number(part: str) -> int:
        if tiers:
            tier = DC_TIERS.get(part.lower())
            if tier is not None:
                return tier
            if not (
                part[:1].isascii() and (part[:1].isdigit() or part[:1] == "-")
            ):  # as `d4cli.rules.dc.parse_dc` says it
                raise InputError(
                    field, part, "must be a whole number or one of " + ", ".join(DC_TIERS) + " (C2)"
                )
        return parse_whole(part, field, bounds)

    if not text:
        raise InputError(field, text, "must be a range such as 1..8, 4..20/2 or 6")
    pieces: list[tuple[int, int, int]] = []
    count = 0
    for part in text.split(","):
        body, slash, step_text = part.partition("/")
        first_text, dots, last_text = body.partition("..")
        if slash and not dots:
            raise InputError(field, text, "a step needs a range, as in 4..20/2")
        first = number(first_text)
        last = number(last_text) if dots else first
        step = parse_whole(step_text, field, (1, MAX_AXIS)) if slash else 1
        if last < first:
            raise InputError(field, text, f"empty range: {first} is above {last}")
        count += (last - first) // step + 1
        if count > MAX_AXIS:
            raise InputError(field, text, f"too many values: at most {MAX_AXIS:,} in one range")
        pieces.append((first, last, step))
    values: dict[int, None] = {}
    for first, last, step in pieces:
        values.update(dict.fromkeys(range(first, last + 1, step)))
    return tuple(values)


class _PoolRows:
    """The rows of a pool grid: Aspects (with Load and Net Advantage) or pool sizes."""

    def __init__(
        self,
        field: str,
        values: tuple[int, ...],
        load: int,
        net: int,
        extra: tuple[ExtraDice, ...],
    ) -> None:
        self.field = field
        self.values = values
        self.load = load
        self.net = net
        self.extra = extra

    @property
    def count(self) -> int:
        return len(self.values)

    @classmethod
    def parse(
        cls,
        aspect: str | None,
        pool: str | None,
        load: str,
        net_advantage: str,
        extra: list[str] | None,
        default_aspects: str = "1..8",
    ) -> _PoolRows:
        """Parse and check the row options; the largest roll must fit L2 and L4.

        Raises:
            InputError: both --aspect and --pool, a bad value, or a roll too large.
        """
        if aspect is not None and pool is not None:
            raise InputError("--aspect/--pool", None, "give --aspect or --pool, not both")
        load_value = parse_whole(load, "--load", LOAD)
        net = parse_whole(net_advantage, "--net-advantage", MODIFIER)
        extras = parse_extras(extra or ())
        if pool is not None:
            field, values = "--pool", parse_range(pool, "--pool", (1, MAX_DICE))
            largest = max(values)
        else:
            field = "--aspect"
            values = parse_range(default_aspects if aspect is None else aspect, "--aspect", ASPECT)
            largest = max(pool_size(value, load_value, net).size for value in values)
        extra_dice = sum(item.count for item in extras)
        if largest + extra_dice > MAX_DICE:
            raise InputError(
                field, largest + extra_dice, f"dice in the largest roll; at most {MAX_DICE:,} (L2)"
            )
        check_odds_size(largest, extra_dice, dice_sum(largest, extras).totals, field)
        return cls(field, values, load_value, net, extras)

    def kwargs(self) -> PoolRows:
        if self.field == "--pool":
            return {"extra": self.extra, "pool_sizes": self.values}
        return {
            "extra": self.extra,
            "aspects": self.values,
            "load": self.load,
            "net_advantage": self.net,
        }


def _format(text: str, json_: bool) -> str:
    fmt = text.lower()
    if fmt not in FORMATS:
        raise InputError("--format", text, "must be one of " + ", ".join(FORMATS))
    if json_ and fmt not in ("table", "json"):
        raise InputError("--json", None, f"--json and --format {fmt} ask for two formats")
    return "json" if json_ else fmt


def _check_cells(rows: int, columns: int, row_field: str, column_field: str) -> None:
    grid_cells(rows, columns, f"{row_field} x {column_field}")


def _emit(grid: Grid, fmt: str) -> None:
    """Print *grid* in *fmt* (table, markdown, csv, json) on stdout."""
    if fmt == "json":
        emit_json(grid_json(grid))
        return
    if fmt == "svg":
        sys.stdout.write(grid_svg(grid))
        return
    if fmt in ("markdown", "csv"):
        sys.stdout.write(str(format_grid(grid, fmt)))
        return
    out = render.console()
    for table in grid_pages(grid, out.width):  # a terminal's width: pages of columns
        out.print(table)
