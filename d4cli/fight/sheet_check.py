"""Checks from a creature's sheet (C1-C8, R4, R11): sources, levels, the check transition.

Pure: ``(new_encounter, record)`` out, dice from an injected `DiceSource`.
Sources of a check (C8) are a list of `Source` records ``(name, grant, origin,
level)``; `check_sources` builds it from the command line and the creature's
lasting effects (R20), Team Action grants among them (R11).
"""

from __future__ import annotations

from typing import NamedTuple

from d4cli.fight.closed_sets import CHECK
from d4cli.fight.effect_transitions import use_effects
from d4cli.fight.effects import Ended, Pending, team_grants
from d4cli.fight.encounter_state import STAT_KINDS, Creature, Encounter
from d4cli.fight.sheets import stat
from d4cli.rules.action_roll import CheckRequest, CheckResult, roll_check
from d4cli.rules.dice import DiceSource
from d4cli.rules.limits import ADVANTAGE_LEVEL, DISADVANTAGE_COUNT, check_range
from d4cli.rules.names import check_name, source_key
from d4cli.rules.records import notebook

# --- checks (C8) ----------------------------------------------------------------------------


class Source(NamedTuple):
    """A source of Advantage or Disadvantage on a check (C8, R4).

    Attributes:
        name: as written; distinct sources compare by N1.
        grant: ``advantage`` or ``disadvantage``.
        origin: where it came from: ``--adv``/``--dis`` (the option that named it), ``team``
            (a Team Action grant, R11) or ``effect`` (a lasting effect, R20), as `d4cli.fight.effects.Effect.origin`.
        level: how much an Advantage source raises the level (C8: 1 unless it says otherwise).
    """

    name: str
    grant: str
    origin: str
    level: int = 1


@notebook
class SheetCheckRequest(NamedTuple):
    """What ``d4cli check`` asks for: stat names, a DC, a base level and count, sources (C1-C8).

    Attributes:
        actor: the creature (N1).
        attribute / proficiency / specialization: stat names, or None for none (C8).
        dc: the DC (C2), or None.
        advantage_level: the base Advantage Level (C3); disadvantage: the base count (C4).
        advantage / disadvantage: sources named on the command line (R4).
        rule_of_three: C7. note: free text kept in the journal.
    """

    actor: str
    attribute: str | None = None
    proficiency: str | None = None
    specialization: str | None = None
    dc: int | None = None
    advantage_level: int = 0
    disadvantage: int = 0
    advantage: tuple[str, ...] = ()
    disadvantage_sources: tuple[str, ...] = ()
    rule_of_three: bool = False
    note: str = ""


@notebook
class CheckRecord(NamedTuple):
    """A check made from a creature's sheet (C1-C8).

    Attributes:
        stats: ``(kind, name, value)`` for each stat used (kind ``attribute`` ...).
        sources: every source considered, in order (`Source`); counted: the distinct ones.
        base_level / base_disadvantage: from ``--advantage`` / ``--disadvantage``.
        grants_used: the Team Action grants the check used up (R11).
        effects_ended: the effects the check used up (R20: a ``--uses`` count, a grant).
    """

    @property
    def kind(self) -> str:
        return CHECK

    round: int
    turn: str | None
    actor: str
    result: CheckResult
    stats: tuple[tuple[str, str, int], ...]
    sources: tuple[Source, ...]
    counted: tuple[Source, ...]
    base_level: int
    base_disadvantage: int
    grants_used: Pending
    note: str = ""
    load: int = 0
    effects_ended: tuple[Ended, ...] = ()

    @property
    def raised_level(self) -> int:
        """The Advantage Level before the cap at 5 (C3): the base plus each counted source's level (C8)."""
        return raised_level(self.base_level, self.counted)

    @property
    def allowed(self) -> bool:
        """False when impossible (C4): the store then writes nothing."""
        return not self.result.impossible


def check_sources(
    encounter: Encounter, creature: Creature, request: SheetCheckRequest
) -> list[Source]:
    """Every source of the check: command line, then its own lasting effects and grants (C8, R11, R20),
    each effect with its level (C8)."""
    sources = [Source(name, "advantage", "--adv") for name in request.advantage]
    sources += [Source(name, "disadvantage", "--dis") for name in request.disadvantage_sources]
    sources += [
        Source(e.source, e.grant, e.origin, e.level) for e in creature.effects if e.on == "own"
    ]  # C8: its level
    return sources


# The request's field of a source named on the command line, by its origin; an effect's is its origin.
_FIELD_OF_ORIGIN = {"--adv": "advantage", "--dis": "disadvantage_sources"}


def count_sources(sources: list[Source]) -> tuple[Source, ...]:
    """The distinct sources (R4, N1: first spelling kept, per grant); a source named twice
    counts once, as the one of them with the highest level (C8).

    Raises:
        InputError: a source name that is not a name (N1), naming its request field or origin.
    """
    seen: dict[tuple[str, str], int] = {}
    counted: list[Source] = []
    for source in sources:
        field = _FIELD_OF_ORIGIN.get(source.origin, source.origin)
        key = (source.grant, source_key(check_name(source.name, field)))
        if key not in seen:
            seen[key] = len(counted)
            counted.append(source)
        elif source.level > counted[seen[key]].level:
            counted[seen[key]] = source
    return tuple(counted)


def raised_level(base_level: int, counted: tuple[Source, ...]) -> int:
    """C8: *base_level* plus the level of each counted Advantage source, before the cap at 5 (C3)."""
    return base_level + sum(s.level for s in counted if s.grant == "advantage")


def levels_from(
    base_level: int, base_disadvantage: int, counted: tuple[Source, ...]
) -> tuple[int, int]:
    """C8: ``(Advantage Level, Disadvantages)``: each Advantage source adds its level (capped at 5)."""
    raised = raised_level(base_level, counted)
    dis = base_disadvantage + sum(1 for s in counted if s.grant == "disadvantage")
    return min(ADVANTAGE_LEVEL[1], raised), dis


def sheet_check(
    encounter: Encounter, request: SheetCheckRequest, rng: DiceSource
) -> tuple[Encounter, CheckRecord]:
    """A check from a creature's sheet (C1-C8): stats by name, sources, roll, grants used up.

    Never changes Load (C8). An impossible check (C4) rolls nothing and changes nothing.

    Raises:
        InputError: unknown creature; a stat it lacks (C8); a level outside 0..5 (C3).
    """
    check_range(request.advantage_level, "advantage_level", ADVANTAGE_LEVEL)
    check_range(request.disadvantage, "disadvantage", DISADVANTAGE_COUNT)
    position = encounter.position_of(request.actor)
    creature = encounter.creatures[position]
    stats: list[tuple[str, str, int]] = []
    values = {}
    for kind, asked in (
        ("attributes", request.attribute),
        ("proficiencies", request.proficiency),
        ("specializations", request.specialization),
    ):
        if asked is not None:
            stat_name, value = stat(creature, kind, asked, STAT_KINDS[kind].lower())
            stats.append((STAT_KINDS[kind].lower(), stat_name, value))
            values[STAT_KINDS[kind].lower()] = value
    sources = check_sources(encounter, creature, request)
    counted = count_sources(sources)
    level, dis = levels_from(request.advantage_level, request.disadvantage, counted)
    check_request = CheckRequest(
        attribute=values.get("attribute", 0),
        proficiency=values.get("proficiency", 0),
        specialization=values.get("specialization", 0),
        dc=request.dc,
        advantage_level=level,
        disadvantage=dis,
        rule_of_three=request.rule_of_three,
    )
    result = roll_check(check_request, rng)
    record = CheckRecord(
        round=encounter.round,
        turn=encounter.current,
        actor=creature.name,
        result=result,
        stats=tuple(stats),
        sources=tuple(sources),
        counted=counted,
        base_level=request.advantage_level,
        base_disadvantage=request.disadvantage,
        grants_used=Pending(),
        note=request.note,
        load=creature.load,
    )
    if result.impossible:
        return encounter, record
    new, ended = use_effects(encounter, creature.name, None)  # R11, R20: uses count down
    return new, record._replace(effects_ended=ended, grants_used=team_grants(ended))
