"""Creature sheets: stored stats, named actions, and checks made from them (C1-C8, R3, R6, R11, L1, N1).

Pure: plain data in, ``(new_encounter, record)`` out; dice from an injected
`DiceSource`. The same validation serves the command line and the encounter
file: every problem is an `InputError` naming the field (``attributes.Might``,
``actions.dagger.cost``); `d4cli.fileformat.encounter_toml` adds the file and the creature.

Checks made from the stats live in `d4cli.fight.sheet_check`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from d4cli.fight.closed_sets import ACTION_ADD, ACTION_REMOVE
from d4cli.fight.encounter_state import STAT_KINDS, Action, Creature, Encounter, Stats, new_creature
from d4cli.fight.policy_table import check_policy
from d4cli.rules.dc import DC_TIERS
from d4cli.rules.dice import parse_extra
from d4cli.rules.errors import InputError
from d4cli.rules.limits import COST, DC, MODIFIER, check_whole
from d4cli.rules.names import (
    MAX_NAME_LENGTH,
    check_name,
    check_text,
    escape_name,
    fold_name,
    name_problem,
    parse_named_number,
)
from d4cli.rules.records import notebook
from d4cli.rules.suggest import did_you_mean, unknown_key

if TYPE_CHECKING:
    from d4cli.fight.actions import ActRequest

SHEET_KEYS = ("attributes", "proficiencies", "specializations", "actions", "side", "policy")
ACTION_KEYS = ("name", "aspect", "cost", "extra", "dc", "advantage", "disadvantage")
MAX_SIDE = MAX_NAME_LENGTH


# --- stats ----------------------------------------------------------------------------------


def check_stats(kind: str, table: object) -> Stats:
    """A table of stored stats (C8): names by N1, values whole numbers within L1.

    Raises:
        InputError: not a table, a bad or repeated name, a value not whole or out of range;
            the field is ``KIND.NAME``.
    """
    if not isinstance(table, Mapping):
        raise InputError(kind, table, f"must be a table of {STAT_KINDS[kind]} = number")
    stats: list[tuple[str, int]] = []
    seen: dict[str, str] = {}
    for name, value in table.items():
        where = f"{kind}.{escape_name(str(name))}"
        check_name(name, where)
        key = fold_name(name)
        if key in seen:
            raise InputError(where, name, f"the same {STAT_KINDS[kind]} as {seen[key]!r} (N1)")
        seen[key] = name
        stats.append((name, check_whole(value, where, MODIFIER)))
    return tuple(stats)


def parse_stat(text: str, field: str) -> tuple[str, int]:
    """``--attribute NAME=N`` (and ``--proficiency``, ``--specialization``): L1, L3, N1.

    Raises:
        InputError: naming *field*: a bad ``NAME=N`` (`d4cli.rules.names.parse_named_number`),
            or a bad name (N1).
    """
    name, value = parse_named_number(text, field, MODIFIER, noun="NAME", example="Strength=2")
    check_name(name, field)
    return name, value


def with_stats(
    creature: Creature, stats: Mapping[str, list[str] | None], side: str | None
) -> Creature:
    """*creature* with *stats* (``attributes`` ... -> ``NAME=N`` texts) and a *side* (C8, L1, N1).

    Raises:
        InputError: naming the kind (``attributes``) or ``side``: a bad ``NAME=N``
            (`parse_stat`), the same name twice in one kind (N1), a bad side.
    """
    changes: dict[str, Any] = {}
    for kind, texts in stats.items():
        pairs = [parse_stat(text, kind) for text in texts or ()]
        seen: dict[str, str] = {}
        for stat_name, _ in pairs:
            if fold_name(stat_name) in seen:
                raise InputError(
                    kind,
                    stat_name,
                    f"{creature.name}: the same {STAT_KINDS[kind]} as {seen[fold_name(stat_name)]!r} (N1)",
                )
            seen[fold_name(stat_name)] = stat_name
        changes[kind] = tuple(pairs)
    if side is not None:
        changes["side"] = sheet_from_row({"side": check_text(side, "side")}, ())["side"]
    return creature._replace(**changes)


def copy_sheet(
    template: Creature,
    name: str,
    *,
    aspects: tuple[tuple[str, int], ...] = (),
    load_buffer: int | None = None,
    exhaustion: int | None = None,
    evasion: int | None = None,
    hp: int | None = None,
    max_hp: int | None = None,
) -> Creature:
    """A fresh creature called *name* with *template*'s stat block (``add --like``; R1, R18, C8).

    Copied: Aspects, Load Buffer, Exhaustion, Evasion, hp (its ``max_hp`` when it has one,
    so a wounded template gives an unhurt copy) and ``max_hp``, stats, actions, side and
    the simulator's policy. Not copied: Load (the copy starts at its reset value, R1),
    effects and grants (R11, R20), whether it had its turn (R19), notes.

    Given values go on top: *aspects* change the Aspects of the same name (N1) where they
    stand and add the others at the end; *hp* alone sets ``max_hp`` too (R18).

    Raises:
        InputError: as `d4cli.fight.encounter_state.new_creature` (a bad name, hp above max_hp).
    """
    if hp is None and max_hp is None:
        hp, max_hp = (template.hp if template.max_hp is None else template.max_hp), template.max_hp
    elif max_hp is None:
        max_hp = hp
    values = {fold_name(aspect): value for aspect, value in aspects}
    merged = [(aspect, values.pop(fold_name(aspect), value)) for aspect, value in template.aspects]
    merged += [(aspect, value) for aspect, value in aspects if fold_name(aspect) in values]
    made = new_creature(
        name,
        tuple(merged),
        load_buffer=template.load_buffer if load_buffer is None else load_buffer,
        exhaustion=template.exhaustion if exhaustion is None else exhaustion,
        evasion=template.evasion if evasion is None else evasion,
        hp=hp,
        max_hp=max_hp,
    )
    return made._replace(
        attributes=template.attributes,
        proficiencies=template.proficiencies,
        specializations=template.specializations,
        actions=template.actions,
        side=template.side,
        policy=template.policy,
    )


def stat(creature: Creature, kind: str, name: str, field: str) -> tuple[str, int]:
    """The stat called *name* (N1) of *kind* (``attributes`` ...) as ``(name as written, value)``.

    Raises:
        InputError: naming *field*: the creature lacks it (C8: never 0); the message lists what it has.
    """
    stats: Stats = getattr(creature, kind)
    for stat_name, value in stats:
        if fold_name(stat_name) == fold_name(name):
            return stat_name, value
    have = ", ".join(stat_name for stat_name, _ in stats) or "none"
    raise InputError(
        field, name, f"{creature.name} has no such {STAT_KINDS[kind]} (it has: {have}) (C8)"
    )


# --- actions --------------------------------------------------------------------------------


def check_action(row: object, aspects: Stats, number: int = 1) -> Action:
    """One ``[[creature.actions]]`` table: name, Aspect, Cost, extra dice, DC, sources.

    Raises:
        InputError: naming ``actions.NAME.FIELD``: an unknown key, an unknown Aspect,
            a negative Cost, bad extra dice (L3), a DC out of range, an action named like an Aspect.
    """
    if not isinstance(row, Mapping):
        raise InputError("actions", row, "must be a table ([[creature.actions]])")
    raw_name = row.get("name")
    if not isinstance(raw_name, str):
        raise InputError(f"actions #{number}.name", raw_name, "missing or not text")
    where = f"actions.{escape_name(raw_name)}"
    name = check_name(raw_name, f"{where}.name")
    for key in row:
        if key not in ACTION_KEYS:
            raise InputError(f"{where}.{key}", None, unknown_key(key, ACTION_KEYS))
    aspect = row.get("aspect")
    if not isinstance(aspect, str):
        raise InputError(f"{where}.aspect", aspect, "missing or not text")
    aspect = _aspect_of(aspects, aspect, f"{where}.aspect")
    if any(fold_name(name) == fold_name(aspect_name) for aspect_name, _ in aspects):
        raise InputError(
            f"{where}.name", name, "is also an Aspect's name (N1): `act` could not tell them apart"
        )
    extra = row.get("extra", [])
    if not isinstance(extra, list) or not all(isinstance(text, str) for text in extra):
        raise InputError(f"{where}.extra", extra, 'must be a list of dice such as "1d4"')
    for text in extra:
        parse_extra(text, f"{where}.extra")
    dc = row.get("dc")
    if isinstance(dc, str):
        # A tier name is a DC wherever a DC is asked for (C2): ``dc = "hard"`` is 18.
        tier = DC_TIERS.get(fold_name(dc))
        if tier is None:
            raise InputError(
                f"{where}.dc", dc, f"must be a whole number or one of {', '.join(DC_TIERS)} (C2)"
            )
        dc = tier
    sources = {}
    for key in ("advantage", "disadvantage"):
        names = row.get(key, [])
        if not isinstance(names, list):
            raise InputError(f"{where}.{key}", names, "must be a list of source names")
        sources[key] = tuple(check_name(source, f"{where}.{key}") for source in names)
    return Action(
        name=name,
        aspect=aspect,
        cost=check_whole(row.get("cost", 1), f"{where}.cost", COST),
        extra=tuple(extra),
        dc=None if dc is None else check_whole(dc, f"{where}.dc", DC),
        **sources,
    )


def _aspect_of(aspects: Stats, name: str, where: str) -> str:
    for aspect_name, _ in aspects:
        if fold_name(aspect_name) == fold_name(name):
            return aspect_name
    have = ", ".join(aspect_name for aspect_name, _ in aspects) or "none"
    raise InputError(where, name, f"no such Aspect (it has: {have})")


def check_actions(rows: object, aspects: Stats) -> tuple[Action, ...]:
    """The ``actions`` array: each by `check_action`, names distinct (N1)."""
    if not isinstance(rows, list):
        raise InputError("actions", rows, "must be an array of tables ([[creature.actions]])")
    actions: list[Action] = []
    seen: set[str] = set()
    for number, row in enumerate(rows, start=1):
        action = check_action(row, aspects, number)
        if fold_name(action.name) in seen:
            raise InputError(
                f"actions.{escape_name(action.name)}",
                action.name,
                "a second action of that name (N1)",
            )
        seen.add(fold_name(action.name))
        actions.append(action)
    return tuple(actions)


def action_document(action: Action) -> dict[str, object]:
    """The file table of *action* (only the parts that differ from the defaults, name and aspect first)."""
    row: dict[str, object] = {"name": action.name, "aspect": action.aspect, "cost": action.cost}
    if action.extra:
        row["extra"] = list(action.extra)
    if action.dc is not None:
        row["dc"] = action.dc
    if action.advantage:
        row["advantage"] = list(action.advantage)
    if action.disadvantage:
        row["disadvantage"] = list(action.disadvantage)
    return row


def sheet_from_row(row: Mapping[str, object], aspects: Stats) -> dict[str, object]:
    """The sheet fields of a ``[[creature]]`` table (C8), as `Creature` keyword arguments.

    Files without them load unchanged (empty stats, no actions, no side).
    """
    sheet: dict[str, object] = {
        kind: check_stats(kind, row[kind]) for kind in STAT_KINDS if kind in row
    }
    if "actions" in row:
        sheet["actions"] = check_actions(row["actions"], aspects)
    if "side" in row:
        side = row["side"]
        if not isinstance(side, str):
            raise InputError("side", side, f"must be a name of at most {MAX_SIDE} characters (N1)")
        problem = name_problem(side)
        if problem is not None:
            raise InputError("side", escape_name(side), problem)
        sheet["side"] = side
    if "policy" in row:
        sheet["policy"] = check_policy(row["policy"], aspects)
    return sheet


def sheet_document(creature: Creature) -> dict[str, object]:
    """The sheet fields of *creature* for its file table (nothing for a creature without a sheet)."""
    row: dict[str, object] = {}
    if creature.side:
        row["side"] = creature.side
    for kind in STAT_KINDS:
        stats: Stats = getattr(creature, kind)
        if stats:
            row[kind] = dict(stats)
    if creature.actions:
        row["actions"] = [action_document(action) for action in creature.actions]
    if creature.policy:
        row["policy"] = dict(creature.policy)
    return row


def find_action(creature: Creature, name: str) -> Action | None:
    """The action called *name* (N1), or None."""
    for action in creature.actions:
        if fold_name(action.name) == fold_name(name):
            return action
    return None


def apply_named_action(
    encounter: Encounter, request: ActRequest, given: frozenset[str]
) -> ActRequest:
    """``act NAME ACTION``: fill *request* from the actor's named action (R3, R6, R7).

    When *request.aspect* names one of the actor's Aspects, *request* is returned
    unchanged; when it names an action, its Aspect, Cost, extra dice, DC and sources
    fill every part not in *given* (the options typed: ``cost``, ``extra``, ``dc``,
    ``adv``, ``dis``; a ``--target`` or ``--evasion`` drops the default DC).

    Raises:
        InputError: the actor is unknown, or has neither such an Aspect nor such an action.
    """
    actor = encounter.find(request.actor)
    if any(fold_name(name) == fold_name(request.aspect) for name, _ in actor.aspects):
        return request
    action = find_action(actor, request.aspect)
    if action is None:
        aspects = ", ".join(name for name, _ in actor.aspects) or "none"
        actions = ", ".join(a.name for a in actor.actions) or "none"
        known = [name for name, _ in actor.aspects] + [a.name for a in actor.actions]
        hint = did_you_mean(request.aspect, known)
        problem = f"{actor.name} has no such Aspect or action (Aspects: {aspects}; actions: {actions}){hint}"
        raise InputError("ASPECT", request.aspect, problem)
    changes: dict[str, Any] = {"aspect": action.aspect, "action": action.name}
    if "cost" not in given:
        changes["cost"] = action.cost
    if "extra" not in given:
        changes["extra"] = tuple(parse_extra(text) for text in action.extra)
    if "dc" not in given and request.target is None and request.evasion is None:
        changes["dc"] = action.dc
    if "adv" not in given:
        changes["advantage"] = action.advantage
    if "dis" not in given:
        changes["disadvantage"] = action.disadvantage
    return request._replace(**changes)


@notebook
class ActionEvent(NamedTuple):
    """A named action added to or removed from a creature's sheet.

    Attributes:
        replaced: for an add, the action of that name (N1) it replaced where it stood, else None.
    """

    kind: str
    round: int
    turn: str | None
    actor: str
    action: Action
    replaced: Action | None = None

    @property
    def allowed(self) -> bool:
        return True


def add_action(
    encounter: Encounter, name: str, row: Mapping[str, object]
) -> tuple[Encounter, ActionEvent]:
    """Add a named action at the end of a creature's sheet, or replace the one of the same name
    (N1) where it stands, so the order of the actions is kept (and the very action it has changes nothing).

    Raises:
        InputError: unknown creature; the action's problems as `check_action`.
    """
    position = encounter.position_of(name)
    creature = encounter.creatures[position]
    try:
        action = check_action(row, creature.aspects)
    except InputError as error:
        key = error.field.rpartition(".")[2]  # `actions #1.cost`: the row's own field, `cost`
        raise InputError(
            key if key in ACTION_KEYS else error.field,
            error.value,
            error.problem,
            mentions=error.mentions,
            where=creature.name,
        ) from None
    key = fold_name(action.name)
    actions = tuple(
        action if fold_name(a.name) == key else a for a in creature.actions
    )  # in place: order kept
    replaced = find_action(creature, action.name)
    if replaced is None:
        actions += (action,)
    new = encounter.with_creature(position, creature._replace(actions=actions))
    return new, ActionEvent(
        ACTION_ADD, encounter.round, encounter.current, creature.name, action, replaced
    )


def remove_action(
    encounter: Encounter, name: str, action_name: str
) -> tuple[Encounter, ActionEvent]:
    """Remove a named action from a creature's sheet.

    Raises:
        InputError: unknown creature or action (the message lists its actions).
    """
    position = encounter.position_of(name)
    creature = encounter.creatures[position]
    action = find_action(creature, action_name)
    if action is None:
        have = ", ".join(a.name for a in creature.actions) or "none"
        raise InputError(
            "ACTION", action_name, f"{creature.name} has no such action (it has: {have})"
        )
    kept = tuple(a for a in creature.actions if a is not action)
    new = encounter.with_creature(position, creature._replace(actions=kept))
    return new, ActionEvent(
        ACTION_REMOVE, encounter.round, encounter.current, creature.name, action
    )
