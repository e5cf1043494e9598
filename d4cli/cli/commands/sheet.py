"""``d4cli check`` and ``d4cli action add|remove``: checks and actions from a creature's sheet (docs/cli.md "Sheets").

A thin skin: parse, call `d4cli.api.encounter.Tracker.check` / `action_add` / `action_remove`, print
the record (its JSON from `d4cli.output.serialize`).
"""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer

from d4cli.api import InputError
from d4cli.api.encounter import SheetCheckRequest
from d4cli.api.inputs import (
    ADVANTAGE_LEVEL,
    COST,
    DISADVANTAGE_COUNT,
    check_text,
    parse_dc,
    parse_extra,
    parse_whole,
)
from d4cli.cli.completion.creatures import complete_aspect, complete_creature
from d4cli.cli.completion.sheet_names import (
    complete_action,
    complete_attribute,
    complete_proficiency,
    complete_specialization,
)
from d4cli.cli.options import (
    CheckDcOption,
    FileOption,
    JsonOption,
    NoteOption,
    OddsOption,
    QuietOption,
    SeedOption,
    SourceList,
    check_note,
)
from d4cli.cli.tracker_access import open_tracker, tell, unchanged_line
from d4cli.output.act_views import SheetCheckView
from d4cli.output.printing import print_one
from d4cli.output.render.entry_lines import print_lines, summary
from d4cli.output.serialize.change_json import action_event_json, unchanged_json
from d4cli.output.stdout import emit_json

if TYPE_CHECKING:
    from collections.abc import Iterator

    from d4cli.api.encounter import ActionEvent, CheckRecord

app = typer.Typer(
    help="Define a creature's named actions (used by 'act NAME ACTION').", no_args_is_help=True
)


def check_command(
    name: Annotated[
        str,
        typer.Argument(
            metavar="NAME",
            help="The creature that makes the check.",
            autocompletion=complete_creature,
        ),
    ],
    attribute: Annotated[
        str | None,
        typer.Option(
            "--attribute",
            metavar="NAME",
            autocompletion=complete_attribute,
            help="A stored Attribute (C1, C8).",
        ),
    ] = None,
    proficiency: Annotated[
        str | None,
        typer.Option(
            "--proficiency",
            metavar="NAME",
            autocompletion=complete_proficiency,
            help="A stored Proficiency (C1, C8).",
        ),
    ] = None,
    specialization: Annotated[
        str | None,
        typer.Option(
            "--specialization",
            metavar="NAME",
            autocompletion=complete_specialization,
            help="A stored Specialization (C1, C8).",
        ),
    ] = None,
    dc: CheckDcOption = None,
    advantage: Annotated[
        str, typer.Option("--advantage", metavar="L", help="Base Advantage Level 0..5 (C3).")
    ] = "0",
    disadvantage: Annotated[
        str, typer.Option("--disadvantage", metavar="N", help="Base count of Disadvantages (C4).")
    ] = "0",
    adv: Annotated[
        SourceList,
        typer.Option(
            "--adv", metavar="SOURCE", help="A source of Advantage: +1 level (C8); repeatable."
        ),
    ] = None,
    dis: Annotated[
        SourceList,
        typer.Option("--dis", metavar="SOURCE", help="A source of Disadvantage (C8); repeatable."),
    ] = None,
    rule_of_three: Annotated[
        bool, typer.Option("--rule-of-three", help="Grade results 'and...' / 'but...' (C7).")
    ] = False,
    note: Annotated[
        str | None, typer.Option("--note", metavar="TEXT", help="Kept with the check in the log.")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show what would happen; write nothing.")
    ] = False,
    odds: OddsOption = False,
    seed: SeedOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
    quiet: QuietOption = False,
    short: Annotated[
        bool, typer.Option("--short", help="Print the one-line summary that 'log' shows.")
    ] = False,
) -> None:
    """A d20 check from a creature's stored stats (C1-C8).

    With its grants; logged, it never changes Load.

    Example: d4cli check Aldric --attribute Willpower --dc hard
    """

    with naming(name):
        request = _check_request(
            name,
            attribute,
            proficiency,
            specialization,
            dc,
            advantage,
            disadvantage,
            adv,
            dis,
            rule_of_three,
            note,
        )
    tracker = open_tracker(file, seed, dice=True)
    change = tracker.check(request, dry_run=dry_run)
    tell(change, tracker)
    _show_check(change.record, json_=json_, odds=odds, dry_run=dry_run, quiet=quiet, short=short)


@contextmanager
def naming(creature: str) -> "Iterator[None]":
    """Re-raise an `InputError` with the creature named before its field."""
    try:
        yield
    except InputError as error:
        raise InputError(
            error.field, error.value, error.problem, mentions=error.mentions, where=creature
        ) from None


def _check_request(
    name: str,
    attribute: str | None,
    proficiency: str | None,
    specialization: str | None,
    dc: str | None,
    advantage: str,
    disadvantage: str,
    adv: SourceList,
    dis: SourceList,
    rule_of_three: bool,
    note: str | None,
) -> "SheetCheckRequest":

    return SheetCheckRequest(
        actor=name,
        attribute=None if attribute is None else check_text(attribute, "--attribute"),
        proficiency=None if proficiency is None else check_text(proficiency, "--proficiency"),
        specialization=None
        if specialization is None
        else check_text(specialization, "--specialization"),
        dc=None if dc is None else parse_dc(dc),
        advantage_level=parse_whole(advantage, "--advantage", ADVANTAGE_LEVEL),
        disadvantage=parse_whole(disadvantage, "--disadvantage", DISADVANTAGE_COUNT),
        advantage=tuple(check_text(text, "--adv", name=True) for text in adv or ()),
        disadvantage_sources=tuple(check_text(text, "--dis", name=True) for text in dis or ()),
        rule_of_three=rule_of_three,
        note=check_note(note) or "",  # one line, as every --note
    )


def _show_check(
    record: "CheckRecord",
    *,
    json_: bool,
    odds: bool,
    dry_run: bool,
    quiet: bool = False,
    short: bool = False,
) -> None:
    """Print a check (JSON, the total with *quiet*, its log line with *short*, or steps with exact
    odds on ``--odds``); exit 3 when impossible (C4), with nothing on stdout but JSON."""

    view = SheetCheckView(record, odds=odds, dry_run=dry_run, short=short)
    print_one(record, view, json_=json_, quiet=quiet or short)


def _print_event(
    event: "ActionEvent", json_: bool, *, changed: bool = True, note: str | None = None
) -> None:

    obj = action_event_json(event) if changed else unchanged_json(action_event_json(event))
    if json_:
        emit_json(obj)
        return

    print_lines([summary(obj) if changed else unchanged_line(summary(obj), note)])


@app.command("add")
def action_add_command(
    name: Annotated[
        str, typer.Argument(metavar="NAME", help="The creature.", autocompletion=complete_creature)
    ],
    action: Annotated[
        str, typer.Argument(metavar="ACTION", help="The action's name (not an Aspect's, N1).")
    ],
    aspect: Annotated[
        str,
        typer.Option(
            "--aspect", metavar="ASPECT", autocompletion=complete_aspect, help="The Aspect it uses."
        ),
    ],
    cost: Annotated[str, typer.Option("--cost", metavar="N", help="Its Cost (R3).")] = "1",
    extra: Annotated[
        SourceList, typer.Option("--extra", metavar="NdX[+M]", help="Extra dice (R6); repeatable.")
    ] = None,
    dc: Annotated[str | None, typer.Option("--dc", metavar="N", help="A default DC (R7).")] = None,
    adv: Annotated[
        SourceList,
        typer.Option(
            "--adv", metavar="SOURCE", help="A default Advantage source (R4); repeatable."
        ),
    ] = None,
    dis: Annotated[
        SourceList,
        typer.Option(
            "--dis", metavar="SOURCE", help="A default Disadvantage source (R4); repeatable."
        ),
    ] = None,
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Add or replace a named action on a sheet; 'act NAME ACTION' then uses it.

    Example: d4cli action add Aria dagger --aspect Finesse --cost 1 --extra 1d4
    """

    with naming(name):
        row = _action_row(action, aspect, cost, extra, dc, adv, dis)
    tracker = open_tracker(file)
    change = tracker.action_add(name, row, note=check_note(note))
    tell(change, tracker)
    # the very action it has: nothing written or logged
    _print_event(change.record, json_, changed=not change.unchanged, note=note)


def _action_row(
    action: str,
    aspect: str,
    cost: str,
    extra: SourceList,
    dc: str | None,
    adv: SourceList,
    dis: SourceList,
) -> dict[str, object]:

    return {
        "name": check_text(action, "ACTION", name=True),
        "aspect": check_text(aspect, "--aspect"),
        "cost": parse_whole(cost, "--cost", COST),
        "extra": [text for text in extra or () if parse_extra(text)],
        "dc": None if dc is None else parse_dc(dc),
        "advantage": [check_text(text, "--adv", name=True) for text in adv or ()],
        "disadvantage": [check_text(text, "--dis", name=True) for text in dis or ()],
    }


@app.command("remove")
def action_remove_command(
    name: Annotated[
        str, typer.Argument(metavar="NAME", help="The creature.", autocompletion=complete_creature)
    ],
    action: Annotated[
        str,
        typer.Argument(
            metavar="ACTION", help="The action to remove.", autocompletion=complete_action
        ),
    ],
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Remove a named action from a creature's sheet.

    Example: d4cli action remove Aria dagger
    """

    tracker = open_tracker(file)
    change = tracker.action_remove(name, action, note=check_note(note))
    tell(change, tracker)
    _print_event(change.record, json_)
