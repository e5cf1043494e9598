"""Dice: the injected random source and the extra-dice notation (R6, L3).

Every rule that rolls takes a `DiceSource`, anything with ``randint(a, b)``
(``random.Random`` is one). Tests pass `ScriptedDice` to fix every die.
"""

# No `from __future__ import annotations`: a named tuple's field annotations would then be
# strings, each compiled when the class is made (start-up).

import re
from collections.abc import Iterable
from typing import NamedTuple, Protocol

from d4cli.rules.errors import InputError
from d4cli.rules.limits import FACES, MAX_DICE, MAX_DIGITS, MODIFIER
from d4cli.rules.records import notebook


class DiceSource(Protocol):
    """A source of dice: ``randint(1, sides)`` returns one die, uniformly."""

    def randint(self, a: int, b: int) -> int: ...


class ScriptedDice:
    """A `DiceSource` that returns a fixed sequence of results, for tests and examples.

    Raises:
        InputError: field ``rng``: a scripted value does not fit the die asked for, or the
            script ran out (a test that rolls more dice than it expects fails), so that a
            9 can never count as a d4's face, whatever Python's ``-O``.
    """

    def __init__(self, results: Iterable[int]) -> None:
        self._results = list(results)
        self.used = 0

    def randint(self, a: int, b: int) -> int:
        if self.used >= len(self._results):
            raise InputError("rng", self.used + 1, "scripted dice ran out before this die")
        value = self._results[self.used]
        if not a <= value <= b:
            raise InputError("rng", value, f"scripted die {self.used + 1} is not a d{b} ({a}..{b})")
        self.used += 1
        return value

    @property
    def left(self) -> int:
        """How many scripted results have not been used."""
        return len(self._results) - self.used


class EnteredDice:
    """A `DiceSource` that yields faces the players entered (real dice on the table), in order.

    The rules stay pure: they ask for each die as they would of a random source, and this
    hands back the next entered face. `finish` then checks that every face was used.

    Args:
        faces: the entered faces, in the order the rules take the dice (a pool's d4s, then
            each extra dice group, R6; a check's d20, then its d6s, C3-C6).
        field: the field to name in an error (``faces``).

    Raises (from `randint`):
        InputError: fewer faces than the roll needs, or a face outside its die (1..sides),
            naming *field* and the value.
    """

    def __init__(self, faces: Iterable[int], field: str = "faces") -> None:
        self.faces = tuple(faces)
        self.field = field
        self.used = 0

    def randint(self, a: int, b: int) -> int:
        shown = ",".join(str(face) for face in self.faces)
        if self.used >= len(self.faces):
            raise InputError(
                self.field, shown, f"{len(self.faces)} faces entered; the roll needs more"
            )
        face = self.faces[self.used]
        if not a <= face <= b:
            place = self.used + 1
            raise InputError(self.field, face, f"face {place} must be within {a}..{b} (a d{b})")
        self.used += 1
        return face

    def finish(self) -> None:
        """Check that the roll used every entered face.

        Raises:
            InputError: faces left over, naming *field*, the faces and the count the roll took.
        """
        if self.used != len(self.faces):
            shown = ",".join(str(face) for face in self.faces)
            problem = f"{len(self.faces)} faces entered; the roll takes exactly {self.used}"
            raise InputError(self.field, shown, problem)


def parse_faces(text: str, field: str = "faces") -> tuple[int, ...]:
    """Faces entered as whole numbers joined by commas, nothing else: ``"3,1,4,2"`` (L2: at
    most 10,000; L3: ``" 3"`` is no whole number).

    Raises:
        InputError: empty, or a part that is not a whole number, naming *field* and the text.
    """
    parts = text.split(",")  # no padding: " 3" is no whole number (L3)
    if len(parts) > MAX_DICE:
        raise InputError(field, text[:40], f"at most {MAX_DICE:,} faces (L2)")
    faces: list[int] = []
    for part in parts:
        if not part.isascii() or not part.isdigit() or len(part) > 6:
            raise InputError(
                field,
                text,
                f"{repr(_named(part)) if part else 'an empty part'} is not a face: give whole numbers such as 3,1,4",
            )
        faces.append(int(part))
    return tuple(faces)


class ExtraDice:
    """Extra dice such as a weapon's ``1d8+2`` (R6): ``count`` dice of ``sides`` plus ``modifier``.

    A value: equal and hashed by ``(count, sides, modifier)``, never changed once made.
    A plain class with slots, not a named tuple (``count`` would hide `tuple.count`)
    nor a dataclass: ``roll pool`` builds it at every start.
    """

    __slots__ = ("count", "sides", "modifier")

    def __init__(self, count: int, sides: int, modifier: int = 0) -> None:
        self.count = count
        self.sides = sides
        self.modifier = modifier

    def __eq__(self, other: object) -> bool:
        if type(other) is not ExtraDice:
            return NotImplemented
        return (self.count, self.sides, self.modifier) == (other.count, other.sides, other.modifier)

    def __hash__(self) -> int:
        return hash((self.count, self.sides, self.modifier))

    def __repr__(self) -> str:
        return f"ExtraDice(count={self.count!r}, sides={self.sides!r}, modifier={self.modifier!r})"

    @property
    def notation(self) -> str:
        """The canonical notation: ``1d8``, ``2d6+1``, ``1d4-1``."""
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{mod}"


@notebook
class ExtraRoll(NamedTuple):
    """The roll of one `ExtraDice`: its dice and the subtotal with the modifier."""

    extra: ExtraDice
    dice: tuple[int, ...]

    @property
    def subtotal(self) -> int:
        return sum(self.dice) + self.extra.modifier


# Patterns compiled on first use (`re`'s cache): most runs parse no dice notation.
# Digits are read whole and bounded after (`_number`): a cap on digits in the pattern would
# split ``0010001d4`` into the number 1000 and the dice 1d4.
_NOTATION = r"([0-9]+)[dD]([0-9]+)(?:([+-])([0-9]+))?"
_TERM = r"([+-]?)([0-9]+(?:[dD][0-9]+)?)"


def _number(digits: str) -> int:
    """The value of *digits*, or one past every bound (L1-L3) when it has more digits than any
    range allows: `int` is quadratic in the digits and refuses more than 4,300."""
    significant = digits.lstrip("0")
    return int(significant or "0") if len(significant) <= MAX_DIGITS else 10**MAX_DIGITS


def _named(term: str) -> str:
    """A term of a sum as a message names it: whole, or past 20 characters its start and length."""
    return term if len(term) <= 20 else f"{term[:12]}... ({len(term):,} characters)"


def parse_extra(text: str, field: str = "extra") -> ExtraDice:
    """Parse extra-dice notation ``NdX``, ``NdX+M`` or ``NdX-M``; ``D`` too (R6, L3).

    N >= 1, X within 1..1000, M within -1000..1000; at most 10,000 dice (L2).

    Raises:
        InputError: anything else (``0d8``, ``-2d8``, ``2d0``, ``1d8+``, ``1d8x``, ``d4``).
    """
    match = re.fullmatch(_NOTATION, text)
    if not match:
        raise InputError(field, text, "must be dice like 1d8, 2d6+1 or 1d4-1")
    count, sides = _number(match[1]), _number(match[2])
    modifier = _number(match[4]) if match[4] else 0
    if match[3] == "-":
        modifier = -modifier
    if count < 1:
        raise InputError(field, text, "must roll at least one die")
    if count > MAX_DICE:
        raise InputError(field, text, f"a roll has at most {MAX_DICE:,} dice (L2)")
    if not FACES[0] <= sides <= FACES[1]:
        raise InputError(field, text, f"dice must have {FACES[0]} to {FACES[1]} sides")
    if not MODIFIER[0] <= modifier <= MODIFIER[1]:
        raise InputError(field, text, f"the modifier must be within {MODIFIER[0]}..{MODIFIER[1]}")
    return ExtraDice(count, sides, modifier)


def parse_extras(texts: Iterable[str], field: str = "extra") -> tuple[ExtraDice, ...]:
    """Parse each ``--extra`` value; a sum of groups (``1d4+1d6+2``) is one source (R6, L3).

    A sum is dice groups and whole numbers joined by ``+`` (numbers also by ``-``);
    it becomes one `ExtraDice` per dice group, the numbers added to the last
    group's modifier. Its dice count once against L2 (at most 10,000 in the sum).

    >>> [e.notation for e in parse_extras(["1D8", "1d4+1d6+2"])]
    ['1d8', '1d4', '1d6+2']

    Raises:
        InputError: a value that is neither `parse_extra` notation nor such a sum.
    """
    out: list[ExtraDice] = []
    for text in texts:
        out.extend(_parse_sum(text, field))
    return tuple(out)


def _parse_sum(text: str, field: str) -> list[ExtraDice]:
    if re.fullmatch(_NOTATION, text) or not text[:1].isdigit():
        return [parse_extra(text, field)]
    terms = [(match[1], match[2]) for match in re.finditer(_TERM, text)]
    joined = "".join(sign + term for sign, term in terms)
    if joined != text or terms[0][0] or not all(sign for sign, _ in terms[1:]):
        raise InputError(
            field, text, "must be dice like 1d8, 2d6+1, 1d4-1 or a sum such as 1d4+1d6+2"
        )
    groups: list[ExtraDice] = []
    modifier = 0
    for sign, term in terms:
        if "d" in term.lower():
            if sign == "-":
                raise InputError(field, text, "dice can only be added (a number may be subtracted)")
            try:
                groups.append(parse_extra(term, field))
            except InputError as error:
                raise InputError(field, text, f"{_named(term)}: {error.problem}") from None
        else:
            number = _number(term)
            if number > MODIFIER[1]:
                raise InputError(
                    field,
                    text,
                    f"{_named(term)}: a number must be within {MODIFIER[0]}..{MODIFIER[1]}",
                )
            modifier += -number if sign == "-" else number
    if not groups:
        raise InputError(
            field, text, "must be dice like 1d8, 2d6+1, 1d4-1 or a sum such as 1d4+1d6+2"
        )
    if sum(group.count for group in groups) > MAX_DICE:
        raise InputError(field, text, f"a roll has at most {MAX_DICE:,} dice (L2)")
    if not MODIFIER[0] <= modifier <= MODIFIER[1]:
        raise InputError(field, text, f"the modifier must be within {MODIFIER[0]}..{MODIFIER[1]}")
    last = groups[-1]
    groups[-1] = ExtraDice(last.count, last.sides, modifier)
    return groups


class DiceExpression(NamedTuple):
    """A plain dice expression such as ``2d6+1d4+3`` (``roll dice``; L2, L3).

    Attributes:
        text: the expression as given.
        terms: one `ExtraDice` per dice term, in the order given; the whole numbers
            are added to the last term's modifier (as `parse_extras` does).
    """

    text: str
    terms: tuple[ExtraDice, ...]

    @property
    def dice_count(self) -> int:
        return sum(term.count for term in self.terms)


@notebook
class DiceRoll(NamedTuple):
    """The roll of a `DiceExpression`: each term's dice, and the total."""

    expression: DiceExpression
    rolls: tuple[ExtraRoll, ...]

    @property
    def total(self) -> int:
        return sum(roll.subtotal for roll in self.rolls)


def parse_expression(text: str, field: str = "EXPR") -> DiceExpression:
    """Parse ``NdX`` terms and whole numbers joined by ``+`` (numbers also by ``-``): ``2d6+1d4+3``.

    White space between terms is ignored. The same grammar as a summed ``--extra``
    (`parse_extras`): N >= 1, X within 1..1000, the numbers within L1, at most
    10,000 dice in all (L2, L3).

    >>> [t.notation for t in parse_expression("2d6 + 1d4 + 3").terms]
    ['2d6', '1d4+3']

    Raises:
        InputError: naming *field* and quoting *text*: no dice (``3``), ``0d6``,
            ``1d0``, a subtracted die, more than 10,000 dice, or trailing junk (``2d6+``).
    """
    compact = "".join(text.split())
    if compact and not any(ch in "dD" for ch in compact) and re.fullmatch(r"[0-9+-]+", compact):
        raise InputError(field, text, "has no dice: write NdX terms such as 2d6+1")
    if compact[:1] in ("d", "D"):
        raise InputError(field, text, f"says no count of dice: write 1{compact}")
    try:
        terms = _parse_sum(compact, field)
    except InputError as error:
        raise InputError(field, text, error.problem) from None
    return DiceExpression(text, tuple(terms))


def roll_expression(expression: DiceExpression, rng: DiceSource) -> DiceRoll:
    """Roll every term of *expression* with *rng*, in order (R6's dice, without a pool)."""
    return DiceRoll(expression, tuple(roll_extra(term, rng) for term in expression.terms))


def roll_extra(extra: ExtraDice, rng: DiceSource) -> ExtraRoll:
    """Roll one `ExtraDice` with *rng* (R6)."""
    return ExtraRoll(extra, roll_dice(extra.count, extra.sides, rng))


def roll_dice(count: int, sides: int, rng: DiceSource) -> tuple[int, ...]:
    """Roll *count* dice of *sides* faces with *rng*.

    A source with a ``roll_many(count, sides)`` method (`d4cli.sim.batched_dice.BatchedDice`)
    hands the same dice as *count* ``randint(1, sides)`` calls in one call.
    """
    many = getattr(rng, "roll_many", None)
    if many is not None:
        dice: tuple[int, ...] = many(count, sides)
        return dice
    randint = rng.randint
    return tuple([randint(1, sides) for _ in range(count)])
