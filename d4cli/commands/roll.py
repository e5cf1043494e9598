"""``d4cli roll pool`` and ``d4cli roll check`` (shared/CLI.md "Rolls")."""

# No `from __future__ import annotations` here: Typer reads these annotations on every
# run, and evaluating them at import (from cached byte code) is cheaper than compiling
# the strings again in typing.get_type_hints (issue 5, start-up).
from collections import Counter
from typing import Annotated, Any

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
from d4cli.limits import ASPECT, COST, DC, DISADVANTAGE_COUNT, EVASION, LOAD, MODIFIER, parse_whole

app = typer.Typer(help="Roll a D4 pool or a d20 Action Roll.", no_args_is_help=True)

SourceList = list[str] | None


@app.command(
    "pool",
    context_settings={"ignore_unknown_options": True},
)
def pool_command(
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

    if aspect.startswith("--"):
        raise InputError("option", aspect, "no such option (see 'd4cli roll pool --help')")
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
    show_pool_rolls(plan, rng, count, json_=json_, quiet=quiet, odds=odds)


def show_pool_rolls(
    plan: Any,
    rng: Any,
    count: int,
    *,
    json_: bool,
    quiet: bool,
    odds: bool,
    title: str = "Pool roll",
    decorate: Any = None,
) -> None:
    """Roll *plan* *count* times and print each roll (table, JSON or the bare number).

    *decorate* may add keys to each JSON object (``act`` uses it). Exits 3 when
    the gate refused (R2); nothing is rolled then.
    """
    from d4cli.jsonview import pool_json
    from d4cli.pool import roll_pool

    odds_record = None
    if odds and plan.gate.allowed:
        from d4cli.odds import pool_odds

        odds_record = pool_odds(plan)
    summary = _Summary()
    for _ in range(count):
        result = roll_pool(plan, rng)
        if json_:
            obj = pool_json(result)
            if odds:
                obj["odds"] = _odds_json(odds_record)
            if decorate is not None:
                obj.update(decorate(result))
            emit_json(obj)
        elif quiet:
            if result.allowed:
                value = result.damage if result.damage is not None else result.total
                print(value)
        elif count == 1:
            _print_pool_table(result, odds_record, title)
        else:
            summary.add(result.total, result.success, result.damage)
    if not json_ and not quiet and count > 1 and plan.gate.allowed:
        _print_summary(summary, count, plan.request.dc, plan.request.evasion)
    if not plan.gate.allowed:
        _refusal(
            f"refused by the gate (R2): headroom {plan.gate.headroom} < Cost {plan.gate.cost}, "
            f"short by {plan.gate.shortfall}"
        )


def _odds_json(record: Any) -> Any:
    if record is None:
        return None
    from d4cli.odds import odds_json

    return odds_json(record)


def _print_pool_table(result: Any, odds_record: Any, title: str) -> None:
    from d4cli.render import console
    from d4cli.render.roll import pool_table

    out = console()
    out.print(pool_table(result, title))
    if odds_record is not None:
        from d4cli.render.odds import render_pool_odds

        out.print(render_pool_odds(odds_record, result.plan))


def _refusal(message: str) -> None:
    import sys

    sys.stderr.write(f"d4cli: {message}\n")
    raise typer.Exit(EXIT_REFUSED)


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
    summary = _Summary()
    for _ in range(count):
        result = roll_check(request, rng)
        if json_:
            obj = check_json(result)
            if odds:
                obj["odds"] = _odds_json(odds_record)
            emit_json(obj)
        elif quiet:
            if not impossible:
                print(result.total)
        elif count == 1:
            from d4cli.render import console
            from d4cli.render.roll import check_table

            out = console()
            out.print(check_table(result))
            if odds_record is not None:
                from d4cli.render.odds import render_check_odds

                out.print(render_check_odds(odds_record, request))
        else:
            summary.add(result.total, result.success, None)
    if not json_ and not quiet and count > 1 and not impossible:
        _print_summary(summary, count, request.dc, None)
    if impossible:
        _refusal(f"impossible (C4): {request.disadvantage} Disadvantages; nothing was rolled")
