"""``d4cli next``: end this fight and start the next one of the evening in the same file.

The command boundary of the evening: `d4cli.api.evening`, the bestiary and platformdirs load
here, never on another command's start-up (docs/evening.md).
"""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).
from typing import Annotated

import typer

from d4cli.api.bestiary import Bestiary, foes_of, template_foes
from d4cli.api.evening import NextPlan, start_next
from d4cli.api.templates import template_path
from d4cli.cli.bestiary_place import bestiary_folder
from d4cli.cli.completion import complete_mode
from d4cli.cli.completion.bestiary_words import complete_bestiary_creature, complete_template
from d4cli.cli.options import (
    FileOption,
    JsonOption,
    NoteOption,
    RoundResetOption,
    SourceList,
    check_note,
)
from d4cli.cli.tracker_access import open_tracker, print_change


def next_command(
    from_: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="TEMPLATE|PATH",
            autocompletion=complete_template,
            help="Bring the creatures of a template (your bestiary's, a bundled example or a file) not of the kept side.",
        ),
    ] = None,
    add: Annotated[
        SourceList,
        typer.Option(
            "--add",
            metavar='"ENTRY xN"',
            autocompletion=complete_bestiary_creature,
            help='Bring N copies of a bestiary creature ("goblin x3"; without xN, one); repeatable.',
        ),
    ] = None,
    keep: Annotated[
        str | None,
        typer.Option(
            "--keep",
            metavar="SIDE",
            help="The side that carries on (default: the side with seats, else party).",
        ),
    ] = None,
    name: Annotated[
        str | None, typer.Option("--name", metavar="TEXT", help="The new fight's name.")
    ] = None,
    mode: Annotated[
        str | None,
        typer.Option(
            "--mode",
            metavar="turn|round",
            autocompletion=complete_mode,
            help="The new fight's reset mode (R12); default: this fight's.",
        ),
    ] = None,
    round_reset: RoundResetOption = None,
    keep_effects: Annotated[
        bool,
        typer.Option(
            "--keep-effects", help="Lasting effects carry too (they end by default, R20)."
        ),
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="End a running turn with the fight.")
    ] = False,
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """End this fight and start the next; the party carries (R1).

    The fight is archived beside the file (FILE.fights/); the kept side carries
    with hp, Exhaustion, notes and seats, and Loads reset (R1). One change:
    'd4cli undo' takes it back. Seats keep their join links.

    Example: d4cli next --name "The bridge" --add "goblin x3"
    """
    bestiary = Bestiary(bestiary_folder())
    template = () if from_ is None else template_foes(template_path(from_, bestiary.folder), None)
    plan = NextPlan(
        keep=keep,
        template=template,
        foes=foes_of(bestiary, list(add or ())),
        name=name,
        mode=mode,
        round_reset=round_reset,
        keep_effects=keep_effects,
        force=force,
    )
    tracker = open_tracker(file)
    change = start_next(tracker, plan, note=check_note(note))
    print_change(change, tracker, json_=json_, note=note)
