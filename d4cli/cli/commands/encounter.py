"""The encounter commands: init, add, remove, exhaust, undo, redo (docs/cli.md "Encounter").

A thin skin: parse the options (numbers with `parse_whole`), call one method of
`d4cli.api.encounter.Tracker` (lock, journal, atomic write), print the record it returns: its JSON
from `d4cli.output.serialize` (the same object the journal keeps), or one line.
"""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from d4cli.api import InputError
from d4cli.api.add_sheets import AddSpec
from d4cli.api.inputs import (
    ASPECT,
    BUFFER,
    EVASION,
    EXHAUSTION,
    HP,
    MAX_COUNT,
    check_text,
    parse_named_number,
    parse_whole,
)
from d4cli.api.templates import new_encounter
from d4cli.api.tracker import Tracker
from d4cli.cli.completion import complete_mode
from d4cli.cli.completion.creatures import complete_creature
from d4cli.cli.options import (
    FileOption,
    JsonOption,
    NoteOption,
    RoundResetOption,
    SourceList,
    check_note,
)
from d4cli.cli.settings import lock_timeout, resolve_path
from d4cli.cli.slips import record_names, say_note, unsided_note
from d4cli.cli.tracker_access import open_tracker, print_change
from d4cli.output.render.entry_lines import history_line, init_lines, print_lines
from d4cli.output.serialize.encounter_json import (
    init_output_json,
    redo_json,
    undo_json,
)
from d4cli.output.stdout import emit_json
from d4cli.output.wrap import say

if TYPE_CHECKING:
    from pathlib import Path

    from d4cli.api.encounter import Creature, Record

# ``exhaust NAME +N`` / ``-N``: a step that could stay within the Exhaustion levels (L1).
EXHAUSTION_STEP = (-EXHAUSTION[1], EXHAUSTION[1])

R = TypeVar("R", bound="Record")


def complete_template_name(incomplete: str) -> list[str]:
    """Tab on ``init --from``: the bestiary's templates and the bundled examples; the
    bestiary is read only on that Tab press (`d4cli.cli.completion.bestiary_words`)."""
    from d4cli.cli.completion.bestiary_words import complete_template

    return complete_template(incomplete)


def complete_entry_name(incomplete: str) -> list[str]:
    """Tab on ``add --from``: the bestiary's creatures, read only on that Tab press."""
    from d4cli.cli.completion.bestiary_words import complete_bestiary_creature

    return complete_bestiary_creature(incomplete)


def init_command(
    mode: Annotated[
        str | None,
        typer.Option(
            "--mode",
            metavar="turn|round",
            autocompletion=complete_mode,
            help="When Loads reset (R12); default turn, or the template's.",
        ),
    ] = None,
    round_reset: RoundResetOption = None,
    from_: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="EXAMPLE|PATH",
            autocompletion=complete_template_name,
            help="Start from a template of your bestiary, a bundled example (skirmish, duel, ambush) or a file.",
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing encounter file.")
    ] = False,
    name: Annotated[
        str | None, typer.Option("--name", metavar="TEXT", help="The encounter's name.")
    ] = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Create an encounter file, empty or from an example (R12).

    Example: d4cli init --from skirmish
    """

    path = resolve_path(file)
    made = new_encounter(
        path,
        name=name,
        mode=mode,
        round_reset=round_reset,
        template=from_,
        bestiary=None if from_ is None else _bestiary_folder(),
    )
    Tracker.create(path, made.text, made.details, force=force, lock_timeout=lock_timeout())
    if json_:
        emit_json(init_output_json(path, made.details))
        return
    print_lines(init_lines(path, made.encounter, from_, kept_comments=made.kept_comments))


def _bestiary_folder() -> "Path":
    """The GM's bestiary folder, for ``--from`` alone (platformdirs loads only then)."""
    from d4cli.cli.bestiary_place import bestiary_folder

    return bestiary_folder()


def bestiary_sheet(entry: str) -> "Creature":
    """The sheet of the bestiary creature *entry* (``add --from``).

    Raises:
        InputError: naming ``--from``: no such creature (with a did-you-mean).
    """
    from d4cli.api.bestiary import Bestiary

    return Bestiary(_bestiary_folder()).creature(entry, "--from")


def parse_aspect(text: str) -> tuple[str, int]:
    """Parse ``--aspect NAME=N`` (L1, L3; `d4cli.rules.names.parse_named_number`).

    Raises:
        InputError: not UTF-8 text, no ``=``, no name, several Aspects in one
            option, or a value that is not a whole number in range.
    """
    return parse_named_number(text, "--aspect", ASPECT, noun="ASPECT", example="Might=3")


def add_command(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The creature's name (unique, N1).")],
    aspect: Annotated[
        SourceList,
        typer.Option(
            "--aspect",
            metavar="ASPECT=N",
            help="An Aspect and its value; repeatable (needed unless --like).",
        ),
    ] = None,
    buffer: Annotated[
        str | None, typer.Option("--buffer", metavar="N", help="Load Buffer (R1); default 1.")
    ] = None,
    exhaustion: Annotated[
        str | None,
        typer.Option("--exhaustion", metavar="N", help="Exhaustion level (R15); default 0."),
    ] = None,
    evasion: Annotated[
        str | None,
        typer.Option("--evasion", metavar="N", help="Evasion against attacks (R7); default 0."),
    ] = None,
    hp: Annotated[
        str | None,
        typer.Option(
            "--hp",
            metavar="N",
            help="Hit points, if tracked (R16); also max_hp unless --max-hp says otherwise (R18).",
        ),
    ] = None,
    max_hp: Annotated[
        str | None,
        typer.Option(
            "--max-hp", metavar="N", help="Healing stops here (R18); hp starts here without --hp."
        ),
    ] = None,
    before: Annotated[
        str | None,
        typer.Option(
            "--before",
            metavar="OTHER",
            autocompletion=complete_creature,
            help="Add it just before OTHER (R13).",
        ),
    ] = None,
    after: Annotated[
        str | None,
        typer.Option(
            "--after",
            metavar="OTHER",
            autocompletion=complete_creature,
            help="Add it just after OTHER (R13).",
        ),
    ] = None,
    attribute: Annotated[
        SourceList,
        typer.Option("--attribute", metavar="NAME=N", help="A stored Attribute (C8); repeatable."),
    ] = None,
    proficiency: Annotated[
        SourceList,
        typer.Option(
            "--proficiency", metavar="NAME=N", help="A stored Proficiency (C8); repeatable."
        ),
    ] = None,
    specialization: Annotated[
        SourceList,
        typer.Option(
            "--specialization", metavar="NAME=N", help="A stored Specialization (C8); repeatable."
        ),
    ] = None,
    side: Annotated[
        str | None,
        typer.Option("--side", metavar="TEXT", help="The creature's side, such as party or foes."),
    ] = None,
    count: Annotated[
        str | None,
        typer.Option(
            "--count",
            metavar="N",
            help="Add N creatures named 'NAME 1'..'NAME N', skipping names in use (1..100).",
        ),
    ] = None,
    like: Annotated[
        str | None,
        typer.Option(
            "--like",
            metavar="OTHER",
            autocompletion=complete_creature,
            help="Copy OTHER's sheet: a creature of the encounter, else of a bundled example.",
        ),
    ] = None,
    hidden: Annotated[
        bool,
        typer.Option("--hidden", help="Keep it off the player view until 'd4cli reveal NAME'."),
    ] = False,
    from_: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="ENTRY",
            autocompletion=complete_entry_name,
            help="Copy the sheet of a creature of your bestiary (d4cli bestiary).",
        ),
    ] = None,
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Add a creature to the turn order (R1, R13).

    It goes at the end of the turn order (or --before/--after another); its Load
    starts at the reset value (R1, R13).

    Four copies of a sheet: d4cli add Goblin --count 4 --like "Goblin Archer".
    From your bestiary: d4cli add Goblin --from goblin --count 3.

    Example: d4cli add "Goblin Archer" --aspect Finesse=3 --evasion 10 --hp 7
    """
    base = check_text(name, "NAME", name=True)
    if from_ is not None and like is not None:
        raise InputError(
            "--from", from_, "copies a sheet as {like} does: give one of them", mentions=("like",)
        )
    copies = None if count is None else parse_whole(count, "--count", (1, MAX_COUNT))
    spec = AddSpec(
        name=base,
        aspects=None if not aspect else tuple(parse_aspect(text) for text in aspect),
        load_buffer=None if buffer is None else parse_whole(buffer, "--buffer", BUFFER),
        exhaustion=None
        if exhaustion is None
        else parse_whole(exhaustion, "--exhaustion", EXHAUSTION),
        evasion=None if evasion is None else parse_whole(evasion, "--evasion", EVASION),
        hp=None if hp is None else parse_whole(hp, "--hp", HP),
        max_hp=None if max_hp is None else parse_whole(max_hp, "--max-hp", HP),
        stats={
            "attributes": attribute or (),
            "proficiencies": proficiency or (),
            "specializations": specialization or (),
        },
        side=side,
        hidden=hidden,
        copies=copies,
        like=None if like is None else check_text(like, "--like"),
        sheet=None if from_ is None else bestiary_sheet(from_),
    )
    tracker = open_tracker(file)
    change = tracker.add(spec, before=before, after=after, note=check_note(note))
    print_change(change, tracker, json_=json_, note=note)
    if change.written and spec.side is None:
        say_note(unsided_note(change.encounter, record_names(change.record)))


def remove_command(
    name: Annotated[
        str,
        typer.Argument(
            metavar="NAME", help="The creature to remove.", autocompletion=complete_creature
        ),
    ],
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Remove a creature; the turn never moves to someone else (R17).

    Example: d4cli remove "Goblin Archer"
    """
    tracker = open_tracker(file)
    print_change(tracker.remove(name, note=check_note(note)), tracker, json_=json_, note=note)


def exhaust_command(
    name: Annotated[
        str, typer.Argument(metavar="NAME", help="The creature.", autocompletion=complete_creature)
    ],
    level: Annotated[
        str,
        typer.Argument(
            metavar="LEVEL", help="The Exhaustion level, 0 or more; or +N / -N to change it."
        ),
    ],
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Set or change a creature's Exhaustion level (R1, R15).

    Give the level, or change it by +N / -N; it changes only the creature's reset
    Load (R1, R15).

    Example: d4cli exhaust Aria 2   (or: d4cli exhaust Aria +1)
    """
    value: int | Callable[[int], int]
    if level[:1] in ("+", "-") and level[1:].isascii() and level[1:].isdigit():
        step = parse_whole(level.removeprefix("+"), "LEVEL", EXHAUSTION_STEP)

        def value(current: int) -> int:
            return _relative(current, step, level)

    else:
        value = parse_whole(level, "LEVEL", EXHAUSTION)
    tracker = open_tracker(file)
    print_change(
        tracker.exhaust(name, value, note=check_note(note)), tracker, json_=json_, note=note
    )


def _relative(current: int, step: int, text: str) -> int:
    """The Exhaustion level *current* + *step* (``exhaust NAME +1``), checked like an absolute level.

    Raises:
        InputError: naming LEVEL, when the result leaves the range of levels.
    """
    try:
        return parse_whole(str(current + step), "LEVEL", EXHAUSTION)
    except InputError as error:
        raise InputError(
            "LEVEL", text, f"would make Exhaustion {current + step}: {error.problem}"
        ) from None


def undo_command(file: FileOption = None, json_: JsonOption = False) -> None:
    """Revert the newest change, restoring the file byte-for-byte.

    The init is never undone.

    Example: d4cli undo
    """
    undone = open_tracker(file).undo()
    if json_:
        emit_json(undo_json(undone.entry, undone.hand_edited))
        return

    print_lines([history_line("Undid", undone.entry)])
    if undone.hand_edited:
        sys.stdout.flush()
        say(
            "d4cli: note: ",
            "the file had been edited by hand after that change; the edit was undone too",
        )


def redo_command(file: FileOption = None, json_: JsonOption = False) -> None:
    """Put back the newest undone change, byte-for-byte.

    As many times as undo went back.

    Example: d4cli redo
    """
    redone = open_tracker(file).redo()
    if json_:
        emit_json(redo_json(redone.entry))
        return

    print_lines([history_line("Redid", redone.entry)])
