"""The encounter commands: init, add, remove, status, act, team, exhaust, undo, redo (docs/cli.md "Encounter").

A thin skin: parse the options (numbers with `parse_whole`), call a pure
transition of `d4cli.encounter` through `d4cli.store.change` (lock, journal,
atomic write), print the record: its JSON from `d4cli.serialize` (the same
object the journal keeps), or one line. ``turn start|end`` live in `commands.turn`,
``log`` in `commands.log`.
"""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/commands/roll.py).

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from d4cli.commands.common import (
    JsonOption,
    NoteOption,
    OddsOption,
    QuietOption,
    SeedOption,
    change_noting_comments,
    check_note,
    emit_json,
    make_rng,
)
from d4cli.completion import (
    complete_aspect,
    complete_creature,
    complete_dc_tier,
    complete_example,
    complete_mode,
    complete_other_creature,
)
from d4cli.errors import InputError
from d4cli.limits import ASPECT, BUFFER, COST, EVASION, EXHAUSTION, HP, parse_whole
from d4cli.names import check_text
from d4cli.sheet_completion import complete_aspect_or_action

FileOption = Annotated[
    str | None,
    typer.Option("--file", "-f", metavar="PATH", help="The encounter file; else D4CLI_FILE, else ./encounter.toml."),
]
SourceList = list[str] | None

if TYPE_CHECKING:
    from d4cli.encounter import Encounter
    from d4cli.serialize import Record

R = TypeVar("R", bound="Record")


def apply_change(
    file: str | None,
    transition: "Callable[[Encounter], tuple[Encounter, R]]",
    json_: bool,
    note: str | None = None,
) -> R:
    """Run *transition* on the encounter file under its lock, then print its record (one line, or JSON).

    *note* (``--note``) is kept in the journal entry (`change_noting_comments`).
    """
    from d4cli.serialize import journal_json, record_json
    from d4cli.store import resolve_path

    record = change_noting_comments(resolve_path(file), transition, note)
    if json_:
        emit_json(record_json(record))
    else:
        from d4cli.render.encounter import print_lines, summary

        print_lines([summary(journal_json(record))])
    return record


def init_command(
    mode: Annotated[str | None, typer.Option("--mode", metavar="turn|round", autocompletion=complete_mode, help="When Loads reset (R12); default turn, or the template's.")] = None,
    round_reset: Annotated[str | None, typer.Option("--round-reset", metavar="buffer|zero", help="Round mode resets to the R1 value (buffer, the default) or to 0 (R12).")] = None,
    from_: Annotated[str | None, typer.Option("--from", metavar="EXAMPLE|PATH", autocompletion=complete_example, help="Start from a bundled example (skirmish, duel) or an encounter file.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing encounter file.")] = False,
    name: Annotated[str | None, typer.Option("--name", metavar="TEXT", help="The encounter's name.")] = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Create an encounter file, empty or from an example (R12).

    Example: d4cli init --from skirmish
    """
    from dataclasses import replace

    from d4cli.encounter import MODES, ROUND_RESETS, Encounter
    from d4cli.encounter_file import dump_encounter, parse_encounter
    from d4cli.environment import lock_timeout
    from d4cli.store import create, read_text, resolve_path

    if mode is not None and mode not in MODES:
        raise InputError("--mode", mode, "must be 'turn' or 'round' (R12)")
    if round_reset is not None and round_reset not in ROUND_RESETS:
        raise InputError("--round-reset", round_reset, "must be 'buffer' or 'zero' (R12)")
    if name is not None:
        check_text(name, "--name")
    path = resolve_path(file)
    kept_comments = True
    if from_ is None:
        encounter = Encounter(name=path.stem if name is None else name, mode=mode or "turn", round_reset=round_reset or "buffer")
        _check_round_reset(encounter, round_reset)
        text = dump_encounter(encounter)
    else:
        source = _template(from_)
        text = read_text(source)
        encounter = parse_encounter(text, source)
        changed = replace(encounter, mode=mode or encounter.mode, name=encounter.name if name is None else name,
                          round_reset=round_reset or encounter.round_reset)
        _check_round_reset(changed, round_reset)
        if changed != encounter:
            encounter, text, kept_comments = changed, dump_encounter(changed), False
    from d4cli.serialize import init_json, init_output_json

    details = init_json(encounter, from_)
    create(path, text, details, force=force, timeout=lock_timeout())
    if json_:
        emit_json(init_output_json(path, details))
        return
    from d4cli.render import escape
    from d4cli.render.encounter import print_lines

    lines = [
        f"Created {escape(str(path))}: {escape(encounter.name) or 'an encounter'} ({encounter.mode} mode, "
        f"{len(encounter.creatures)} creatures)" + (f" from {escape(from_)}" if from_ else "")
    ]
    if not kept_comments:
        lines.append("(--mode/--name changed the template, so its comments were not kept)")
    print_lines(lines)


def _check_round_reset(encounter: "Encounter", round_reset: str | None) -> None:
    if round_reset is not None and encounter.mode != "round":
        raise InputError("--round-reset", round_reset, "applies only in round mode (R12): add --mode round")


def _template(value: str) -> Path:
    """A bundled example by name (``skirmish``), else a path to an encounter file.

    Raises:
        InputError: naming ``--from``: not UTF-8 text, no such example or file,
            or a path the system refuses to look at (a name too long, ...).
    """
    from d4cli.encounter_file import bundled_examples
    from d4cli.names import fold_name

    check_text(value, "--from")
    examples = bundled_examples()
    for example, path in examples.items():
        if fold_name(example) == fold_name(value) or fold_name(example + ".toml") == fold_name(value):
            return path
    candidate = Path(value)
    try:
        if candidate.exists():
            return candidate
    except OSError as error:
        raise InputError("--from", value, f"cannot look for this file: {error.strerror or error}") from None
    raise InputError("--from", value, "no such example (" + ", ".join(examples) + ") or file")


def parse_aspect(text: str) -> tuple[str, int]:
    """Parse ``--aspect NAME=N`` (L1, L3).

    Raises:
        InputError: not UTF-8 text, no ``=``, no name, a name holding ``=`` or
            ``,`` (several Aspects in one option), or a value that is not a
            whole number in range.
    """
    aspect, sign, value = check_text(text, "--aspect").rpartition("=")
    if not sign:
        raise InputError("--aspect", text, "must be ASPECT=N, such as Might=3")
    if not aspect.strip():
        raise InputError("--aspect", text, "needs an Aspect name before '=', such as Might=3")
    if "=" in aspect or "," in text:
        raise InputError("--aspect", text, "one Aspect per --aspect: repeat it, as in --aspect Might=2 --aspect Wits=1")
    try:
        return aspect, parse_whole(value, "--aspect", ASPECT)
    except InputError as error:
        raise InputError("--aspect", text, f"the value {error.problem}") from None


def add_command(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The creature's name (unique, N1).")],
    aspect: Annotated[list[str], typer.Option("--aspect", metavar="ASPECT=N", help="An Aspect and its value; repeatable.")],
    buffer: Annotated[str, typer.Option("--buffer", metavar="N", help="Load Buffer (R1).")] = "1",
    exhaustion: Annotated[str, typer.Option("--exhaustion", metavar="N", help="Exhaustion level (R15).")] = "0",
    evasion: Annotated[str, typer.Option("--evasion", metavar="N", help="Evasion against attacks (R7).")] = "0",
    hp: Annotated[str | None, typer.Option("--hp", metavar="N", help="Hit points, if tracked (R16).")] = None,
    max_hp: Annotated[str | None, typer.Option("--max-hp", metavar="N", help="Healing stops here (R18); hp starts here without --hp.")] = None,
    before: Annotated[str | None, typer.Option("--before", metavar="OTHER", autocompletion=complete_creature, help="Add it just before OTHER (R13).")] = None,
    after: Annotated[str | None, typer.Option("--after", metavar="OTHER", autocompletion=complete_creature, help="Add it just after OTHER (R13).")] = None,
    attribute: Annotated[SourceList, typer.Option("--attribute", metavar="NAME=N", help="A stored Attribute (C8); repeatable.")] = None,
    proficiency: Annotated[SourceList, typer.Option("--proficiency", metavar="NAME=N", help="A stored Proficiency (C8); repeatable.")] = None,
    specialization: Annotated[SourceList, typer.Option("--specialization", metavar="NAME=N", help="A stored Specialization (C8); repeatable.")] = None,
    side: Annotated[str | None, typer.Option("--side", metavar="TEXT", help="The creature's side, such as party or foes.")] = None,
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Add a creature at the end of the turn order (or --before/--after another); its Load starts at the reset value (R1, R13).

    Example: d4cli add "Goblin Archer" --aspect Finesse=3 --evasion 10 --hp 7
    """
    from d4cli.encounter import new_creature
    from d4cli.turns import add_creature

    creature = new_creature(
        check_text(name, "NAME", name=True),
        tuple(parse_aspect(text) for text in aspect),
        load_buffer=parse_whole(buffer, "--buffer", BUFFER),
        exhaustion=parse_whole(exhaustion, "--exhaustion", EXHAUSTION),
        evasion=parse_whole(evasion, "--evasion", EVASION),
        hp=None if hp is None else parse_whole(hp, "--hp", HP),
        max_hp=None if max_hp is None else parse_whole(max_hp, "--max-hp", HP),
    )
    from d4cli.sheets import with_stats

    stats = {"attributes": attribute, "proficiencies": proficiency, "specializations": specialization}
    try:
        creature = with_stats(creature, stats, side)
    except InputError as error:
        raise InputError(f"{name}: {error.field}", error.value, error.problem) from None
    apply_change(file, lambda encounter: add_creature(encounter, creature, before=before, after=after), json_, note)


def remove_command(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The creature to remove.", autocompletion=complete_creature)],
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Remove a creature; the turn never moves to someone else (R17).

    Example: d4cli remove "Goblin Archer"
    """
    from d4cli.turns import remove_creature

    apply_change(file, lambda encounter: remove_creature(encounter, name), json_, note)


def status_command(
    name: Annotated[str | None, typer.Argument(metavar="[NAME]", help="Show this creature's whole sheet.", autocompletion=complete_creature)] = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Show the turn tracker: whose turn, Loads, headroom, who can still act at Cost 1 (R2); NAME: one sheet.

    Past the terminal's height the table becomes one line per creature.

    Example: d4cli status --json
    """
    from d4cli.store import read_encounter, resolve_path

    encounter = read_encounter(resolve_path(file))
    if name is not None:
        from d4cli.commands.sheet import show_sheet

        show_sheet(encounter, name, json_=json_)
        return
    if json_:
        from d4cli.serialize import status_json

        emit_json(status_json(encounter))
        return
    from d4cli.render.encounter import print_status

    print_status(encounter)


def act_command(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The creature that acts.", autocompletion=complete_creature)],
    aspect: Annotated[str, typer.Argument(metavar="ASPECT|ACTION", help="The Aspect it uses, or one of its named actions.", autocompletion=complete_aspect_or_action)],
    cost: Annotated[str | None, typer.Option("--cost", metavar="N", help="The action's Cost (R3); default 1, or the named action's.")] = None,
    adv: Annotated[SourceList, typer.Option("--adv", metavar="SOURCE", help="A source of Advantage (R4); repeatable.")] = None,
    dis: Annotated[SourceList, typer.Option("--dis", metavar="SOURCE", help="A source of Disadvantage (R4); repeatable.")] = None,
    extra: Annotated[SourceList, typer.Option("--extra", metavar="NdX[+M]", help="Extra dice such as a weapon's 1d8 (R6); repeatable.")] = None,
    dc: Annotated[str | None, typer.Option("--dc", metavar="N|TIER", autocompletion=complete_dc_tier, help="Succeed when the total meets it (R7): a number or easy, medium, hard, challenging, nearly-impossible (C2).")] = None,
    target: Annotated[str | None, typer.Option("--target", metavar="NAME", autocompletion=complete_other_creature, help="Attack a creature: its Evasion, damage to its hp (R7, R16).")] = None,
    evasion: Annotated[str | None, typer.Option("--evasion", metavar="N", help="Damage = total - Evasion (R7).")] = None,
    gm: Annotated[bool, typer.Option("--gm", help="A GM-called roll for this creature: no gate, Load unchanged (R9).")] = False,
    ignore_load: Annotated[bool, typer.Option("--ignore-load", help="With --gm: size the pool as if Load were 0 (R9).")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would happen; write nothing.")] = False,
    odds: OddsOption = False,
    seed: SeedOption = None,
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
    quiet: QuietOption = False,
    short: Annotated[bool, typer.Option("--short", help="Print the one-line summary that 'log' shows.")] = False,
) -> None:
    """A creature acts: gate, pool, roll, Load + Cost, damage (R2-R11, R16); off its turn it is a reaction (R10).

    With ``--gm`` it is a GM-called roll for the creature: no gate, Load unchanged (R9).

    Example: d4cli act Aria Finesse --extra 1d4 --target "Goblin Archer"
    """
    from d4cli.actions import ActRequest, act
    from d4cli.dc import parse_dc
    from d4cli.dice import parse_extras
    from d4cli.store import read_encounter, resolve_path

    request = ActRequest(
        actor=name,
        aspect=aspect,
        cost=1 if cost is None else parse_whole(cost, "--cost", COST),
        advantage=tuple(adv or ()),
        disadvantage=tuple(dis or ()),
        extra=parse_extras(extra or ()),
        dc=None if dc is None else parse_dc(dc),
        target=target,
        evasion=None if evasion is None else parse_whole(evasion, "--evasion", EVASION),
        gm=gm,
        ignore_load=ignore_load,
    )
    check_note(note)
    rng = make_rng(seed)
    path = resolve_path(file)
    from d4cli.sheets import apply_named_action

    given = frozenset(key for key, value in (("cost", cost), ("extra", extra), ("dc", dc), ("adv", adv), ("dis", dis)) if value is not None)
    if dry_run:
        encounter = read_encounter(path)
        _, record = act(encounter, apply_named_action(encounter, request, given), rng)
    else:
        record = change_noting_comments(path, lambda encounter: act(encounter, apply_named_action(encounter, request, given), rng), note)
    from d4cli.commands.output import show_act

    show_act(record, json_=json_, odds=odds, dry_run=dry_run, quiet=quiet, short=short)


def team_command(
    actor: Annotated[str, typer.Argument(metavar="ACTOR", help="The creature that pays the Team Action.", autocompletion=complete_creature)],
    target: Annotated[str, typer.Argument(metavar="TARGET", help="The creature whose next roll gets the grant.", autocompletion=complete_creature)],
    adv: Annotated[bool, typer.Option("--adv", help="Grant Advantage.")] = False,
    dis: Annotated[bool, typer.Option("--dis", help="Grant Disadvantage.")] = False,
    aspect: Annotated[str | None, typer.Option("--aspect", metavar="ASPECT", autocompletion=complete_aspect, help="The Aspect that pays (needed unless ACTOR has one).")] = None,
    cost: Annotated[str, typer.Option("--cost", metavar="N", help="The Cost (R3).")] = "1",
    source: Annotated[str | None, typer.Option("--source", metavar="NAME", help="The grant's source name (default 'team action').")] = None,
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """A Team Action: ACTOR pays through its gate; TARGET's next roll gets Advantage or Disadvantage (R11).

    Example: d4cli team Borin "Goblin Archer" --dis --aspect Might
    """
    from d4cli.actions import TeamRequest, team
    from d4cli.encounter import TEAM_SOURCE
    from d4cli.records import GrantKind
    from d4cli.store import resolve_path

    if adv == dis:
        raise InputError("--adv/--dis", None, "give exactly one of --adv and --dis")
    request = TeamRequest(
        actor=actor,
        target=target,
        grant=GrantKind.ADVANTAGE if adv else GrantKind.DISADVANTAGE,
        aspect=aspect,
        cost=parse_whole(cost, "--cost", COST),
        source=TEAM_SOURCE if source is None else check_text(source, "--source", name=True),
    )
    from d4cli.commands.output import print_one, team_view

    record = change_noting_comments(resolve_path(file), lambda encounter: team(encounter, request), note)
    print_one(record, team_view(), json_=json_)


def exhaust_command(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The creature.", autocompletion=complete_creature)],
    level: Annotated[str, typer.Argument(metavar="LEVEL", help="The Exhaustion level, 0 or more; or +N / -N to change it.")],
    note: NoteOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Set a creature's Exhaustion level, or change it by +N / -N; it changes only its reset Load (R1, R15).

    Example: d4cli exhaust Aria 2   (or: d4cli exhaust Aria +1)
    """
    from d4cli.turns import set_exhaustion

    if level[:1] in ("+", "-") and level[1:].isdigit():
        step = int(level)

        def transition(encounter: "Encounter") -> "tuple[Encounter, Record]":
            current = encounter.creatures[encounter.index(name)].exhaustion
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
        raise InputError("LEVEL", text, f"would make Exhaustion {current + step}: {error.problem}") from None


def undo_command(file: FileOption = None, json_: JsonOption = False) -> None:
    """Revert the newest change, restoring the file byte-for-byte (never the init).

    Example: d4cli undo
    """
    from d4cli.environment import lock_timeout
    from d4cli.store import resolve_path, undo

    undone = undo(resolve_path(file), timeout=lock_timeout())
    if json_:
        from d4cli.serialize import undo_json

        emit_json(undo_json(undone.entry, undone.hand_edited))
        return
    from d4cli.render import console, escape
    from d4cli.render.encounter import print_lines, summary

    kind = escape(str(undone.entry.get("kind")))
    print_lines([f"Undid #{undone.entry.get('seq')} {kind}: {summary(undone.entry)}"])
    if undone.hand_edited:
        console(stderr=True).print(
            "d4cli: note: the file had been edited by hand after that change; the edit was undone too"
        )


def redo_command(file: FileOption = None, json_: JsonOption = False) -> None:
    """Put back the newest undone change, byte-for-byte (as many times as undo went back).

    Example: d4cli redo
    """
    from d4cli.environment import lock_timeout
    from d4cli.store import redo, resolve_path

    redone = redo(resolve_path(file), timeout=lock_timeout())
    if json_:
        from d4cli.serialize import redo_json

        emit_json(redo_json(redone.entry))
        return
    from d4cli.render import escape
    from d4cli.render.encounter import print_lines, summary

    kind = escape(str(redone.entry.get("kind")))
    print_lines([f"Redid #{redone.entry.get('seq')} {kind}: {summary(redone.entry)}"])
