"""``d4cli roll pool`` and ``d4cli roll check`` (docs/cli.md "Rolls")."""

# No `from __future__ import annotations` here: Typer reads these annotations on every
# run, and evaluating them at import (from cached byte code) is cheaper than compiling
# the strings again in typing.get_type_hints (start-up).
import re
from collections.abc import Callable
from typing import Annotated, TypeVar

import typer

from d4cli.api import InputError
from d4cli.api.inputs import (
    ADVANTAGE_LEVEL,
    ASPECT,
    COST,
    DISADVANTAGE_COUNT,
    EVASION,
    LOAD,
    MODIFIER,
    check_rolled_dice,
    did_you_mean,
    parse_dc,
    parse_expression,
    parse_extras,
    parse_faces,
    parse_whole,
)
from d4cli.api.rolls import (
    CheckRequest,
    EnteredDice,
    PoolRequest,
    PoolResult,
    apply_disadvantage,
    plan_pool,
    roll_check_request,
    roll_expression,
    roll_pool_plan,
    times_dice,
)
from d4cli.cli.options import (
    AdvOption,
    CheckDcOption,
    DisOption,
    EvasionOption,
    ExtraOption,
    FacesOption,
    JsonOption,
    LabelOption,
    OddsOption,
    PoolDcOption,
    QuietOption,
    SeedOption,
    ShortOption,
    TimesOption,
    check_note,
    make_rng,
    parse_times,
)
from d4cli.output.pool_stream import write_pool_lines
from d4cli.output.printing import print_many
from d4cli.output.roll_views import CheckView, DiceView, PoolView

# Loaded only when Tab is pressed (`d4cli.cli.completion`).

app = typer.Typer(help="Roll a D4 pool, a d20 Action Roll or plain dice.", no_args_is_help=True)

SourceList = list[str] | None
R = TypeVar("R")


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
    adv: AdvOption = None,
    dis: DisOption = None,
    extra: ExtraOption = None,
    dc: PoolDcOption = None,
    evasion: EvasionOption = None,
    gm: Annotated[bool, typer.Option("--gm", help="A GM-called roll: skip the gate (R9).")] = False,
    ignore_load: Annotated[
        bool, typer.Option("--ignore-load", help="Size the pool as if Load were 0 (R9).")
    ] = False,
    odds: OddsOption = False,
    times: TimesOption = None,
    seed: SeedOption = None,
    faces: FacesOption = None,
    json_: JsonOption = False,
    quiet: QuietOption = False,
    label: LabelOption = None,
    short: ShortOption = False,
) -> None:
    """Roll a D4 pool: gate, pool size, dice, total (R2-R8).

    With --faces the dice are the faces rolled at the table: the pool's d4s, then
    the extra dice.

    Example: d4cli roll pool 4 --adv torch --adv advice --dis darkness
    """
    _refuse_unknown([aspect, *ctx.args] if aspect.startswith("-") else ctx.args, ctx)
    request = PoolRequest(
        aspect=parse_whole(aspect, "ASPECT", ASPECT),
        load=parse_whole(load, "--load", LOAD),
        cost=parse_whole(cost, "--cost", COST),
        advantage=tuple(adv or ()),
        disadvantage=tuple(dis or ()),
        extra=parse_extras(extra or ()),
        dc=None if dc is None else parse_dc(dc),
        evasion=None if evasion is None else parse_whole(evasion, "--evasion", EVASION),
        gm=gm,
        ignore_load=ignore_load,
    )
    count = parse_times(times, odds=odds)
    plan = plan_pool(request)
    check_rolled_dice(plan.dice_count, count)
    view = PoolView(
        plan, odds=odds, label=check_note(label, "--label"), short=short, entered=faces is not None
    )
    if faces is not None:
        needed = plan.dice_count if plan.gate.allowed else None
        result = _entered(faces, count, lambda rng: roll_pool_plan(plan, rng), needed)
        print_many(
            lambda: result,
            1,
            view,
            json_=json_,
            quiet=quiet or short,
            dc=request.dc,
            evasion=request.evasion,
        )
        return
    rng = make_rng(seed)
    if json_ and count > 1 and write_pool_lines(plan, rng, count, view.to_json):
        return
    # The first roll is the one --seed alone gives; the rest draw their d4s in batches,
    # as the JSON Lines do, so --json, --quiet and the summary agree for a seed.
    sources = [rng, times_dice(rng)]

    def roll_once() -> PoolResult:
        result = roll_pool_plan(plan, sources[0])
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


def _entered(faces: str, count: int, roll: Callable[[EnteredDice], R], needed: int | None) -> R:
    """The roll made of the faces entered with ``--faces``; every face used, each within its die.

    *needed* is how many dice the roll takes when known before it (a pool: its d4s and extra
    dice, R5, R6), 0 when it depends on the dice (a check's critical d6, C5), None when the
    rules roll nothing (a refusal, R2; an impossible check, C4).

    Raises:
        InputError: ``--faces`` with ``--times``; a face that is not a whole number, outside its
            die, or a count of faces other than the roll takes.
    """
    if count != 1:
        raise InputError(
            "--faces", faces, "entered faces make one roll: give --faces without --times"
        )
    rng = EnteredDice(parse_faces(faces))
    if needed and len(rng.faces) != needed:
        problem = f"{len(rng.faces)} faces entered; the roll takes exactly {needed}"
        raise InputError("--faces", faces, problem)
    result = roll(rng)
    if needed is not None:
        rng.finish()
    return result


def _refuse_unknown(words: list[str], ctx: typer.Context | None = None) -> None:
    """Name the first word that is neither a number nor a known option of ``roll pool``.

    Raises:
        InputError: an unknown option (``--dcc``) or an extra argument.
    """
    for word in words:
        if word.startswith("-") and not word[1:].isdigit():
            name = word.split("=", 1)[0]
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
    dc: CheckDcOption = None,
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
    faces: FacesOption = None,
    json_: JsonOption = False,
    quiet: QuietOption = False,
    label: LabelOption = None,
    short: ShortOption = False,
) -> None:
    """Make a d20 Action Roll: d20 + modifiers, Advantage, crits (C1-C7).

    With --faces the dice are the faces rolled at the table: the d20, then the
    d6s.

    Example: d4cli roll check --attribute 3 --dc hard --rule-of-three
    """
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
    view = CheckView(
        request,
        odds=odds,
        label=check_note(label, "--label"),
        short=short,
        entered=faces is not None,
    )
    if faces is not None:
        possible = not apply_disadvantage(request.advantage_level, request.disadvantage).impossible
        result = _entered(
            faces, count, lambda rng: roll_check_request(request, rng), 0 if possible else None
        )
        print_many(
            lambda: result, 1, view, json_=json_, quiet=quiet or short, dc=request.dc, evasion=None
        )
        return
    rng = make_rng(seed)
    print_many(
        lambda: roll_check_request(request, rng),
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
    parsed = parse_expression(expression)
    count = parse_times(times)
    rng = make_rng(seed)
    check_rolled_dice(parsed.dice_count, count)
    view = DiceView(parsed, odds=odds, label=check_note(label, "--label"))
    print_many(
        lambda: roll_expression(parsed, rng),
        count,
        view,
        json_=json_,
        quiet=quiet,
        dc=None,
        evasion=None,
    )


# Dice notation with a count, as `roll dice` reads it: ``1d20+5``, ``2d6+1d4``.
_COUNTED_DICE = re.compile(r"[0-9]+[dD][0-9]+([+-][0-9]+([dD][0-9]+)?)*")


def implied_command(word: str) -> str | None:
    """``dice`` when *word* is dice notation with a count (``d4cli roll 1d20+5`` rolls it as
    ``d4cli roll dice 1d20+5`` does), else None."""
    return "dice" if _COUNTED_DICE.fullmatch(word) else None


def unknown_command_hint(name: str) -> str:
    """The hint for ``d4cli roll d6``: ``roll dice`` for dice notation without a count
    (`implied_command` rolls notation with one), and ``roll pool N`` for plain d4s."""
    if not re.fullmatch(r"[0-9]*[dD][0-9]+([+-][0-9]+([dD][0-9]+)?)*", name):
        return ""
    text = name if name[:1].isdigit() else "1" + name
    hint = f"did you mean 'd4cli roll dice {text}'"
    pool = re.fullmatch(r"([0-9]+)[dD]4", text)
    if pool and int(pool[1]) > 0:
        hint += f" or 'd4cli roll pool {int(pool[1])}'"
    return hint + "?"
