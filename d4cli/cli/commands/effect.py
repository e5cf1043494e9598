"""``d4cli effect add|remove|list``: lasting Advantage and Disadvantage sources (R4, R20)."""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from typing import Annotated

import typer

from d4cli.api import InputError
from d4cli.api.inputs import check_text, parse_whole
from d4cli.cli.completion.creatures import complete_creature, complete_effect_source
from d4cli.cli.options import FileOption, JsonOption, NoteOption, check_note
from d4cli.cli.tracker_access import open_tracker, print_change
from d4cli.output.render.effect_lines import print_effects
from d4cli.output.serialize.effects_json import effects_list_json
from d4cli.output.stdout import emit_json

app = typer.Typer(
    help="Lasting effects: named Advantage and Disadvantage sources (R20).\n\nEach source has a duration.",
    no_args_is_help=True,
)

CreatureArgument = Annotated[
    str,
    typer.Argument(
        metavar="CREATURE", help="The creature the effect is on.", autocompletion=complete_creature
    ),
]


@app.command("add")
def add_command(
    names: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="CREATURE...",
            help="The creatures the effect is on: names and shell patterns (Goblin*; N1).",
            autocompletion=complete_creature,
            show_default=False,
        ),
    ] = None,
    source: Annotated[
        str | None,
        typer.Argument(
            metavar="SOURCE",
            help="The source's name (R4): 'darkness', 'prone'.",
            show_default=False,
        ),
    ] = None,
    side: Annotated[
        str | None,
        typer.Option("--side", metavar="SIDE", help="Every creature of this side too (N1)."),
    ] = None,
    adv: Annotated[bool, typer.Option("--adv", help="A source of Advantage.")] = False,
    dis: Annotated[bool, typer.Option("--dis", help="A source of Disadvantage.")] = False,
    against: Annotated[
        bool,
        typer.Option("--against", help="Apply to rolls that target the creature, not to its own."),
    ] = False,
    start_of: Annotated[
        str | None,
        typer.Option(
            "--until-start-of",
            metavar="NAME",
            autocompletion=complete_creature,
            help="End at the start of NAME's next turn.",
        ),
    ] = None,
    end_of: Annotated[
        str | None,
        typer.Option(
            "--until-end-of",
            metavar="NAME",
            autocompletion=complete_creature,
            help="End at the end of NAME's turn (the running one, else the next).",
        ),
    ] = None,
    rounds: Annotated[
        str | None,
        typer.Option("--rounds", metavar="N", help="End when the Nth round from this one ends."),
    ] = None,
    uses: Annotated[
        str | None, typer.Option("--uses", metavar="N", help="End after N rolls it applied to.")
    ] = None,
    level: Annotated[
        str | None,
        typer.Option(
            "--level",
            metavar="L",
            help="An Advantage effect's level on checks, 1-5 (C8; default 1). Pool rolls count it once (R4).",
        ),
    ] = None,
    gm_only: Annotated[
        bool, typer.Option("--gm-only", help="Keep it off the player view (public = false).")
    ] = False,
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Put a lasting effect (R20); one with the same source and grant is replaced.

    The same source and grant again replaces the effect (R4). Several names,
    patterns (Goblin*) and --side SIDE (every creature of a side: --side foes) are
    one change: one line each, one undo.

    --level L (1-5, --adv only, not --against) raises a check's Advantage Level by
    L (C8).

    Example: d4cli effect add Aria blinded --dis --until-end-of Aria
    """
    # Click hands the last word to SOURCE: one word alone is a source only with --side.
    if source is None or (not names and side is None):
        raise InputError(
            "SOURCE", None, "missing: give the creature (or --side SIDE) and the source name"
        )

    if adv == dis:
        raise InputError("--adv/--dis", None, "give exactly one of --adv and --dis")
    count = (1, 1_000_000)
    rounds_n = None if rounds is None else parse_whole(rounds, "--rounds", count)
    uses_n = None if uses is None else parse_whole(uses, "--uses", count)
    if level is not None and dis:
        raise InputError("--level", level, "only an Advantage effect (--adv) has a level (C8)")
    if level is not None and against:
        raise InputError(
            "--level",
            level,
            "an --against effect has no level: it counts on pool rolls only, never on checks (C8)",
        )
    level_n = 1 if level is None else parse_whole(level, "--level", (1, 5))
    grant = "advantage" if adv else "disadvantage"

    tracker = open_tracker(file)
    change = tracker.effect_add(
        names or [],
        source,
        grant,
        against=against,
        start_of=start_of,
        end_of=end_of,
        rounds=rounds_n,
        uses=uses_n,
        level=level_n,
        public=not gm_only,
        side=side,
        note=check_note(note),
    )
    print_change(change, tracker, json_=json_, note=note)


@app.command("remove")
def remove_command(
    name: CreatureArgument,
    source: Annotated[
        str,
        typer.Argument(
            metavar="SOURCE", help="The effect's source.", autocompletion=complete_effect_source
        ),
    ],
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Take a lasting effect off a creature (R20).

    Example: d4cli effect remove Aria darkness
    """

    check_text(source, "SOURCE", name=True)
    tracker = open_tracker(file)
    change = tracker.effect_remove(name, source, note=check_note(note))
    print_change(change, tracker, json_=json_, note=note)


@app.command("list")
def list_command(
    name: Annotated[
        str | None,
        typer.Argument(
            metavar="[CREATURE]",
            help="Only this creature's effects.",
            autocompletion=complete_creature,
        ),
    ] = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """List the lasting effects and what is left of each (R20).

    Example: d4cli effect list Aria --json
    """

    encounter = open_tracker(file).status()
    if name is not None:
        encounter.find(name, "CREATURE")
    if json_:
        emit_json(effects_list_json(encounter, name))
        return

    print_effects(encounter, name)
