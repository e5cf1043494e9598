"""The printers of results: one result (`print_one`), or N results and a summary (`print_many`).

A command describes how its kind of result prints (a `ResultView`: `d4cli.cli.commands.pool_view`
for a pool roll, `d4cli.cli.commands.act` for an act and a Team Action) and calls exactly one
of them. Both print JSON, the essential number (``--quiet``) or what the renderers of
`d4cli.output.render` make of it, and end a refused result (R2, C4) by raising
`RefusedError` carrying it, after its JSON (the contract) or its steps were printed; the
shell alone turns that into exit 3. No Rich is imported unless human output is printed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from d4cli.cli.options import emit_json
from d4cli.rules.errors import RefusedError

R = TypeVar("R")

JsonObject = dict[str, Any]
Tally = tuple[int | None, bool | None, int | None]


class ResultView(Generic[R]):
    """How one kind of result is printed (a plain class: no dataclass machinery at start-up).

    Attributes:
        to_json: its JSON object (`d4cli.output.serialize`).
        essential: what ``--quiet`` prints (total, or damage against Evasion); ``--short`` sets a one-line text.
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
        essential: Callable[[R], int | str | None],
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
        from d4cli.output.render.roll import times_summary

        print_renderables(
            *times_summary(
                count,
                summary.totals,
                summary.shown,
                successes=summary.successes,
                damage=summary.damage,
                outcomes=summary.outcomes if summary.rule_of_three else None,
                dc=dc,
                evasion=evasion,
                label=view.label,
            )
        )


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
        self.shown: list[int | str | None] = []
        self.rule_of_three = False
        self.outcomes: Counter[str] = Counter()

    def note(self, result: object, essential: int | str | None) -> None:
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


def print_renderables(*renderables: object) -> None:
    """Print Rich renderables (tables, markup lines) on stdout."""
    from d4cli.output.render import console

    out = console()
    for renderable in renderables:
        out.print(renderable)
