"""The encounter commands: init, add, remove, status, act, team, exhaust, log, undo (docs/cli.md "Encounter").

A thin skin: parse the options (numbers with `parse_whole`), call a pure
transition of `d4cli.encounter` through `d4cli.store.change` (lock, journal,
atomic write), print the record: its JSON from `d4cli.serialize` (the same
object the journal keeps), or one line. ``turn start|end`` live in `commands.turn`.
"""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/commands/roll.py).

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from d4cli.commands.common import (
    JsonOption,
    OddsOption,
    SeedOption,
    change_noting_comments,
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
from d4cli.errors import InputError, escape_control
from d4cli.limits import ASPECT, BUFFER, COST, EVASION, EXHAUSTION, HP, LAST, parse_whole
from d4cli.names import check_text

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
    file: str | None, transition: "Callable[[Encounter], tuple[Encounter, R]]", json_: bool
) -> R:
    """Run *transition* on the encounter file under its lock, then print its record (one line, or JSON)."""
    from d4cli.serialize import journal_json, record_json
    from d4cli.store import resolve_path

    record = change_noting_comments(resolve_path(file), transition)
    if json_:
        emit_json(record_json(record))
    else:
        from d4cli.render.encounter import print_lines, summary

        print_lines([summary(journal_json(record))])
    return record


def init_command(
    mode: Annotated[str | None, typer.Option("--mode", metavar="turn|round", autocompletion=complete_mode, help="When Loads reset (R12); default turn, or the template's.")] = None,
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

    from d4cli.encounter import MODES, Encounter
    from d4cli.encounter_file import dump_encounter, parse_encounter
    from d4cli.environment import lock_timeout
    from d4cli.store import create, read_text, resolve_path

    if mode is not None and mode not in MODES:
        raise InputError("--mode", mode, "must be 'turn' or 'round' (R12)")
    if name is not None:
        check_text(name, "--name")
    path = resolve_path(file)
    kept_comments = True
    if from_ is None:
        encounter = Encounter(name=path.stem if name is None else name, mode=mode or "turn")
        text = dump_encounter(encounter)
    else:
        source = _template(from_)
        text = read_text(source)
        encounter = parse_encounter(text, source)
        changed = replace(encounter, mode=mode or encounter.mode, name=encounter.name if name is None else name)
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
        InputError: not UTF-8 text, no ``=``, no name, or a value that is not a
            whole number in range.
    """
    aspect, sign, value = check_text(text, "--aspect").rpartition("=")
    if not sign:
        raise InputError("--aspect", text, "must be ASPECT=N, such as Might=3")
    if not aspect.strip():
        raise InputError("--aspect", text, "needs an Aspect name before '=', such as Might=3")
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
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Add a creature at the end of the turn order; its Load starts at the reset value (R1, R13).

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
    )
    apply_change(file, lambda encounter: add_creature(encounter, creature), json_)


def remove_command(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The creature to remove.", autocompletion=complete_creature)],
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Remove a creature; the turn never moves to someone else (R17).

    Example: d4cli remove "Goblin Archer"
    """
    from d4cli.turns import remove_creature

    apply_change(file, lambda encounter: remove_creature(encounter, name), json_)


def status_command(file: FileOption = None, json_: JsonOption = False) -> None:
    """Show the turn tracker: whose turn, Loads, headroom, who can still act at Cost 1 (R2).

    Example: d4cli status --json
    """
    from d4cli.store import read_encounter, resolve_path

    encounter = read_encounter(resolve_path(file))
    if json_:
        from d4cli.serialize import status_json

        emit_json(status_json(encounter))
        return
    from d4cli.render import console
    from d4cli.render.encounter import status_table

    console().print(status_table(encounter))


def act_command(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The creature that acts.", autocompletion=complete_creature)],
    aspect: Annotated[str, typer.Argument(metavar="ASPECT", help="The Aspect it uses.", autocompletion=complete_aspect)],
    cost: Annotated[str, typer.Option("--cost", metavar="N", help="The action's Cost (R3).")] = "1",
    adv: Annotated[SourceList, typer.Option("--adv", metavar="SOURCE", help="A source of Advantage (R4); repeatable.")] = None,
    dis: Annotated[SourceList, typer.Option("--dis", metavar="SOURCE", help="A source of Disadvantage (R4); repeatable.")] = None,
    extra: Annotated[SourceList, typer.Option("--extra", metavar="NdX[+M]", help="Extra dice such as a weapon's 1d8 (R6); repeatable.")] = None,
    dc: Annotated[str | None, typer.Option("--dc", metavar="N|TIER", autocompletion=complete_dc_tier, help="Succeed when the total meets it (R7): a number or easy, medium, hard, challenging, nearly-impossible (C2).")] = None,
    target: Annotated[str | None, typer.Option("--target", metavar="NAME", autocompletion=complete_other_creature, help="Attack a creature: its Evasion, damage to its hp (R7, R16).")] = None,
    evasion: Annotated[str | None, typer.Option("--evasion", metavar="N", help="Damage = total - Evasion (R7).")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would happen; write nothing.")] = False,
    odds: OddsOption = False,
    seed: SeedOption = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """A creature acts: gate, pool, roll, Load + Cost, damage (R2-R11, R16); off its turn it is a reaction (R10).

    Example: d4cli act Aria Finesse --extra 1d4 --target "Goblin Archer"
    """
    from d4cli.actions import ActRequest, act
    from d4cli.check import parse_dc
    from d4cli.dice import parse_extras
    from d4cli.store import read_encounter, resolve_path

    request = ActRequest(
        actor=name,
        aspect=aspect,
        cost=parse_whole(cost, "--cost", COST),
        advantage=tuple(adv or ()),
        disadvantage=tuple(dis or ()),
        extra=parse_extras(extra or ()),
        dc=None if dc is None else parse_dc(dc),
        target=target,
        evasion=None if evasion is None else parse_whole(evasion, "--evasion", EVASION),
    )
    rng = make_rng(seed)
    path = resolve_path(file)
    if dry_run:
        _, record = act(read_encounter(path), request, rng)
    else:
        record = change_noting_comments(path, lambda encounter: act(encounter, request, rng))
    from d4cli.commands.output import show_act

    show_act(record, json_=json_, odds=odds, dry_run=dry_run)


def team_command(
    actor: Annotated[str, typer.Argument(metavar="ACTOR", help="The creature that pays the Team Action.", autocompletion=complete_creature)],
    target: Annotated[str, typer.Argument(metavar="TARGET", help="The creature whose next roll gets the grant.", autocompletion=complete_creature)],
    adv: Annotated[bool, typer.Option("--adv", help="Grant Advantage.")] = False,
    dis: Annotated[bool, typer.Option("--dis", help="Grant Disadvantage.")] = False,
    aspect: Annotated[str | None, typer.Option("--aspect", metavar="ASPECT", autocompletion=complete_aspect, help="The Aspect that pays (needed unless ACTOR has one).")] = None,
    cost: Annotated[str, typer.Option("--cost", metavar="N", help="The Cost (R3).")] = "1",
    source: Annotated[str | None, typer.Option("--source", metavar="NAME", help="The grant's source name (default 'team action').")] = None,
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

    record = change_noting_comments(resolve_path(file), lambda encounter: team(encounter, request))
    print_one(record, team_view(), json_=json_)


def exhaust_command(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The creature.", autocompletion=complete_creature)],
    level: Annotated[str, typer.Argument(metavar="LEVEL", help="The Exhaustion level, 0 or more.")],
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Set a creature's Exhaustion level; it changes only its reset Load (R1, R15).

    Example: d4cli exhaust Aria 2
    """
    from d4cli.turns import set_exhaustion

    value = parse_whole(level, "LEVEL", EXHAUSTION)
    apply_change(file, lambda encounter: set_exhaustion(encounter, name, value), json_)


def log_command(
    last: Annotated[str | None, typer.Option("--last", metavar="N", help="Only the newest N changes.")] = None,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Show the changes that stand, oldest first: rolls, Loads, damage, turns.

    Example: d4cli log --last 5
    """
    from d4cli.store import read_history, resolve_path

    count = None if last is None else parse_whole(last, "--last", LAST)
    history = read_history(resolve_path(file), count)
    if json_:
        from d4cli.serialize import log_json

        emit_json(log_json(history.entries))
    else:
        from d4cli.render import console
        from d4cli.render.encounter import log_table

        console().print(log_table(history.entries))
    if history.warning is not None:
        # A damaged newest journal line: the readable entries are shown, the damage named.
        sys.stdout.flush()
        sys.stderr.write(f"d4cli: warning: {escape_control(history.warning)}\n")
        sys.stderr.flush()


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
