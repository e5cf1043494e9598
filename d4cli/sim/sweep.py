"""The sweeps of ``simulate``: a grid over one setting or two, and the setups of each cell,
a setting of each sweep and a mode (R1, R12).

A sweep is of a policy key (every creature's reserve or Load Buffer, or one creature's:
``reserve=0..3``, ``buffer:Aria=0..2``) or of a creature's setting as ``balance`` varies it
(``Goblin Chief:hp=8..20``, read by the one parser, `d4cli.sim.balance_search.Vary.parse`; a side's
name sets every creature on it). Pure: the encounter with the settings changed, for
`d4cli.sim.setup.prepare`; a creature's setting is made by the function the caller hands in
(`d4cli.api.creature_settings`, the transition ``balance --apply`` writes).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from d4cli.fight.encounter_state import Encounter
from d4cli.rules.errors import InputError
from d4cli.rules.limits import Range, check_whole, parse_whole
from d4cli.rules.records import notebook
from d4cli.sim.balance_search import Vary
from d4cli.sim.setup import Setup, prepare

KEYS: tuple[str, ...] = ("reserve", "buffer")
VALUES: Range = (0, 1000)
MAX_SETTINGS = 51  # settings of one sweep
MAX_SWEEPS = 2  # sweeps at once: a map of two settings
# The encounter with one creature's setting (``Goblin Chief:hp``) at a value.
SetValue = Callable[[Encounter, str, int], Encounter]


@notebook
class Sweep(NamedTuple):
    """A grid over one setting: one row of the report per value (with two sweeps, a map).

    Attributes:
        key: ``reserve`` (every creature's reserved headroom, its policy's ``reserve``) or
            ``buffer`` (every Load Buffer, R1); ``reserve:NAME`` or ``buffer:NAME`` for one
            creature (N1 folding).
        values: the settings, whole numbers within 0..1000, at most `MAX_SETTINGS`.
        text: as the sweep was written (``reserve=0..3``), for messages; "" to spell it from
            *key* and *values*.
        asked: the high end given when a hurt creature's ``hp`` capped the values at its
            max_hp (R18), else None.
    """

    key: str
    values: tuple[int, ...]
    text: str = ""
    asked: int | None = None

    @classmethod
    def parse(cls, text: str) -> Sweep:
        """``reserve=0..3`` -> ``Sweep("reserve", (0, 1, 2, 3), "reserve=0..3")``.

        ``Goblin Chief:hp=8..20`` (a creature's setting) is read as ``balance --vary`` reads
        it (`Vary.parse`): ``Sweep("Goblin Chief:hp", (8, ..., 20), text)``.

        Raises:
            InputError: naming ``sweep``: an unknown key, or not ``KEY=A..B`` with
                0 <= A <= B <= 1000 (a creature's setting: a range with a whole number)
                and at most `MAX_SETTINGS` settings.
        """
        key, sign, span = text.rpartition("=") if "=" in text else (text, "", "")
        if is_setting(key):
            vary = Vary.parse(text, "sweep")
            if vary.high - vary.low >= MAX_SETTINGS:
                raise InputError("sweep", text, f"at most {MAX_SETTINGS} settings")
            return cls(f"{vary.creature}:{vary.field}", tuple(range(vary.low, vary.high + 1)), text)
        _check_key(key, text)
        low, dots, high = span.partition("..")
        if not sign or not dots:
            raise InputError("sweep", text, "must be KEY=A..B, such as reserve=0..3")
        first = parse_whole(low, "sweep", VALUES)
        last = parse_whole(high, "sweep", VALUES)
        if last < first:
            raise InputError(
                "sweep", text, f"a range goes low..high, such as {key}={last}..{first}"
            )
        if last - first >= MAX_SETTINGS:
            raise InputError(
                "sweep",
                text,
                f"at most {MAX_SETTINGS} settings, such as {key}={first}..{first + MAX_SETTINGS - 1}",
            )
        return cls(key, tuple(range(first, last + 1)), text)

    def checked(self) -> Sweep:
        """This sweep, its key and values checked (as `parse` checks them).

        Raises:
            InputError: naming ``sweep``.
        """
        text = self.text or f"{self.key}={','.join(map(str, self.values))}"
        if not self.values or len(self.values) > MAX_SETTINGS:
            raise InputError("sweep", text, f"give 1..{MAX_SETTINGS} settings")
        if is_setting(self.key):
            bounds = (-(10**9), 10**9)
            values = tuple(check_whole(value, "sweep", bounds) for value in self.values)
            return self._replace(values=values, text=text)
        _check_key(self.key, text)
        values = tuple(check_whole(value, "sweep", VALUES) for value in self.values)
        return self._replace(values=values, text=text)

    def vary(self) -> Vary:
        """A creature's setting as `Vary` (from its lowest value to its highest)."""
        creature, _, field = self.key.rpartition(":")
        return Vary(creature, field, min(self.values), max(self.values), self.text)


def is_setting(key: str) -> bool:
    """*key* is a creature's (or a side's) setting, ``Goblin Chief:hp``, not a policy key
    (``reserve``, ``buffer:Aria``)."""
    base, colon, _ = key.partition(":")
    return bool(colon) and base.strip() not in KEYS


def cell_count(grids: Sequence[Sweep], modes: int) -> int:
    """The cells a simulation plays: the product of the sweeps' settings, times the modes."""
    return math.prod(len(grid.values) for grid in grids) * modes


def split_key(key: str) -> tuple[str, str | None]:
    """``reserve:Aria`` -> ("reserve", "Aria"); ``reserve`` -> ("reserve", None)."""
    base, colon, name = key.partition(":")
    return (base, name) if colon else (base, None)


def with_setting(encounter: Encounter, key: str, name: str, value: int) -> Encounter:
    """*encounter* with creature *name*'s *key* (``reserve`` or ``buffer``) set to *value*.

    Raises:
        InputError: naming ``sweep``: no creature called *name* (N1).
    """
    try:
        position = encounter.position_of(name, "sweep")
    except InputError as error:
        raise InputError("sweep", f"{key}:{name}", error.problem, mentions=error.mentions) from None
    creature = encounter.creatures[position]
    if key == "buffer":
        changed = creature._replace(load_buffer=value)
    else:
        changed = creature._replace(
            policy=tuple(p for p in creature.policy if p[0] != "reserve") + (("reserve", value),)
        )
    return encounter.with_creature(position, changed)


def _check_key(key: str, text: str) -> None:
    """*key* is a sweep's: one of `KEYS`, alone or with ``:NAME``.

    Raises:
        InputError: naming ``sweep`` and *text*.
    """
    base, name = split_key(key)
    if base not in KEYS or name == "":
        raise InputError(
            "sweep",
            text,
            "unknown key; one of "
            + ", ".join(KEYS)
            + ", or KEY:NAME for one creature (such as reserve=0..3 or buffer:Aria=0..2),"
            " or a creature's or a side's CREATURE:FIELD (such as 'Goblin Chief:hp=8..20')",
        )


def cells(
    grids: Sequence[Sweep], modes: tuple[str, ...]
) -> Iterator[tuple[str, tuple[tuple[int, ...], str]]]:
    """Each cell's label and ``(settings, mode)``: the first sweep's settings outermost, modes
    innermost; ``settings`` holds one value per sweep (none without a sweep)."""
    for settings in _product(grids):
        for mode in modes:
            yield f"{','.join(map(str, settings))}/{mode}", (settings, mode)


def _product(grids: Sequence[Sweep]) -> Iterator[tuple[int, ...]]:
    if not grids:
        yield ()
        return
    for value in grids[0].values:
        for rest in _product(grids[1:]):
            yield (value, *rest)


def grid_setups(
    encounter: Encounter,
    modes: tuple[str, ...],
    grids: Sequence[Sweep],
    *,
    max_rounds: int,
    target: str | None = None,
    reserve: int | None = None,
    set_value: SetValue | None = None,
) -> list[tuple[str, str, Setup]]:
    """Each cell's ``(label, mode, setup)``: the encounter at its settings, prepared for its mode.

    *set_value* makes a creature's setting (`is_setting`); it is needed when a sweep has one.

    Raises:
        InputError: what `d4cli.sim.setup.prepare` refuses; a sweep of a creature not there
            (N1); what *set_value* refuses.
    """
    setups = []
    for label, (settings, mode) in cells(grids, modes):
        options: dict[str, Any] = {"max_rounds": max_rounds, "target": target, "reserve": reserve}
        played = encounter
        for grid, value in zip(grids, settings):
            base, one = split_key(grid.key)
            if is_setting(grid.key):
                if set_value is None:
                    raise InputError("sweep", grid.text, "a creature's setting needs set_value")
                played = set_value(played, grid.key, value)
            elif one is not None:
                played = with_setting(played, base, one, value)
            else:
                options[base] = value
        setups.append((label, mode, prepare(played, mode, **options)))
    return setups
