"""``d4cli roll pool`` and ``d4cli roll check`` (docs/cli.md "Rolls")."""

# No `from __future__ import annotations` here: Typer reads these annotations on every
# run, and evaluating them at import (from cached byte code) is cheaper than compiling
# the strings again in typing.get_type_hints (start-up).
from typing import TYPE_CHECKING, Annotated, Any

import typer

from d4cli.cli.commands.common import (
    JsonOption,
    LabelOption,
    OddsOption,
    QuietOption,
    SeedOption,
    ShortOption,
    TimesOption,
    check_note,
    make_rng,
    parse_times,
)
from d4cli.cli.commands.pool_view import gate_refusal as gate_refusal
from d4cli.cli.commands.pool_view import pool_view as pool_view
from d4cli.cli.lazy import completer
from d4cli.rules.errors import InputError
from d4cli.rules.limits import (
    ASPECT,
    COST,
    DISADVANTAGE_COUNT,
    EVASION,
    LOAD,
    MODIFIER,
    check_rolled_dice,
    parse_whole,
)

if TYPE_CHECKING:
    from d4cli.rules.pool import PoolResult

JsonObject = dict[str, Any]

# Loaded only when Tab is pressed (`d4cli.cli.completion`).
complete_dc_tier = completer("d4cli.cli.completion:complete_dc_tier", ctx=False)

app = typer.Typer(help="Roll a D4 pool, a d20 Action Roll or plain dice.", no_args_is_help=True)

SourceList = list[str] | None


@app.command(
    "pool",
    # A negative Aspect (`roll pool -1 --gm`) must not read as an option; unknown
    # options are then caught by `_refuse_unknown` instead of Click.
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
def pool_command(
    ctx: typer.Context,
    aspect: Annotated[
        str, typer.Argument(metavar="ASPECT", help="The Aspect's value (may be negative).")
    ],
    load: Annotated[str, typer.Option("--load", metavar="N", help="Current Action Load.")] = "0",
    cost: Annotated[str, typer.Option("--cost", metavar="N", help="The action's Cost (R3).")] = "1",
    adv: Annotated[
        SourceList,
        typer.Option("--adv", metavar="SOURCE", help="A source of Advantage (R4); repeatable."),
    ] = None,
    dis: Annotated[
        SourceList,
        typer.Option("--dis", metavar="SOURCE", help="A source of Disadvantage (R4); repeatable."),
    ] = None,
    extra: Annotated[
        SourceList,
        typer.Option(
            "--extra", metavar="NdX[+M]", help="Extra dice such as a weapon's 1d8 (R6); repeatable."
        ),
    ] = None,
    dc: Annotated[
        str | None,
        typer.Option(
            "--dc",
            metavar="N|TIER",
            autocompletion=complete_dc_tier,
            help="Succeed when the total meets it (R7): a number or easy, medium, hard, challenging, nearly-impossible (C2).",
        ),
    ] = None,
    evasion: Annotated[
        str | None, typer.Option("--evasion", metavar="N", help="Damage = total - Evasion (R7).")
    ] = None,
    gm: Annotated[bool, typer.Option("--gm", help="A GM-called roll: skip the gate (R9).")] = False,
    ignore_load: Annotated[
        bool, typer.Option("--ignore-load", help="Size the pool as if Load were 0 (R9).")
    ] = False,
    odds: OddsOption = False,
    times: TimesOption = None,
    seed: SeedOption = None,
    json_: JsonOption = False,
    quiet: QuietOption = False,
    label: LabelOption = None,
    short: ShortOption = False,
) -> None:
    """Roll a D4 pool: gate, pool size, dice, total (R2-R8).

    Example: d4cli roll pool 4 --adv torch --adv advice --dis darkness
    """
    from d4cli.rules.dice import parse_extras
    from d4cli.rules.pool import PoolRequest, plan_pool

    _refuse_unknown([aspect, *ctx.args] if aspect.startswith("-") else ctx.args, ctx)
    request = PoolRequest(
        aspect=parse_whole(aspect, "ASPECT", ASPECT),
        load=parse_whole(load, "--load", LOAD),
        cost=parse_whole(cost, "--cost", COST),
        advantage=tuple(adv or ()),
        disadvantage=tuple(dis or ()),
        extra=parse_extras(extra or ()),
        dc=None if dc is None else _parse_dc(dc),
        evasion=None if evasion is None else parse_whole(evasion, "--evasion", EVASION),
        gm=gm,
        ignore_load=ignore_load,
    )
    count = parse_times(times, odds=odds)
    rng = make_rng(seed)
    plan = plan_pool(request)
    check_rolled_dice(plan.dice_count, count)
    label_text = check_note(label, "--label")
    view = pool_view(plan, odds=odds, label=label_text)
    if short:
        view.essential = _short_line("pool_line", "pool_json")
    if json_ and count > 1:
        from d4cli.cli.commands.jsonlines import write_pool_lines

        if write_pool_lines(plan, rng, count, view.to_json):
            return
    from d4cli.cli.commands.output import print_many
    from d4cli.rules.pool import roll_pool
    from d4cli.sim.dice import times_dice

    # The first roll is the one --seed alone gives; the rest draw their d4s in batches,
    # as the JSON Lines do, so --json, --quiet and the summary agree for a seed.
    sources = [rng, times_dice(rng)]

    def roll_once() -> "PoolResult":
        result = roll_pool(plan, sources[0])
        sources[0] = sources[-1]
        return result

    print_many(
        roll_once,
        count,
        view,
        json_=json_,
        quiet=quiet or short,
        dc=request.dc,
        evasion=request.evasion,
    )


def _short_line(line: str, to_json: str) -> Any:
    """What ``--short`` prints for a roll: `d4cli.output.render.lines` *line* of its `d4cli.output.serialize.rolls` *to_json* object."""

    def short(result: Any) -> str:
        import d4cli.output.render.lines as lines
        import d4cli.output.serialize.rolls as serialize

        return str(getattr(lines, line)(getattr(serialize, to_json)(result)))

    return short


def _refuse_unknown(words: list[str], ctx: typer.Context | None = None) -> None:
    """Name the first word that is neither a number nor a known option of ``roll pool``.

    Raises:
        InputError: an unknown option (``--dcc``) or an extra argument.
    """
    for word in words:
        if word.startswith("-") and not word[1:].isdigit():
            name = word.split("=", 1)[0]
            from d4cli.rules.suggest import did_you_mean

            known = (
                [opt for param in ctx.command.params for opt in param.opts]
                if ctx is not None
                else []
            )
            hint = did_you_mean(name, [opt for opt in known if opt.startswith("--")])
            raise InputError("option", name, "no such option (see 'd4cli roll pool --help')" + hint)
    if words[1:] or (words and not words[0].startswith("-")):
        raise InputError("ASPECT", " ".join(words), "unexpected extra argument")


@app.command("check")
def check_command(
    attribute: Annotated[
        str, typer.Option("--attribute", metavar="N", help="Derived Attribute (C1).")
    ] = "0",
    proficiency: Annotated[
        str, typer.Option("--proficiency", metavar="N", help="Proficiency (C1).")
    ] = "0",
    specialization: Annotated[
        str, typer.Option("--specialization", metavar="N", help="Specialization (C1).")
    ] = "0",
    dc: Annotated[
        str | None,
        typer.Option(
            "--dc",
            metavar="N|TIER",
            autocompletion=complete_dc_tier,
            help="A number or easy, medium, hard, challenging, nearly-impossible (C2).",
        ),
    ] = None,
    advantage: Annotated[
        str, typer.Option("--advantage", metavar="L", help="Advantage Level 0..5 (C3).")
    ] = "0",
    disadvantage: Annotated[
        str, typer.Option("--disadvantage", metavar="N", help="How many Disadvantages (C4).")
    ] = "0",
    rule_of_three: Annotated[
        bool, typer.Option("--rule-of-three", help="Grade results 'and...' / 'but...' (C7).")
    ] = False,
    odds: OddsOption = False,
    times: TimesOption = None,
    seed: SeedOption = None,
    json_: JsonOption = False,
    quiet: QuietOption = False,
    label: LabelOption = None,
    short: ShortOption = False,
) -> None:
    """Make a d20 Action Roll: d20 + modifiers, Advantage, crits (C1-C7).

    Example: d4cli roll check --attribute 3 --dc hard --rule-of-three
    """
    from d4cli.cli.commands.output import ResultView, print_many, print_renderables
    from d4cli.output.serialize.rolls import check_json, with_odds
    from d4cli.rules.action_roll import (
        CheckRequest,
        CheckResult,
        apply_disadvantage,
        parse_dc,
        roll_check,
    )
    from d4cli.rules.limits import ADVANTAGE_LEVEL

    request = CheckRequest(
        attribute=parse_whole(attribute, "--attribute", MODIFIER),
        proficiency=parse_whole(proficiency, "--proficiency", MODIFIER),
        specialization=parse_whole(specialization, "--specialization", MODIFIER),
        dc=None if dc is None else parse_dc(dc),
        advantage_level=parse_whole(advantage, "--advantage", ADVANTAGE_LEVEL),
        disadvantage=parse_whole(disadvantage, "--disadvantage", DISADVANTAGE_COUNT),
        rule_of_three=rule_of_three,
    )
    count = parse_times(times, odds=odds)
    rng = make_rng(seed)
    impossible = apply_disadvantage(request.advantage_level, request.disadvantage).impossible
    odds_record = None
    if odds and not impossible:
        from d4cli.odds.roll_odds import check_odds

        odds_record = check_odds(request)

    label_text = check_note(label, "--label")

    def as_json(result: CheckResult) -> JsonObject:
        obj = check_json(result)
        if label_text is not None:
            obj["label"] = label_text
        return with_odds(obj, odds_record) if odds else obj

    def show(result: CheckResult) -> None:
        from d4cli.output.render.roll import check_renderables

        print_renderables(*check_renderables(result, label=label_text, odds=odds_record))

    refusal = (
        f"impossible (C4): {request.disadvantage} Disadvantages; nothing was rolled"
        if impossible
        else None
    )
    view = ResultView(
        to_json=as_json,
        essential=lambda r: r.total,
        show=show,
        tally=lambda r: (r.total, r.success, None),
        refusal=lambda _: refusal,
        label=label_text,
    )
    if short:
        view.essential = _short_line("check_line", "check_json")
    print_many(
        lambda: roll_check(request, rng),
        count,
        view,
        json_=json_,
        quiet=quiet or short,
        dc=request.dc,
        evasion=None,
    )


@app.command("dice")
def dice_command(
    expression: Annotated[
        str,
        typer.Argument(
            metavar="EXPR",
            help="NdX terms and whole numbers joined by + and -, such as 2d6+1d4+3 (L2, L3).",
        ),
    ],
    odds: OddsOption = False,
    times: TimesOption = None,
    seed: SeedOption = None,
    json_: JsonOption = False,
    quiet: QuietOption = False,
    label: LabelOption = None,
) -> None:
    """Roll plain dice such as 2d6+1, explained die by die; no pool, no gate.

    Example: d4cli roll dice 2d6+1d4+3 --odds
    """
    from d4cli.cli.commands.output import ResultView, print_many, print_renderables
    from d4cli.output.serialize.rolls import dice_json, with_odds
    from d4cli.rules.dice import DiceRoll, parse_expression, roll_expression

    parsed = parse_expression(expression)
    count = parse_times(times)
    rng = make_rng(seed)
    check_rolled_dice(parsed.dice_count, count)
    label_text = check_note(label, "--label")
    odds_record = None
    if odds:
        from d4cli.odds.roll_odds import dice_odds

        odds_record = dice_odds(parsed.terms)

    def as_json(roll: DiceRoll) -> JsonObject:
        obj = dice_json(roll)
        if label_text is not None:
            obj["label"] = label_text
        return with_odds(obj, odds_record) if odds else obj

    def show(roll: DiceRoll) -> None:
        from d4cli.output.render import escape
        from d4cli.output.render.roll import dice_table

        title = "Dice" if label_text is None else f"Dice: {escape(label_text)}"
        renderables: list[object] = [dice_table(roll, title)]
        if odds_record is not None:
            from d4cli.output.render.odds import render_pool_odds

            renderables.append(render_pool_odds(odds_record))
        print_renderables(*renderables)

    view: ResultView[DiceRoll] = ResultView(
        to_json=as_json,
        essential=lambda roll: roll.total,
        show=show,
        tally=lambda roll: (roll.total, None, None),
        refusal=lambda _: None,
        label=label_text,
    )
    print_many(
        lambda: roll_expression(parsed, rng),
        count,
        view,
        json_=json_,
        quiet=quiet,
        dc=None,
        evasion=None,
    )


def unknown_command_hint(name: str) -> str:
    """The hint for ``d4cli roll 3d4``: ``roll dice`` for dice notation, and ``roll pool N`` for plain d4s."""
    import re

    if not re.fullmatch(r"[0-9]*[dD][0-9]+([+-][0-9]+([dD][0-9]+)?)*", name):
        return ""
    text = name if name[:1].isdigit() else "1" + name
    hint = f"did you mean 'd4cli roll dice {text}'"
    pool = re.fullmatch(r"([0-9]+)[dD]4", text)
    if pool and int(pool[1]) > 0:
        hint += f" or 'd4cli roll pool {int(pool[1])}'"
    return hint + "?"


def _parse_dc(text: str) -> int:
    """``--dc`` as a whole number or a tier name (C2)."""
    from d4cli.rules.action_roll import parse_dc

    return parse_dc(text)
