"""How what a creature does prints: a `d4cli.output.printing.ResultView` each for an act's pool
roll (R2-R11, R16, R18), a Team Action (R2, R10, R11) and a check from a sheet (C1-C8).

``act``, ``team`` and ``check`` print through these; the refusals' one lines name the act and
the rule (`act_refusal_line`, `down_refusal`), as ``log`` would show the act. A view's JSON,
essential number and refusal need no Rich; what it draws does: its ``show`` (and the markup
of a line) imports its renderer where it draws, so that ``--json`` never loads Rich.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from d4cli.fight.actions import ActRecord
from d4cli.fight.sheet_check import CheckRecord
from d4cli.fight.team import TeamRecord
from d4cli.journal.acts import TeamChange, act_json, sheet_check_json, team_json
from d4cli.journal.entry import journal_json
from d4cli.output.creature_steps import act_steps
from d4cli.output.printing import Tally
from d4cli.output.roll_views import PoolView, gate_refusal
from d4cli.output.serialize import JsonObject
from d4cli.output.serialize.rolls_json import with_odds
from d4cli.output.steps import Step
from d4cli.rules.errors import escape_control
from d4cli.rules.pool import PoolResult

if TYPE_CHECKING:
    from d4cli.odds.roll_odds import CheckOdds

# What a dry run adds under a Team Action's or a check's steps.
DRY_RUN_NOTE = "(dry run: nothing was written)"


def down_refusal(actor: str) -> str:
    """The message of a down creature's refused act or Team Action (R18)."""
    return f"refused (R18): {escape_control(actor)} is down (0 hp) and cannot act; nothing was rolled or changed"


def act_refusal_line(record: ActRecord, reason: str) -> str:
    """The one line of a refused act: ``Borin shove (Might, Cost 3): refused by the gate (R2): ...``."""
    # The act's head is the markup `log` shows, made plain: Rich loads with it, on a refusal only.
    from d4cli.output.render.act_lines import act_refusal

    return act_refusal(act_json(record), reason)


class ActView(PoolView):
    """How an act's pool roll prints (R2-R11, R16): the ``act`` object (`act_json`, with
    ``odds`` on *odds*), or the steps table titled by the act, each source named where it
    came from (`d4cli.output.creature_steps.act_steps`), and the lines of what the act did under it.

    A refusal by the gate (R2) is the act's one line (`act_refusal_line`). *dry_run* says
    nothing was written, in the object and in the title.
    """

    def __init__(self, record: ActRecord, *, odds: bool = False, dry_run: bool = False) -> None:
        super().__init__(
            record.result.plan,
            odds=odds,
            entered=record.entered,
        )
        self.record = record
        self.dry_run = dry_run

    def base_json(self, result: PoolResult) -> JsonObject:
        return act_json(self.record, dry_run=self.dry_run)

    def steps(self, result: PoolResult) -> list[Step]:
        return act_steps(result, self.record.sources)

    def heading(self) -> str:
        from d4cli.output.render.act_lines import (
            act_title,  # drawn: Rich loads here, never for --json
        )

        return act_title(self.record, dry_run=self.dry_run)

    def lines_after(self, result: PoolResult) -> list[str]:
        from d4cli.output.render.act_lines import act_lines  # drawn, as `heading`

        return act_lines(self.record, dry_run=self.dry_run)

    def refusal(self, result: PoolResult) -> str | None:
        reason = gate_refusal(self.plan.gate)
        return None if reason is None else act_refusal_line(self.record, reason)


class TeamView:
    """How a Team Action prints (R2, R10, R11): the ``team`` object, or its steps table; a gate
    refusal (R2) or a down actor (R18) ends it. *dry_run* adds ``dry_run`` to the object and a
    line under the steps."""

    label = None

    def __init__(self, *, dry_run: bool = False) -> None:
        self.dry_run = dry_run

    def to_json(self, record: TeamRecord) -> JsonObject:
        return team_json(record, dry_run=self.dry_run)

    def essential(self, record: TeamRecord) -> int | str | None:
        return record.load_after

    def show(self, record: TeamRecord) -> None:
        from d4cli.output.render import print_renderables  # drawn: Rich loads here
        from d4cli.output.render.entry_lines import team_table

        if not record.actor_down:  # as a down creature's act: the refusal's line alone (R18)
            print_renderables(team_table(record))
        if self.dry_run:
            print(DRY_RUN_NOTE)

    def tally(self, record: TeamRecord) -> Tally:
        return Tally(None)

    def refusal(self, record: TeamRecord) -> str | None:
        reason = down_refusal(record.actor) if record.actor_down else gate_refusal(record.gate)
        if reason is None:
            return None
        # The head is the markup `log` shows, made plain: Rich loads with it, on a refusal only.
        from d4cli.output.render import plain
        from d4cli.output.render.entry_lines import team_head

        head = plain(team_head(TeamChange.read(team_json(record))))
        return f"{head} for {escape_control(record.target)}: {reason}"


class SheetCheckView:
    """How a check from a sheet prints (C1-C8): the ``check`` object (with ``odds`` on *odds*),
    or its steps table, what it used up and its exact odds (L4); *short* makes the essential the
    line ``log`` shows. Two or more Disadvantages refuse it (C4): nothing is rolled or changed.
    *dry_run* says nothing was written, in the object and under the steps."""

    label = None

    def __init__(
        self, record: CheckRecord, *, odds: bool = False, dry_run: bool = False, short: bool = False
    ) -> None:
        result = record.result
        self.odds = odds
        self.dry_run = dry_run
        self.short = short
        self.odds_record: CheckOdds | None = None
        self.odds_object: JsonObject | None = None
        if odds and not result.impossible:
            # --odds: the exact odds and their JSON load only when asked for (docs/performance.md).
            from d4cli.output.serialize.odds_json import check_odds, check_odds_json

            self.odds_record = check_odds(result.request)
            self.odds_object = check_odds_json(self.odds_record)
        self._refusal = (
            f"impossible (C4): {result.request.disadvantage} Disadvantages; nothing was rolled or changed"
            if result.impossible
            else None
        )

    def to_json(self, record: CheckRecord) -> JsonObject:
        obj = sheet_check_json(record, dry_run=self.dry_run)
        return with_odds(obj, self.odds_object) if self.odds else obj

    def essential(self, record: CheckRecord) -> int | str | None:
        if self.short:
            # The line `log` shows, made plain: Rich loads with its markup, with --short only.
            from d4cli.output.render import plain
            from d4cli.output.render.entry_lines import summary

            return plain(summary(journal_json(record))) + (" (dry run)" if self.dry_run else "")
        return record.result.total

    def show(self, record: CheckRecord) -> None:
        from d4cli.output.render import print_renderables  # drawn: Rich loads here
        from d4cli.output.render.act_lines import used_up_lines
        from d4cli.output.render.odds_charts import render_check_odds
        from d4cli.output.render.sheet_text import check_record_table

        renderables: list[object] = [check_record_table(record), *used_up_lines(record)]
        if self.odds_record is not None:
            renderables.append(render_check_odds(self.odds_record, record.result.request))
        print_renderables(*renderables)
        if self.dry_run:
            print(DRY_RUN_NOTE)

    def tally(self, record: CheckRecord) -> Tally:
        return Tally(record.result.total, record.result.success)

    def refusal(self, record: CheckRecord) -> str | None:
        return self._refusal
