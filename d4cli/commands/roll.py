"""``d4cli roll pool`` and ``d4cli roll check`` (docs/cli.md "Rolls")."""

# No `from __future__ import annotations` here: Typer reads these annotations on every
# run, and evaluating them at import (from cached byte code) is cheaper than compiling
# the strings again in typing.get_type_hints (start-up).
from collections import Counter
from collections.abc import Callable
from typing import Annotated, Any, NamedTuple

import typer

from d4cli.commands.common import (
    JsonOption,
    OddsOption,
    QuietOption,
    SeedOption,
    TimesOption,
    emit_json,
    make_rng,
    parse_times,
)
from d4cli.completion import complete_dc_tier
from d4cli.errors import EXIT_REFUSED, InputError
from d4cli.limits import (
    ASPECT,
    COST,
    DC,
    DISADVANTAGE_COUNT,
    EVASION,
    LOAD,
    MODIFIER,
    check_rolled_dice,
    parse_whole,
)

app = typer.Typer(help="Roll a D4 pool or a d20 Action Roll.", no_args_is_help=True)

SourceList = list[str] | None


@app.command(
    "pool",
    # A negative Aspect (`roll pool -1 --gm`) must not read as an option; unknown
    # options are then caught by `_refuse_unknown` instead of Click.
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
def pool_command(
    ctx: typer.Context,
    aspect: Annotated[str, typer.Argument(metavar="ASPECT", help="The Aspect's value (may be negative).")],
    load: Annotated[str, typer.Option("--load", metavar="N", help="Current Action Load.")] = "0",
    cost: Annotated[str, typer.Option("--cost", metavar="N", help="The action's Cost (R3).")] = "1",
    adv: Annotated[SourceList, typer.Option("--adv", metavar="SOURCE", help="A source of Advantage (R4); repeatable.")] = None,
    dis: Annotated[SourceList, typer.Option("--dis", metavar="SOURCE", help="A source of Disadvantage (R4); repeatable.")] = None,
    extra: Annotated[SourceList, typer.Option("--extra", metavar="NdX[+M]", help="Extra dice such as a weapon's 1d8 (R6); repeatable.")] = None,
    dc: Annotated[str | None, typer.Option("--dc", metavar="N", help="Succeed when the total meets it (R7).")] = None,
    evasion: Annotated[str | None, typer.Option("--evasion", metavar="N", help="Damage = total - Evasion (R7).")] = None,
    gm: Annotated[bool, typer.Option("--gm", help="A GM-called roll: skip the gate (R9).")] = False,
    ignore_load: Annotated[bool, typer.Option("--ignore-load", help="Size the pool as if Load were 0 (R9).")] = False,
    odds: OddsOption = False,
    times: TimesOption = None,
    seed: SeedOption = None,
    json_: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Roll a D4 pool: gate, pool size, dice, total (R2-R8).

    Example: d4cli roll pool 4 --adv torch --adv advice --dis darkness
    """
    from d4cli.dice import parse_extra
    from d4cli.pool import PoolRequest, plan_pool

    _refuse_unknown([aspect, *ctx.args] if aspect.startswith("-") else ctx.args)
    request = PoolRequest(
        aspect=parse_whole(aspect, "ASPECT", ASPECT),
        load=parse_whole(load, "--load", LOAD),
        cost=parse_whole(cost, "--cost", COST),
        advantage=tuple(adv or ()),
        disadvantage=tuple(dis or ()),
        extra=tuple(parse_extra(text) for text in extra or ()),
        dc=None if dc is None else parse_whole(dc, "--dc", DC),
        evasion=None if evasion is None else parse_whole(evasion, "--evasion", EVASION),
        gm=gm,
        ignore_load=ignore_load,
    )
    count = parse_times(times)
    rng = make_rng(seed)
    plan = plan_pool(request)
    check_rolled_dice(plan.dice_count, count)
    from d4cli.pool import roll_pool

    show_pool_rolls(plan, lambda: roll_pool(plan, rng), count, json_=json_, quiet=quiet, odds=odds)


def _refuse_unknown(words: list[str]) -> None:
    """Name the first word that is neither a number nor a known option of ``roll pool``.

    Raises:
        InputError: an unknown option (``--dcc``) or an extra argument.
    """
    for word in words:
        if word.startswith("-") and not word[1:].isdigit():
            name = word.split("=", 1)[0]
            raise InputError("option", name, "no such option (see 'd4cli roll pool --help')")
    if words[1:] or (words and not words[0].startswith("-")):
        raise InputError("ASPECT", " ".join(words), "unexpected extra argument")


def show_pool_rolls(
    plan: Any,
    roll_once: Callable[[], Any],
    count: int,
    *,
    json_: bool,
    quiet: bool,
    odds: bool,
    title: str = "Pool roll",
    decorate: Callable[[Any], dict[str, Any]] | None = None,
) -> None:
    """Print *count* results of *roll_once* for *plan*: a table, JSON or the bare number.

    *decorate* may add keys to each JSON object (``act`` uses it). Exits 3 when
    the gate refused (R2); nothing is rolled then.
    """
    from d4cli.jsonview import pool_json

    odds_record = None
    if odds and plan.gate.allowed:
        from d4cli.odds import pool_odds

        odds_record = pool_odds(plan)

    def to_json(result: Any) -> dict[str, Any]:
        obj = pool_json(result)
        if decorate is not None:
            obj.update(decorate(result))
        return obj

    def show(result: Any) -> None:
        from d4cli.render.roll import pool_table

        renderables = [pool_table(result, title)]
        if odds_record is not None:
            from d4cli.render.odds import render_pool_odds

            renderables.append(render_pool_odds(odds_record, plan))
        _print(*renderables)

    request = plan.request
    gate = plan.gate
    _print_rolls(
        roll_once,
        count,
        _RollOutput(
            to_json,
            lambda r: r.damage if r.damage is not None else r.total,
            show,
            lambda r: (r.total, r.success, r.damage),
        ),
        json_=json_,
        quiet=quiet,
        odds=odds,
        odds_record=odds_record,
        dc=request.dc,
        evasion=request.evasion,
        refusal=None
        if gate.allowed
        else f"refused by the gate (R2): headroom {gate.headroom} < Cost {gate.cost}, "
        f"short by {gate.shortfall}",
    )


class _RollOutput(NamedTuple):
    """How to print one kind of roll: as JSON, as its essential number, as a table, as a tally."""

    to_json: Callable[[Any], dict[str, Any]]
    essential: Callable[[Any], int | None]
    show: Callable[[Any], None]
    tally: Callable[[Any], tuple[int | None, bool | None, int | None]]


def _print_rolls(
    roll_once: Callable[[], Any],
    count: int,
    output: _RollOutput,
    *,
    json_: bool,
    quiet: bool,
    odds: bool,
    odds_record: Any,
    dc: int | None,
    evasion: int | None,
    refusal: str | None,
) -> None:
    """Roll *count* times and print each roll; --times without --json prints a tally.

    Exits 3 with *refusal* on stderr when the rules refused (R2, C4): every
    JSON object is still printed, nothing else.
    """
    odds_obj = None
    if odds and odds_record is not None:
        from d4cli.odds import odds_json

        odds_obj = odds_json(odds_record)
    summary = _Summary()
    for _ in range(count):
        result = roll_once()
        if json_:
            obj = output.to_json(result)
            if odds:
                obj["odds"] = odds_obj
            emit_json(obj)
        elif refusal is not None:
            break
        elif quiet:
            print(output.essential(result))
        elif count == 1:
            output.show(result)
        else:
            summary.add(*output.tally(result))
    if refusal is None and not json_ and not quiet and count > 1:
        _print_summary(summary, count, dc, evasion)
    if refusal is not None:
        if not json_ and not quiet:
            output.show(result)
        import sys

        sys.stderr.write(f"d4cli: {refusal}\n")
        raise typer.Exit(EXIT_REFUSED)


def _print(*renderables: Any) -> None:
    from d4cli.render import console

    out = console()
    for renderable in renderables:
        out.print(renderable)


class _Summary:
    """Running tallies for --times: constant memory whatever the count."""

    def __init__(self) -> None:
        self.totals: Counter[int] = Counter()
        self.successes = 0
        self.damage = 0

    def add(self, total: int | None, success: bool | None, damage: int | None) -> None:
        if total is None:
            return
        self.totals[total] += 1
        self.successes += bool(success)
        self.damage += damage or 0


def _print_summary(summary: _Summary, count: int, dc: int | None, evasion: int | None) -> None:
    from d4cli.render import console
    from d4cli.render.roll import summary_table

    rows = [
        (total, n, f"{100 * n / count:.1f}%") for total, n in sorted(summary.totals.items())
    ]
    out = console()
    out.print(summary_table(("Total", "Rolls", "Share"), rows, f"{count:,} rolls"))
    mean = sum(total * n for total, n in summary.totals.items()) / count
    line = f"mean total {mean:.3f}"
    if dc is not None:
        line += f"; succeeded {summary.successes:,} of {count:,} ({100 * summary.successes / count:.1f}%) against DC {dc}"
    if evasion is not None:
        line += f"; mean damage {summary.damage / count:.3f} against Evasion {evasion}"
    out.print(line)


@app.command("check")
def check_command(
    attribute: Annotated[str, typer.Option("--attribute", metavar="N", help="Derived Attribute (C1).")] = "0",
    proficiency: Annotated[str, typer.Option("--proficiency", metavar="N", help="Proficiency (C1).")] = "0",
    specialization: Annotated[str, typer.Option("--specialization", metavar="N", help="Specialization (C1).")] = "0",
    dc: Annotated[str | None, typer.Option("--dc", metavar="N|TIER", autocompletion=complete_dc_tier, help="A number or easy, medium, hard, challenging, nearly-impossible (C2).")] = None,
    advantage: Annotated[str, typer.Option("--advantage", metavar="L", help="Advantage Level 0..5 (C3).")] = "0",
    disadvantage: Annotated[str, typer.Option("--disadvantage", metavar="N", help="How many Disadvantages (C4).")] = "0",
    rule_of_three: Annotated[bool, typer.Option("--rule-of-three", help="Grade results 'and...' / 'but...' (C7).")] = False,
    odds: OddsOption = False,
    times: TimesOption = None,
    seed: SeedOption = None,
    json_: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Make a d20 Action Roll: d20 + modifiers, Advantage, crits (C1-C7).

    Example: d4cli roll check --attribute 3 --advantage 2 --dc hard --rule-of-three
    """
    from d4cli.check import CheckRequest, apply_disadvantage, parse_dc, roll_check
    from d4cli.jsonview import check_json
    from d4cli.limits import ADVANTAGE_LEVEL

    request = CheckRequest(
        attribute=parse_whole(attribute, "--attribute", MODIFIER),
        proficiency=parse_whole(proficiency, "--proficiency", MODIFIER),
        specialization=parse_whole(specialization, "--specialization", MODIFIER),
        dc=None if dc is None else parse_dc(dc),
        advantage_level=parse_whole(advantage, "--advantage", ADVANTAGE_LEVEL),
        disadvantage=parse_whole(disadvantage, "--disadvantage", DISADVANTAGE_COUNT),
        rule_of_three=rule_of_three,
    )
    count = parse_times(times)
    rng = make_rng(seed)
    impossible = apply_disadvantage(request.advantage_level, request.disadvantage).impossible
    odds_record = None
    if odds and not impossible:
        from d4cli.odds import check_odds

        odds_record = check_odds(request)

    def show(result: Any) -> None:
        from d4cli.render.roll import check_table

        renderables = [check_table(result)]
        if odds_record is not None:
            from d4cli.render.odds import render_check_odds

            renderables.append(render_check_odds(odds_record, request))
        _print(*renderables)

    _print_rolls(
        lambda: roll_check(request, rng),
        count,
        _RollOutput(
            check_json, lambda r: r.total, show, lambda r: (r.total, r.success, None)
        ),
        json_=json_,
        quiet=quiet,
        odds=odds,
        odds_record=odds_record,
        dc=request.dc,
        evasion=None,
        refusal=f"impossible (C4): {request.disadvantage} Disadvantages; nothing was rolled"
        if impossible
        else None,
    )
