"""The printers of results: one result (`print_one`), or N results and a summary (`print_many`).

A command says how its kind of result prints with a `ResultView` (`d4cli.output.roll_views`
for the rolls, `d4cli.output.act_views` for an act, a Team Action and a sheet check) and
calls exactly one of the printers. Both print JSON, the essential number (``--quiet``) or
what the renderers of `d4cli.output.render` make of it, and end a refused result (R2, C4)
by raising `RefusedError` carrying it, after its JSON (the contract) or its steps were
printed; the shell alone turns that into exit 3. No Rich here: a view's ``show`` and the
``--times`` summary import their renderers where they draw.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable
from typing import NamedTuple, Protocol, TypeVar

from d4cli.output.line_guard import LineBoundary
from d4cli.output.serialize import JsonObject
from d4cli.output.stdout import emit_json
from d4cli.rules.errors import RefusedError

R = TypeVar("R")
R_contra = TypeVar("R_contra", contravariant=True)


# `--times` lists each roll's essential number above the summary up to this many rolls.
SHOWN_ROLLS = 20


class Tally(NamedTuple):
    """What the ``--times`` summary counts of one roll.

    Attributes:
        total: the roll's total (R7, C1, L3); None when nothing was rolled.
        success: whether it met the DC (R7, C2); None without one.
        damage: the damage against the Evasion (R7); None without one.
        graded: the outcome under the Rule of Three (``success-and``, ``failure-but`` ..., C7);
            None when the roll is not graded so.
    """

    total: int | None
    success: bool | None = None
    damage: int | None = None
    graded: str | None = None


class ResultView(Protocol[R_contra]):
    """How one kind of result prints: a class per kind implements these five methods.

    Attributes:
        label: what the roll is for (``--label``), shown in the ``--times`` summary too.
    """

    @property
    def label(self) -> str | None: ...

    def to_json(self, result: R_contra) -> JsonObject:
        """Its JSON object (`d4cli.output.serialize`)."""
        ...

    def essential(self, result: R_contra) -> int | str | None:
        """What ``--quiet`` prints: the total or the damage against the Evasion; with
        ``--short`` the one-line text of the roll."""
        ...

    def show(self, result: R_contra) -> None:
        """Print it for people: the steps table and whatever follows."""
        ...

    def tally(self, result: R_contra) -> Tally:
        """What the ``--times`` summary counts of it."""
        ...

    def refusal(self, result: R_contra) -> str | None:
        """Why the rules refused it (the message after ``d4cli:``), or None."""
        ...


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
    elif json_:
        _print_json_lines(roll_once, count, view)
    elif quiet:
        _print_essentials(roll_once, count, view)
    else:
        _print_summary(roll_once, count, view, dc=dc, evasion=evasion)


def _print_json_lines(roll_once: Callable[[], R], count: int, view: ResultView[R]) -> None:
    """*count* rolls as JSON Lines, each line whole even when Ctrl-C stops the run (`LineBoundary`).

    Raises:
        RefusedError: the rules refused the roll, after every object was printed.
    """
    result = roll_once()
    emit_json(view.to_json(result))  # first through the stream: a closed stdout stops here
    with LineBoundary() as boundary:
        for _ in range(count - 1):
            result = roll_once()
            boundary.write(sys.stdout, json.dumps(view.to_json(result)) + "\n")
    refusal = view.refusal(result)
    if refusal is not None:
        raise RefusedError(refusal, result)


def _print_essentials(roll_once: Callable[[], R], count: int, view: ResultView[R]) -> None:
    """*count* rolls, the essential number of each on its own line (``--quiet``, ``--short``).

    Raises:
        RefusedError: the rules refused the roll; nothing was printed.
    """
    for _ in range(count):
        result = roll_once()
        refusal = view.refusal(result)
        if refusal is not None:
            raise RefusedError(refusal, result)
        print(view.essential(result))


def _print_summary(
    roll_once: Callable[[], R],
    count: int,
    view: ResultView[R],
    *,
    dc: int | None,
    evasion: int | None,
) -> None:
    """*count* rolls as one summary (`d4cli.output.render.roll_steps.times_summary`) against *dc* or *evasion*.

    Raises:
        RefusedError: the rules refused the roll, after the steps of the first were printed.
    """
    from d4cli.output.render import print_renderables  # drawn: Rich loads here
    from d4cli.output.render.roll_steps import times_summary

    summary = _Summary()
    for _ in range(count):
        result = roll_once()
        refusal = view.refusal(result)
        if refusal is not None:
            view.show(result)
            raise RefusedError(refusal, result)
        summary.add(view.tally(result), view.essential(result))
    print_renderables(
        *times_summary(
            count,
            summary.totals,
            summary.shown,
            successes=summary.successes,
            damage=summary.damage,
            outcomes=summary.outcomes if summary.graded else None,
            dc=dc,
            evasion=evasion,
            label=view.label,
        )
    )


class _Summary:
    """Running tallies for ``--times``: constant memory whatever the count.

    Also keeps the first `SHOWN_ROLLS` essential numbers (shown above the
    summary) and, for checks under the Rule of Three (C7), how many rolls
    ended "succeeds, and..." and "fails, but...".
    """

    def __init__(self) -> None:
        self.totals: Counter[int] = Counter()
        self.successes = 0
        self.damage = 0
        self.shown: list[int | str | None] = []
        self.graded = False
        self.outcomes: Counter[str] = Counter()

    def add(self, tally: Tally, essential: int | str | None) -> None:
        if len(self.shown) < SHOWN_ROLLS:
            self.shown.append(essential)
        if tally.graded is not None:
            self.graded = True
            self.outcomes[tally.graded] += 1
        if tally.total is None:
            return
        self.totals[tally.total] += 1
        self.successes += bool(tally.success)
        self.damage += tally.damage or 0
