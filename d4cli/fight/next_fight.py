"""The next fight of an evening (``d4cli next``): the kept side carries over, new foes join.

`next_fight` is the pure transition: the creatures of the kept side go on as they stand (sheet,
Aspects, hp and max_hp, Exhaustion, Load Buffer, notes, named actions), their Load back at the
reset value the new fight starts them at (R1, R12), their lasting effects and Team Action
grants ended unless kept (R11, R20); everybody else leaves, and the foes given join fresh
(`d4cli.fight.sheets.copy_sheet`: a template's stat block, Load at its reset value). The round
is 0 again, no turn runs (R13), the reset mode stays unless another is given (R12).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from d4cli.fight.encounter_state import MODES, ROUND_RESETS, Creature, Encounter, same_name
from d4cli.fight.events import NextEvent
from d4cli.fight.sheets import copy_sheet
from d4cli.fight.turns import add_creatures, numbered_names
from d4cli.rules.errors import InputError
from d4cli.rules.names import check_text


class Foe(NamedTuple):
    """A foe to bring in: a template creature's sheet, under its own name (*copies* None) or as
    *copies* numbered copies (``goblin x3``: ``Goblin 1`` .. ``Goblin 3``), and where it came
    from (the bestiary entry or template, for the record)."""

    sheet: Creature
    copies: int | None = None
    source: str = ""


def kept_side(encounter: Encounter, seated: tuple[str, ...], given: str | None) -> str:
    """The side that carries into the next fight: *given*, else the side with the most seated
    creatures (a tie goes to ``party``, else to the side seated first), else ``party``.

    Raises:
        InputError: naming ``keep``: *given* is blank or no creature is on that side.
    """
    if given is not None:
        check_text(given, "keep")
        sides = [c.side for c in encounter.creatures if c.side]
        if not any(same_name(side, given) for side in sides):
            known = ", ".join(dict.fromkeys(sides)) or "none"
            raise InputError("keep", given, f"no creature is on this side (sides: {known})")
        return next(side for side in sides if same_name(side, given))
    counts: dict[str, int] = {}
    for name in seated:
        for creature in encounter.creatures:
            if same_name(creature.name, name) and creature.side:
                counts[creature.side] = counts.get(creature.side, 0) + 1
    if not counts:
        return "party"
    most = max(counts.values())
    tied = [side for side, count in counts.items() if count == most]
    return next((side for side in tied if same_name(side, "party")), tied[0])


def next_fight(
    encounter: Encounter,
    *,
    fight: int,
    archived: str,
    keep_side: str,
    foes: tuple[Foe, ...] = (),
    name: str | None = None,
    mode: str | None = None,
    round_reset: str | None = None,
    keep_effects: bool = False,
) -> tuple[Encounter, NextEvent]:
    """The next fight after *encounter*: its *keep_side* carries, *foes* join (module docstring).

    *name* defaults to ``Fight N``; *mode* and *round_reset* to the finished fight's (R12).

    Raises:
        InputError: an unknown mode or round reset, a round reset outside round mode (R12), a
            blank name, a foe whose name is taken (N1) or a count out of range.
    """
    if mode is not None and mode not in MODES:
        raise InputError("mode", mode, "must be 'turn' or 'round' (R12)")
    if round_reset is not None and round_reset not in ROUND_RESETS:
        raise InputError("round_reset", round_reset, "must be 'buffer' or 'zero' (R12)")
    new_mode = mode or encounter.mode
    if round_reset is not None and new_mode != "round":
        raise InputError("round_reset", round_reset, "applies only in round mode (R12)")
    new_reset = round_reset or (encounter.round_reset if new_mode == "round" else "buffer")
    title = f"Fight {fight}" if name is None else check_text(name, "name")
    base = Encounter(
        name=title,
        mode=new_mode,
        round_reset=new_reset,
        player_view=encounter.player_view,
    )
    ended = 0
    carried: list[Creature] = []
    for creature in encounter.creatures:
        if not same_name(creature.side, keep_side):
            continue
        effects = creature.effects if keep_effects else ()
        ended += len(creature.effects) - len(effects)
        carried.append(
            creature._replace(load=base.reset_to(creature), had_turn=False, effects=effects)
        )
    start = base._replace(creatures=tuple(carried))
    joined: list[Creature] = []
    for foe in foes:
        taken = start._replace(creatures=start.creatures + tuple(joined))
        names = (
            (foe.sheet.name,)
            if foe.copies is None
            else numbered_names(taken, foe.sheet.name, foe.copies)
        )
        joined += [copy_sheet(foe.sheet, each)._replace(hidden=foe.sheet.hidden) for each in names]
    after = start
    if joined:
        after, _ = add_creatures(start, tuple(joined))
    event = NextEvent(
        fight=fight,
        name=title,
        previous=encounter.name,
        archived=archived,
        keep_side=keep_side,
        kept=tuple(c.name for c in carried),
        added=tuple(c.name for c in after.creatures[len(carried) :]),
        effects_dropped=ended,
        mode=new_mode,
        round_reset=new_reset,
    )
    return after, event


class FightSummary(NamedTuple):
    """One fight of an evening, for its recap: its number, name, file, rounds played and the
    side that won it (R21; None while it runs or when everyone went down)."""

    number: int
    name: str
    path: Path
    rounds: int
    winner: str | None


class CreatureEvening(NamedTuple):
    """One creature over an evening: the fights it was in, damage dealt and taken (hp, R16),
    Load spent (R8), reactions (actions off its turn, R10) and all its actions."""

    name: str
    side: str | None
    fights: int = 0
    damage_dealt: int = 0
    damage_taken: int = 0
    load_spent: int = 0
    reactions: int = 0
    actions: int = 0


def fights_won(winners: list[str | None]) -> dict[str, int]:
    """Each side and the number of fights it won (R21), in the order first won."""
    won: dict[str, int] = {}
    for winner in winners:
        if winner is not None:
            won[winner] = won.get(winner, 0) + 1
    return won
