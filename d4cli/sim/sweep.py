"""The sweep of ``simulate``: a grid over one setting (every creature's reserve or Load Buffer,
or one creature's), and the setups of each setting and mode (R1, R12).

Pure: the encounter with a setting changed, for `d4cli.sim.setup.prepare`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from d4cli.fight.encounter import Encounter
from d4cli.rules.errors import InputError
from d4cli.rules.limits import Range, check_whole, parse_whole
from d4cli.rules.records import notebook
from d4cli.sim.setup import Setup, prepare

KEYS: tuple[str, ...] = ("reserve", "buffer")
VALUES: Range = (0, 1000)
MAX_SETTINGS = 51  # settings of one sweep


@notebook
class Sweep(NamedTuple):
    """A grid over one setting: one row of the report per value.

    Attributes:
        key: ``reserve`` (every creature's reserved headroom, its policy's ``reserve``) or
            ``buffer`` (every Load Buffer, R1); ``reserve:NAME`` or ``buffer:NAME`` for one
            creature (N1 folding).
        values: the settings, whole numbers within 0..1000, at most `MAX_SETTINGS`.
        text: as the sweep was written (``reserve=0..3``), for messages; "" to spell it from
            *key* and *values*.
    """

    key: str
    values: tuple[int, ...]
    text: str = ""

    @classmethod
    def parse(cls, text: str) -> Sweep:
        """``reserve=0..3`` -> ``Sweep("reserve", (0, 1, 2, 3), "reserve=0..3")``.

        Raises:
            InputError: naming ``sweep``: an unknown key, or not ``KEY=A..B`` with
                0 <= A <= B <= 1000 and at most `MAX_SETTINGS` settings.
        """
        key, sign, span = text.rpartition("=") if "=" in text else (text, "", "")
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
        _check_key(self.key, text)
        if not self.values or len(self.values) > MAX_SETTINGS:
            raise InputError("sweep", text, f"give 1..{MAX_SETTINGS} settings")
        values = tuple(check_whole(value, "sweep", VALUES) for value in self.values)
        return self._replace(values=values, text=text)


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
            + ", or KEY:NAME for one creature (such as reserve=0..3 or buffer:Aria=0..2)",
        )


def cells(grid: Sweep | None, modes: tuple[str, ...]) -> Iterator[tuple[str, tuple[Any, str]]]:
    """Each cell's label and ``(setting, mode)``: settings outer, modes inner."""
    values: tuple[Any, ...] = (None,) if grid is None else grid.values
    for value in values:
        for mode in modes:
            yield f"{value}/{mode}", (value, mode)


def grid_setups(
    encounter: Encounter,
    modes: tuple[str, ...],
    grid: Sweep | None,
    *,
    max_rounds: int,
    target: str | None = None,
    reserve: int | None = None,
) -> list[tuple[str, str, Setup]]:
    """Each cell's ``(label, mode, setup)``: the encounter at its setting, prepared for its mode.

    Raises:
        InputError: what `d4cli.sim.setup.prepare` refuses; a sweep of a creature not there (N1).
    """
    base, one = split_key(grid.key) if grid is not None else (None, None)
    setups = []
    for label, (value, mode) in cells(grid, modes):
        options: dict[str, Any] = {"max_rounds": max_rounds, "target": target, "reserve": reserve}
        played = encounter
        if base is not None and one is not None:
            played = with_setting(encounter, base, one, value)
        elif base is not None:
            options[base] = value
        setups.append((label, mode, prepare(played, mode, **options)))
    return setups
