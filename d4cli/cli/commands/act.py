"""A creature acts: ``act`` (the D4 pool, or one of its named actions) and ``team`` (docs/cli.md "Encounter").

A thin skin: parse the options, call `d4cli.api.encounter.Tracker.act` / `team`, print the record
through its view (`d4cli.output.act_views`).
"""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from typing import TYPE_CHECKING, Annotated

import typer

from d4cli.api import InputError, RefusedError
from d4cli.api.encounter import TEAM_SOURCE, GrantKind
from d4cli.api.inputs import (
    COST,
    EVASION,
    check_text,
    parse_dc,
    parse_extras,
    parse_faces,
    parse_whole,
)
from d4cli.cli.completion.creatures import (
    complete_aspect,
    complete_creature,
    complete_other_creature,
)
from d4cli.cli.completion.sheet_names import complete_aspect_or_action
from d4cli.cli.options import (
    AdvOption,
    DisOption,
    EvasionOption,
    ExtraOption,
    FacesOption,
    FileOption,
    JsonOption,
    NoteOption,
    OddsOption,
    PoolDcOption,
    QuietOption,
    SeedOption,
    check_note,
)
from d4cli.cli.tracker_access import open_tracker, tell
from d4cli.output.act_views import ActView, TeamView, act_refusal_line, down_refusal
from d4cli.output.printing import print_one
from d4cli.output.serialize.change_json import act_json, journal_json
from d4cli.output.stdout import emit_json

if TYPE_CHECKING:
    from d4cli.api.encounter import ActRecord


def act_command(
    name: Annotated[
        str,
        typer.Argument(
            metavar="NAME", help="The creature that acts.", autocompletion=complete_creature
        ),
    ],
    aspect: Annotated[
        str,
        typer.Argument(
            metavar="ASPECT|ACTION",
            help="The Aspect it uses, or one of its named actions.",
            autocompletion=complete_aspect_or_action,
        ),
    ],
    cost: Annotated[
        str | None,
        typer.Option(
            "--cost", metavar="N", help="The action's Cost (R3); default 1, or the named action's."
        ),
    ] = None,
    adv: AdvOption = None,
    dis: DisOption = None,
    extra: ExtraOption = None,
    dc: PoolDcOption = None,
    target: Annotated[
        str | None,
        typer.Option(
            "--target",
            metavar="NAME",
            autocompletion=complete_other_creature,
            help="Attack a creature: its Evasion, damage to its hp (R7, R16).",
        ),
    ] = None,
    evasion: EvasionOption = None,
    gm: Annotated[
        bool,
        typer.Option(
            "--gm", help="A GM-called roll for this creature: no gate, Load unchanged (R9)."
        ),
    ] = False,
    ignore_load: Annotated[
        bool, typer.Option("--ignore-load", help="With --gm: size the pool as if Load were 0 (R9).")
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show what would happen; write nothing.")
    ] = False,
    odds: OddsOption = False,
    seed: SeedOption = None,
    faces: FacesOption = None,
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
    quiet: QuietOption = False,
    short: Annotated[
        bool, typer.Option("--short", help="Print the one-line summary that 'log' shows.")
    ] = False,
) -> None:
    """A creature acts: gate, pool, roll, Load, damage (R2-R11, R16).

    Its Load goes up by the Cost (R8); off its turn the act is a reaction (R10).

    With --gm it is a GM-called roll for the creature: no gate, Load unchanged
    (R9). With --faces the dice are the faces rolled at the table: the pool's d4s,
    then the extra dice.

    Example: d4cli act Aria Finesse --extra 1d4 --target "Goblin Archer"
    """
    parsed_cost = None if cost is None else parse_whole(cost, "--cost", COST)
    extras = None if extra is None else parse_extras(extra)
    parsed_dc = None if dc is None else parse_dc(dc)
    parsed_evasion = None if evasion is None else parse_whole(evasion, "--evasion", EVASION)
    checked = check_note(note)
    entered = None if faces is None else parse_faces(faces)
    tracker = open_tracker(file, seed, dice=True)
    change = tracker.act(
        name,
        aspect,
        cost=parsed_cost,
        advantage=adv,
        disadvantage=dis,
        extra=extras,
        dc=parsed_dc,
        target=target,
        evasion=parsed_evasion,
        gm=gm,
        ignore_load=ignore_load,
        dry_run=dry_run,
        note=checked,
        faces=entered,
    )
    tell(change, tracker)
    record = change.record
    show_act(record, json_=json_, odds=odds, dry_run=dry_run, quiet=quiet, short=short)


def team_command(
    actor: Annotated[
        str,
        typer.Argument(
            metavar="ACTOR",
            help="The creature that pays the Team Action.",
            autocompletion=complete_creature,
        ),
    ],
    target: Annotated[
        str,
        typer.Argument(
            metavar="TARGET",
            help="The creature whose next roll gets the grant.",
            autocompletion=complete_creature,
        ),
    ],
    adv: Annotated[bool, typer.Option("--adv", help="Grant Advantage.")] = False,
    dis: Annotated[bool, typer.Option("--dis", help="Grant Disadvantage.")] = False,
    aspect: Annotated[
        str | None,
        typer.Option(
            "--aspect",
            metavar="ASPECT",
            autocompletion=complete_aspect,
            help="The Aspect that pays (needed unless ACTOR has one).",
        ),
    ] = None,
    cost: Annotated[str, typer.Option("--cost", metavar="N", help="The Cost (R3).")] = "1",
    source: Annotated[
        str | None,
        typer.Option(
            "--source", metavar="NAME", help="The grant's source name (default 'team action')."
        ),
    ] = None,
    note: NoteOption = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show what would happen; write nothing.")
    ] = False,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """A Team Action: a grant on another creature's next roll (R11).

    ACTOR pays through its gate; TARGET's next roll gets Advantage or Disadvantage
    (R11).

    Example: d4cli team Borin "Goblin Archer" --dis --aspect Might
    """
    if adv == dis:
        raise InputError("--adv/--dis", None, "give exactly one of --adv and --dis")
    parsed_cost = parse_whole(cost, "--cost", COST)
    grant_source = TEAM_SOURCE if source is None else check_text(source, "--source", name=True)
    checked = check_note(note)
    tracker = open_tracker(file)
    change = tracker.team(
        actor,
        target,
        GrantKind.ADVANTAGE if adv else GrantKind.DISADVANTAGE,
        aspect=aspect,
        cost=parsed_cost,
        source=grant_source,
        dry_run=dry_run,
        note=checked,
    )
    tell(change, tracker)
    print_one(change.record, TeamView(dry_run=dry_run), json_=json_)


# --- how an act and a Team Action print ---------------------------------------------------------


def show_act(
    record: "ActRecord",
    *,
    json_: bool,
    odds: bool,
    dry_run: bool,
    quiet: bool = False,
    short: bool = False,
) -> None:
    """Print an `ActRecord` (`print_one`): its JSON (`d4cli.journal.acts.act_json`), or its steps and what it did.

    *quiet* prints the essential number only (as ``roll pool --quiet``); *short*
    the one-line summary that ``log`` shows. A refusal's one line (R2, R18) names the
    act and the rule, on stderr (`d4cli.output.render.act_lines.act_refusal`): with
    *short* or *quiet* nothing else.

    Raises:
        RefusedError: the gate refused (R2) or the actor is down (R18), after the JSON
            or the steps were printed.
    """

    if record.actor_down:
        _refuse_down(record, json_=json_)
    result = record.result
    if short and not json_ and not quiet:
        if result.allowed:
            # The line `log` shows (markup): drawn, so Rich loads here, never for --json.
            from d4cli.output.render.entry_lines import print_lines, summary

            print_lines([summary(journal_json(record)) + (" (dry run)" if dry_run else "")])
            return
        quiet = True  # the refusal's one line, and nothing more
    print_one(result, ActView(record, odds=odds, dry_run=dry_run), json_=json_, quiet=quiet)


def _refuse_down(record: "ActRecord", *, json_: bool) -> None:
    """An act of a down creature (R18): its JSON (``allowed`` false) or nothing, then the refusal.

    Raises:
        RefusedError: always, carrying *record*.
    """

    if json_:
        emit_json(act_json(record))
    raise RefusedError(act_refusal_line(record, down_refusal(record.actor)), record)
