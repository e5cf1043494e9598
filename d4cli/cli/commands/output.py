"""The printers of results: one result (`print_one`), or N results and a summary (`print_many`).

A command calls exactly one of them (`show_act` and `team_view` set up
``act`` and ``team`` for `print_one`). Both print JSON, the essential number
(``--quiet``) or the human steps, and end a refused result (R2, C4) by raising
`RefusedError` carrying it, after its JSON (the contract) or its steps were
printed; the shell alone turns that into exit 3. No Rich is imported unless
human output is printed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from d4cli.cli.commands.common import emit_json
from d4cli.rules.errors import RefusedError

if TYPE_CHECKING:
    from d4cli.fight.actions import ActRecord, TeamRecord

R = TypeVar("R")

JsonObject = dict[str, Any]
Tally = tuple[int | None, bool | None, int | None]


class ResultView(Generic[R]):
    """How one kind of result is printed (a plain class: no dataclass machinery at start-up).

    Attributes:
        to_json: its JSON object (`d4cli.output.serialize`).
        essential: the number ``--quiet`` prints (total, or damage against Evasion).
        show: print it for people (Rich steps table and whatever follows).
        tally: ``(total, success, damage)`` for the ``--times`` summary.
        refusal: why the rules refused it (the message after ``d4cli:``), or None.
        label: what the roll is for (``--label``), shown in the ``--times`` summary too.
    """

    __slots__ = ("to_json", "essential", "show", "tally", "refusal", "label")

    def __init__(
        self,
        *,
        to_json: Callable[[R], JsonObject],
        essential: Callable[[R], int | None],
        show: Callable[[R], None],
        tally: Callable[[R], Tally],
        refusal: Callable[[R], str | None],
        label: str | None = None,
    ) -> None:
        self.to_json = to_json
        self.essential = essential
        self.show = show
        self.tally = tally
        self.refusal = refusal
        self.label = label


def print_one(result: R, view: ResultView[R], *, json_: bool, quiet: bool = False) -> None:
    """Print one result: its JSON object, its essential number, or its steps.

    Raises:
        RefusedError: the rules refused it (R2, C4); carries *result*. Its JSON
            or its steps were printed first (``--quiet`` prints nothing then).
    """
    refusal = view.refusal(result)
    if json_:
        emit_json(view.to_json(result))
    elif quiet:
        if refusal is None:
            print(view.essential(result))
    else:
        view.show(result)
    if refusal is not None:
        raise RefusedError(refusal, result)


def print_many(
    roll_once: Callable[[], R],
    count: int,
    view: ResultView[R],
    *,
    json_: bool,
    quiet: bool,
    dc: int | None,
    evasion: int | None,
) -> None:
    """Roll *count* times: JSON Lines, one number a line, or (people) a summary of the totals.

    With ``count == 1`` this is `print_one`. Memory stays constant whatever
    the count (``--times 1000000``).

    Raises:
        RefusedError: the rules refused the roll (R2, C4); with ``--json`` every
            object was printed first, else the steps of the first (nothing with ``--quiet``).
    """
    if count == 1:
        print_one(roll_once(), view, json_=json_, quiet=quiet)
        return
    if json_:
        _print_json_lines(roll_once, count, view)
        return
    summary = _Summary()
    for _ in range(count):
        result = roll_once()
        refusal = view.refusal(result)
        if refusal is not None:
            if not quiet:
                view.show(result)
            raise RefusedError(refusal, result)
        if quiet:
            print(view.essential(result))
        else:
            summary.add(*view.tally(result))
            summary.note(result, view.essential(result))
    if not quiet:
        _print_summary(summary, count, dc, evasion, view.label)


def _print_json_lines(roll_once: Callable[[], Any], count: int, view: ResultView) -> None:
    """*count* rolls as JSON Lines, each line whole even when Ctrl-C stops the run (`LineBoundary`).

    Raises:
        RefusedError: the rules refused the roll, after every object was printed.
    """
    import json
    import sys

    from d4cli.cli.commands.line_guard import LineBoundary

    result = roll_once()
    emit_json(view.to_json(result))  # first through the stream: a closed stdout stops here
    with LineBoundary() as boundary:
        for _ in range(count - 1):
            result = roll_once()
            boundary.write(sys.stdout, json.dumps(view.to_json(result)) + "\n")
    refusal = view.refusal(result)
    if refusal is not None:
        raise RefusedError(refusal, result)


# `--times` lists each roll's essential number above the summary up to this many rolls.
SHOWN_ROLLS = 20


class _Summary:
    """Running tallies for --times: constant memory whatever the count.

    Also keeps the first `SHOWN_ROLLS` essential numbers (shown above the
    summary) and, for checks under the Rule of Three (C7), how many rolls
    ended "succeeds, and..." and "fails, but...".
    """

    def __init__(self) -> None:
        self.totals: Counter[int] = Counter()
        self.successes = 0
        self.damage = 0
        self.shown: list[int | None] = []
        self.rule_of_three = False
        self.outcomes: Counter[str] = Counter()

    def note(self, result: object, essential: int | None) -> None:
        if len(self.shown) < SHOWN_ROLLS:
            self.shown.append(essential)
        request = getattr(result, "request", None)
        if getattr(request, "rule_of_three", False):
            self.rule_of_three = True
            self.outcomes[str(getattr(result, "outcome", ""))] += 1

    def add(self, total: int | None, success: bool | None, damage: int | None) -> None:
        if total is None:
            return
        self.totals[total] += 1
        self.successes += bool(success)
        self.damage += damage or 0


def _print_summary(summary: _Summary, count: int, dc: int | None, evasion: int | None, label: str | None) -> None:
    from fractions import Fraction

    from d4cli.output.render import console, escape
    from d4cli.output.render.odds import percent
    from d4cli.output.render.roll import summary_table

    def share(n: int) -> str:
        return percent(Fraction(n, count), 1)

    rows = [(total, n, share(n)) for total, n in sorted(summary.totals.items())]
    out = console()
    if summary.shown:
        more = f" (the first {len(summary.shown)})" if count > len(summary.shown) else ""
        listed = ", ".join("-" if value is None else str(value) for value in summary.shown)
        out.print(f"rolls{more}: {listed}", highlight=False)
    title = f"{count:,} rolls" if label is None else f"{count:,} rolls: {escape(label)}"
    out.print(summary_table(("Total", "Rolls", "Share"), rows, title))
    mean = _three_places(sum(total * n for total, n in summary.totals.items()), count)
    line = f"mean total {mean}"
    if dc is not None:
        line += f"; succeeded {summary.successes:,} of {count:,} ({share(summary.successes)}) against DC {dc}"
        if summary.rule_of_three:
            won, lost = summary.outcomes["success-and"], summary.outcomes["failure-but"]
            line += f"; succeeds, and... {won:,} ({share(won)}); fails, but... {lost:,} ({share(lost)}) (C7)"
    if evasion is not None:
        line += f"; mean damage {_three_places(summary.damage, count)} against Evasion {evasion}"
    out.print(line)


def _three_places(numerator: int, denominator: int) -> str:
    """``numerator / denominator`` to three decimals, rounded half up (37/16 is 2.313)."""
    from decimal import ROUND_HALF_UP, Decimal

    return str((Decimal(numerator) / Decimal(denominator)).quantize(Decimal("0.001"), ROUND_HALF_UP))


def print_renderables(*renderables: object) -> None:
    """Print Rich renderables (tables, markup lines) on stdout."""
    from d4cli.output.render import console

    out = console()
    for renderable in renderables:
        out.print(renderable)


# --- encounter results ------------------------------------------------------------------------


def show_act(
    record: ActRecord, *, json_: bool, odds: bool, dry_run: bool, quiet: bool = False, short: bool = False
) -> None:
    """Print an `ActRecord` (`print_one`): its JSON (`d4cli.output.serialize.act_json`), or its steps and what it did.

    *quiet* prints the essential number only (as ``roll pool --quiet``); *short*
    the one-line summary that ``log`` shows.

    Raises:
        RefusedError: the gate refused (R2), after the JSON or the steps were printed.
    """
    from d4cli.cli.commands.pool_view import pool_view
    from d4cli.output.serialize import act_json

    if record.actor_down:
        _refuse_down(record, json_=json_)
    result = record.result
    if short and not json_ and not quiet:
        from d4cli.output.render.encounter import print_lines, summary
        from d4cli.output.serialize import journal_json

        print_lines([summary(journal_json(record)) + (" (dry run)" if dry_run else "")])
        quiet = True  # a refusal still ends in exit 3, and nothing more is printed
        if result.allowed:
            return
    title = ""
    if not json_ and not quiet:
        from d4cli.output.render import escape

        title = f"{escape(record.actor)}: {escape(record.aspect)}"
        if record.off_turn:
            title += " (off-turn, R10)"
        if dry_run:
            title += " (dry run)"
    view = pool_view(
        result.plan,
        odds=odds,
        to_json=lambda _: act_json(record, dry_run=dry_run),
        title=title,
        after=lambda _: _print_act_effects(record, dry_run),
        steps=lambda result: _act_steps(result, record),
    )
    print_one(result, view, json_=json_, quiet=quiet)


def _act_steps(result: Any, record: ActRecord) -> Any:
    """The steps of an act's table (`d4cli.output.steps`, loaded only for a table)."""
    from d4cli.output.steps import act_steps

    return act_steps(result, record.sources)


def down_refusal(actor: str) -> str:
    """The message of a down creature's refused act or Team Action (R18)."""
    from d4cli.rules.errors import escape_control

    return f"refused (R18): {escape_control(actor)} is down (0 hp) and cannot act; nothing was rolled or changed"


def _refuse_down(record: ActRecord, *, json_: bool) -> None:
    """An act of a down creature (R18): its JSON (``allowed`` false) or nothing, then the refusal.

    Raises:
        RefusedError: always, carrying *record*.
    """
    if json_:
        from d4cli.output.serialize import act_json

        emit_json(act_json(record))
    raise RefusedError(down_refusal(record.actor), record)


def used_up_lines(record: Any) -> list[str]:
    """What a roll (an act or a check: *record* with ``grants_used`` and ``effects_ended``) used up:
    its Team Action grants (R11), then the lasting effects it ended (R20), one line each (Rich markup)."""
    from d4cli.output.render import escape

    used = [f"+{escape(n)}" for n in record.grants_used.advantage]
    used += [f"-{escape(n)}" for n in record.grants_used.disadvantage]
    lines = [f"Team Action grants used up: {', '.join(used)} (R11)"] if used else []
    for gone in record.effects_ended:
        if gone.effect.origin != "team":
            lines.append(f"{escape(gone.effect.source)} on {escape(gone.creature)} ended: {gone.reason} (R20)")
    return lines


def _print_act_effects(record: ActRecord, dry_run: bool) -> None:
    """The lines under an act's table: grants used up, damage to hp, dry run (R11, R16)."""
    from d4cli.output.render import escape

    lines = used_up_lines(record)
    if record.target_down and record.target is not None:
        lines.append(f"{escape(record.target)} is already down (R18): hp stays 0")
    elif record.hp_after is not None and record.target is not None:
        lines.append(f"{escape(record.target)}: HP {record.hp_before} -> {record.hp_after} (R16)")
        if record.hp_zero:
            lines.append(f"[red bold]{escape(record.target)} is at 0 HP: down[/] (R16, R18)")
    if dry_run:
        lines.append("Dry run: nothing was written.")
    if lines:  # most acts have none: no second console, no encounter renderers
        from d4cli.output.render.encounter import print_lines

        print_lines(lines)


def _show_team(record: TeamRecord) -> None:
    from d4cli.output.render.encounter import team_table

    print_renderables(team_table(record))


def _team_json(record: TeamRecord) -> dict[str, object]:
    from d4cli.output.serialize import team_json

    return team_json(record)


def _team_refusal(record: TeamRecord) -> str | None:
    from d4cli.cli.commands.pool_view import gate_refusal

    if record.actor_down:
        return down_refusal(record.actor)
    return gate_refusal(record.gate)


def team_view() -> ResultView[TeamRecord]:
    """How a Team Action prints: its JSON, or its steps; a gate refusal (R2) ends it."""
    return ResultView(
        to_json=_team_json,
        essential=lambda record: record.load_after,
        show=_show_team,
        tally=lambda record: (None, None, None),
        refusal=_team_refusal,
    )
