"""The encounter commands: init, add, remove, status, exhaust, undo, redo (docs/cli.md "Encounter").

A thin skin: parse the options (numbers with `parse_whole`), call a pure
transition of `d4cli.fight.encounter` through `d4cli.store.transaction.change` (lock, journal,
atomic write), print the record: its JSON from `d4cli.output.serialize` (the same
object the journal keeps), or one line. ``act`` and ``team`` live in `commands.act`,
``turn start|end`` in `commands.turn`, ``log`` in `commands.log`.
"""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from d4cli.cli.commands.common import (
    FileOption,
    JsonOption,
    NoteOption,
    SourceList,
    change_noting_comments,
)
from d4cli.cli.lazy import completer
from d4cli.output.stdout import emit_json
from d4cli.rules.errors import InputError
from d4cli.rules.limits import ASPECT, BUFFER, EVASION, EXHAUSTION, HP, parse_whole
from d4cli.rules.names import check_text, parse_named_number

if TYPE_CHECKING:
    from d4cli.fight.encounter import Creature, Encounter
    from d4cli.output.serialize.changes import Record

# The completers, loaded only when Tab is pressed (`d4cli.cli.completion`).
complete_creature = completer("d4cli.cli.completion:complete_creature")
complete_example = completer("d4cli.cli.completion:complete_example", ctx=False)
complete_mode = completer("d4cli.cli.completion:complete_mode", ctx=False)

# ``exhaust NAME +N`` / ``-N``: a step that could stay within the Exhaustion levels (L1).
EXHAUSTION_STEP = (-EXHAUSTION[1], EXHAUSTION[1])

R = TypeVar("R", bound="Record")


def apply_change(
    file: str | None,
    transition: "Callable[[Encounter], tuple[Encounter, R]]",
    json_: bool,
    note: str | None = None,
) -> R:
    """Run *transition* on the encounter file under its lock, then print its record (one line, or JSON).

    *note* (``--note``) is kept in the journal entry (`change_noting_comments`).
    A change that changes nothing is reported and writes nothing (`d4cli.cli.commands.unchanged`).
    """
    from d4cli.cli.commands.unchanged import Unchanged, or_unchanged, unchanged_line
    from d4cli.cli.settings import resolve_path
    from d4cli.output.serialize.changes import journal_json, record_json, unchanged_json

    changed = True
    try:
        record = change_noting_comments(resolve_path(file), or_unchanged(transition), note)
    except Unchanged as same:
        record, changed = same.record, False
    if json_:
        obj = record_json(record) if changed else unchanged_json(record_json(record))
        emit_json(obj)
    else:
        from d4cli.output.render.encounter import print_lines, summary

        if changed:
            print_lines([summary(journal_json(record))])
        else:
            print_lines([unchanged_line(summary(unchanged_json(journal_json(record))), note)])
    return record


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
    round_reset: Annotated[
        str | None,
        typer.Option(
            "--round-reset",
            metavar="buffer|zero",
            help="Round mode resets to the R1 value (buffer, the default) or to 0 (R12).",
        ),
    ] = None,
    from_: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="EXAMPLE|PATH",
            autocompletion=complete_example,
            help="Start from a bundled example (skirmish, duel, ambush) or an encounter file.",
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
    from d4cli.cli.settings import lock_timeout, resolve_path
    from d4cli.fight.encounter import MODES, ROUND_RESETS, Encounter
    from d4cli.fileformat.encounter_toml import dump_encounter, parse_encounter
    from d4cli.store.files import read_text
    from d4cli.store.transaction import create

    if mode is not None and mode not in MODES:
        raise InputError("--mode", mode, "must be 'turn' or 'round' (R12)")
    if round_reset is not None and round_reset not in ROUND_RESETS:
        raise InputError("--round-reset", round_reset, "must be 'buffer' or 'zero' (R12)")
    if name is not None:
        check_text(name, "--name")
    path = resolve_path(file)
    kept_comments = True
    if from_ is None:
        encounter = Encounter(
            name=path.stem if name is None else name,
            mode=mode or "turn",
            round_reset=round_reset or "buffer",
        )
        _check_round_reset(encounter, round_reset)
        text = dump_encounter(encounter)
    else:
        from d4cli.cli.encounter_templates import template_path

        source = template_path(from_)
        text = read_text(source)
        encounter = parse_encounter(text, source)
        changed = encounter._replace(
            mode=mode or encounter.mode,
            name=encounter.name if name is None else name,
            round_reset=round_reset or encounter.round_reset,
        )
        _check_round_reset(changed, round_reset)
        if changed != encounter:
            encounter, text, kept_comments = changed, dump_encounter(changed), False
    from d4cli.output.serialize.views import init_json, init_output_json

    details = init_json(encounter, from_)
    create(path, text, details, force=force, timeout=lock_timeout())
    if json_:
        emit_json(init_output_json(path, details))
        return
    from d4cli.output.render.encounter import init_lines, print_lines

    print_lines(init_lines(path, encounter, from_, kept_comments=kept_comments))


def _check_round_reset(encounter: "Encounter", round_reset: str | None) -> None:
    if round_reset is not None and encounter.mode != "round":
        raise InputError(
            "--round-reset", round_reset, "applies only in round mode (R12): add --mode round"
        )


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
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Add a creature at the end of the turn order (or --before/--after another); its Load starts at the reset value (R1, R13).

    Four copies of a sheet: d4cli add Goblin --count 4 --like "Goblin Archer".

    Example: d4cli add "Goblin Archer" --aspect Finesse=3 --evasion 10 --hp 7
    """
    from d4cli.fight.sheets import with_stats
    from d4cli.fight.turns import MAX_COUNT, add_creatures, numbered_names

    base = check_text(name, "NAME", name=True)
    copies = None if count is None else parse_whole(count, "--count", (1, MAX_COUNT))
    like_name = None if like is None else check_text(like, "--like")
    options = {
        "aspects": None if not aspect else tuple(parse_aspect(text) for text in aspect),
        "load_buffer": None if buffer is None else parse_whole(buffer, "--buffer", BUFFER),
        "exhaustion": None
        if exhaustion is None
        else parse_whole(exhaustion, "--exhaustion", EXHAUSTION),
        "evasion": None if evasion is None else parse_whole(evasion, "--evasion", EVASION),
        "hp": None if hp is None else parse_whole(hp, "--hp", HP),
        "max_hp": None if max_hp is None else parse_whole(max_hp, "--max-hp", HP),
    }
    stats = {
        "attributes": attribute,
        "proficiencies": proficiency,
        "specializations": specialization,
    }

    def sheet(template: "Creature | None", creature_name: str) -> "Creature":
        creature = _new_sheet(creature_name, options, template)
        if any(stats.values()) or side is not None:
            try:
                creature = with_stats(creature, {k: v for k, v in stats.items() if v}, side)
            except InputError as error:
                raise InputError(
                    f"{creature_name}: {error.field}", error.value, error.problem
                ) from None
        if hidden:
            creature = creature._replace(hidden=True)
        return creature

    # Without --like the sheet is checked before the file is even read; its numbered names need the file.
    plain = sheet(None, base) if like_name is None else None

    def transition(encounter: "Encounter") -> "tuple[Encounter, Record]":
        template = None if like_name is None else _template_creature(encounter, like_name)
        names = (base,) if copies is None else numbered_names(encounter, base, copies)
        added = tuple(
            plain if plain is not None and copies is None else sheet(template, each)
            for each in names
        )
        like_shown = None if template is None else template.name
        return add_creatures(encounter, added, before=before, after=after, like=like_shown)

    apply_change(file, transition, json_, note)


def _new_sheet(name: str, options: "dict[str, Any]", like: "Creature | None") -> "Creature":
    """The creature ``add`` makes: from the options given (`new_creature`), or a copy of
    *like*'s sheet with the options given on top (`copy_sheet`, ``--like``; R1, R18, C8).

    Raises:
        InputError: no Aspect, bad values, hp above max_hp (`new_creature`).
    """
    from d4cli.fight.encounter import new_creature
    from d4cli.fight.sheets import copy_sheet

    given = {key: value for key, value in options.items() if value is not None}
    aspects = given.pop("aspects", ())
    if like is None:
        return new_creature(name, aspects, **given)
    return copy_sheet(like, name, aspects=aspects, **given)


def _template_creature(encounter: "Encounter", name: str) -> "Creature":
    """The creature ``--like`` names (N1): of *encounter*, else of a bundled example.

    Raises:
        InputError: naming ``--like``: nobody of that name in either (with a did-you-mean).
    """
    from d4cli.fight.encounter import same_name
    from d4cli.fileformat.encounter_toml import bundled_examples, parse_encounter
    from d4cli.rules.suggest import did_you_mean
    from d4cli.store.files import read_text

    for creature in encounter.creatures:
        if same_name(creature.name, name):
            return creature
    known = [creature.name for creature in encounter.creatures]
    for path in bundled_examples().values():
        for creature in parse_encounter(read_text(path), path).creatures:
            if same_name(creature.name, name):
                return creature
            known.append(creature.name)
    examples = ", ".join(bundled_examples())
    problem = f"no such creature in the encounter or the bundled examples ({examples})"
    raise InputError("--like", name, problem + did_you_mean(name, known))


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
    from d4cli.fight.turns import remove_creature

    apply_change(file, lambda encounter: remove_creature(encounter, name), json_, note)


def status_command(
    name: Annotated[
        str | None,
        typer.Argument(
            metavar="[NAME]",
            help="Show this creature's whole sheet.",
            autocompletion=complete_creature,
        ),
    ] = None,
    at: Annotated[
        str | None,
        typer.Option(
            "--at", metavar="SEQ", help="As it stood after journal entry SEQ (replayed; read-only)."
        ),
    ] = None,
    forecast: Annotated[
        bool,
        typer.Option(
            "--forecast", help="Add one line: each side's chance to win from here (d4cli forecast)."
        ),
    ] = False,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Show the turn tracker: whose turn, Loads, headroom, who can still act at Cost 1 (R2); NAME: one sheet.

    Past the terminal's height the table becomes one line per creature.

    Example: d4cli status --json
    """
    entry = None
    if at is not None:
        if forecast:
            raise InputError("--forecast", None, "forecasts from the state as it is, not with --at")
        from d4cli.cli.commands.replay import status_at

        entry, encounter = status_at(file, at)  # as it stood after entry SEQ, replayed (read-only)
    else:
        from d4cli.cli.settings import resolve_path
        from d4cli.store import read_encounter

        encounter = read_encounter(resolve_path(file))
    if forecast:
        if name is not None:
            raise InputError("--forecast", None, "is for the whole encounter, not one sheet")
        from d4cli.cli.commands.forecast import print_status_forecast

        print_status_forecast(encounter, json_)
        return
    if name is not None:
        from d4cli.cli.commands.sheet import show_sheet

        show_sheet(encounter, name, json_=json_)
        return
    if json_:
        from d4cli.output.serialize.views import status_json

        emit_json(status_json(encounter))
        return
    if entry is not None:
        from d4cli.cli.commands.replay import print_replayed

        print_replayed(entry, encounter)
        return
    from d4cli.output.render.status import print_status

    print_status(encounter)


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
    """Set a creature's Exhaustion level, or change it by +N / -N; it changes only its reset Load (R1, R15).

    Example: d4cli exhaust Aria 2   (or: d4cli exhaust Aria +1)
    """
    from d4cli.fight.turns import set_exhaustion

    if level[:1] in ("+", "-") and level[1:].isascii() and level[1:].isdigit():
        step = parse_whole(level.removeprefix("+"), "LEVEL", EXHAUSTION_STEP)

        def transition(encounter: "Encounter") -> "tuple[Encounter, Record]":
            current = encounter.creatures[encounter.position_of(name)].exhaustion
            value = _relative(current, step, level)
            return set_exhaustion(encounter, name, value)

        apply_change(file, transition, json_, note)
        return
    value = parse_whole(level, "LEVEL", EXHAUSTION)
    apply_change(file, lambda encounter: set_exhaustion(encounter, name, value), json_, note)


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
    """Revert the newest change, restoring the file byte-for-byte (never the init).

    Example: d4cli undo
    """
    from d4cli.cli.settings import lock_timeout, resolve_path
    from d4cli.store.transaction import undo

    undone = undo(resolve_path(file), timeout=lock_timeout())
    if json_:
        from d4cli.output.serialize.views import undo_json

        emit_json(undo_json(undone.entry, undone.hand_edited))
        return
    from d4cli.output.render import console
    from d4cli.output.render.encounter import history_line, print_lines

    print_lines([history_line("Undid", undone.entry)])
    if undone.hand_edited:
        console(stderr=True).print(
            "d4cli: note: the file had been edited by hand after that change; the edit was undone too"
        )


def redo_command(file: FileOption = None, json_: JsonOption = False) -> None:
    """Put back the newest undone change, byte-for-byte (as many times as undo went back).

    Example: d4cli redo
    """
    from d4cli.cli.settings import lock_timeout, resolve_path
    from d4cli.store.transaction import redo

    redone = redo(resolve_path(file), timeout=lock_timeout())
    if json_:
        from d4cli.output.serialize.views import redo_json

        emit_json(redo_json(redone.entry))
        return
    from d4cli.output.render.encounter import history_line, print_lines

    print_lines([history_line("Redid", redone.entry)])
