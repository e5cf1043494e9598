"""Names: matching creatures, Aspects and Advantage sources (N1, R4), and checking user text."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from d4cli.rules.errors import NOT_UTF8, InputError
from d4cli.rules.limits import parse_whole

# The longest name (N1), in characters: a creature, Aspect, source, effect, stat, action or side.
MAX_NAME_LENGTH = 200


def fold_name(name: str) -> str:
    """Return the key under which *name* matches other names (N1, R4).

    Unicode NFC normalisation, case folding, surrounding white space dropped and
    inner runs of white space folded to one space: ``"Watch  My Back "`` and
    ``"watch my back"`` give the same key. There is no prefix matching. Keys of
    short names are cached (the simulator folds the same few names millions of times;
    a change folds every creature's name: the cache holds more than an encounter's).
    """
    if len(name) <= 100:
        return _fold_short(name)
    return _fold(name)


def _fold(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


# Larger than the creatures a file can hold (1 MB): an LRU cycled by more names than it holds hits never.
_fold_short = lru_cache(maxsize=8192)(_fold)


# Code points that draw nothing although Unicode does not class them as controls or
# format characters: the Hangul fillers, the Braille blank, the combining grapheme
# joiner, the Mongolian and Khmer invisibles, variation selectors and the other
# default-ignorable code points outside category Cf.
_INVISIBLE = frozenset(
    (0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0)
    + tuple(range(0x180B, 0x1810))
    + tuple(range(0xFE00, 0xFE10))
    + tuple(range(0xFFF0, 0xFFF9))
    + tuple(range(0x1BCA0, 0x1BCA4))
    + tuple(range(0x1D173, 0x1D17B))
    + tuple(range(0xE0000, 0xE1000))
)
# Categories a name never holds: controls (tab and newline included), format characters
# (zero-width space and joiners, LRM/RLM, bidi overrides, soft hyphen), surrogates,
# unassigned code points, and the line and paragraph separators.
_REFUSED_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Cn", "Zl", "Zp"))


def invisible_char(value: str) -> str | None:
    """The first character of *value* that a name may not hold (N1), or None.

    A name holds visible characters and spaces (any space separator, Zs; runs
    fold to one space under N1). Refused: controls (Cc: tab, newline, ESC...),
    format characters (Cf: zero-width space and joiners, LRM, RLM, bidi
    overrides), surrogates (Cs), unassigned code points (Cn), line and
    paragraph separators (Zl, Zp), and the characters that draw nothing
    although classed otherwise (Hangul fillers, the Braille blank, variation
    selectors, other default-ignorable code points).
    """
    for char in value:
        if ord(char) in _INVISIBLE or unicodedata.category(char) in _REFUSED_CATEGORIES:
            return char
    return None


def name_length(value: str) -> int:
    """How many characters *value* has once NFC-normalised (N1 compares names after NFC), so
    ``e`` plus a combining acute accent is one character, as the precomposed ``é`` is."""
    return len(value) if value.isascii() else len(unicodedata.normalize("NFC", value))


def name_problem(value: str) -> str | None:
    """Why *value* cannot be a name (N1), or None when it can: the one rule for every name.

    A name (of a creature, an Aspect, an Advantage source, an effect, a stat,
    an action, a side) must be valid UTF-8 text of at most `MAX_NAME_LENGTH`
    (200) characters (`name_length`: counted after NFC, as names are compared), hold no character `invisible_char` refuses, and hold at
    least one visible character: something other than spaces and combining marks.
    """
    length = name_length(value)
    if length > MAX_NAME_LENGTH:
        return f"is {length} characters long (after NFC normalisation): a name has at most {MAX_NAME_LENGTH} (N1)"
    bad = invisible_char(value)
    if bad is not None:
        code = f"U+{ord(bad):04X}"
        label = unicodedata.name(bad, "") or (
            "control" if unicodedata.category(bad) == "Cc" else ""
        )
        what = f"{code} {label}".rstrip()
        return f"holds an invisible or control character ({what}): a name has visible characters and spaces (N1)"
    if not any(unicodedata.category(char)[0] not in "ZM" for char in value):
        return "cannot be empty: a name needs at least one visible character (N1)"
    return None


def escape_name(value: str) -> str:
    """*value* with every character a name may not hold spelt as an escape (``A\\u200bria``).

    For messages about a refused name, so the fault shows: ``\\xNN`` for
    controls below U+0100, ``\\uNNNN`` or ``\\UNNNNNNNN`` for the rest. A name
    longer than `MAX_NAME_LENGTH` shows its first 40 characters and ``...``.
    """
    if name_length(value) > MAX_NAME_LENGTH:
        return escape_name(value[:40]) + "..."
    out = []
    for char in value:
        code = ord(char)
        if code in _INVISIBLE or unicodedata.category(char) in _REFUSED_CATEGORIES:
            out.append(
                f"\\x{code:02x}"
                if code < 0x100
                else f"\\u{code:04x}"
                if code < 0x10000
                else f"\\U{code:08x}"
            )
        else:
            out.append(char)
    return "".join(out)


def check_name(value: str, field: str) -> str:
    """Return *value* once it is a legal name (N1: `name_problem`), else raise InputError.

    Raises:
        InputError: naming *field* and the value, shown escaped (`escape_name`).
    """
    check_text(value, field)
    problem = name_problem(value)
    if problem is not None:
        raise InputError(field, escape_name(value), problem)
    return value


def check_text(value: str, field: str, *, name: bool = False) -> str:
    """Return *value*, text typed by the user, once it is known to be writable (N1).

    A byte that is not UTF-8 in argv (``$'Bad\\x9bName'``) reaches Python as a
    lone surrogate (``'Bad\\udc9bName'``), which can be neither stored in the
    encounter file nor printed faithfully: it is refused here, where the text
    enters, rather than failing on the way out.

    Args:
        value: the text as given.
        field: the field or argument, for the message (``source``, ``NAME``).
        name: the text names something (a creature, an Aspect, a source) and
            so must be a legal name (`check_name`, N1).

    Raises:
        InputError: not valid UTF-8 text; or, with *name*, not a legal name.
    """
    if (
        value.isascii()
        and value.isprintable()
        and len(value) <= MAX_NAME_LENGTH
        and value.strip(" ")
    ):
        # Fast path, the same verdict: printable ASCII is UTF-8 text with no character
        # `invisible_char` refuses, and something besides spaces is visible (`name_problem`).
        return value
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(
            field, value, NOT_UTF8
        ) from None  # the bytes shown as \\xNN (`InputError`)
    if name:
        problem = name_problem(value)
        if problem is not None:
            raise InputError(field, escape_name(value), problem)
    return value


def distinct_sources(
    names: tuple[str, ...] | list[str], field: str = "source"
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Split source names into those counted and those folded as repeats (R4).

    Args:
        names: the source names as given, in order.
        field: the field they came from (``advantage``, ``disadvantage``), for messages.

    Two names are one source when they match under N1 or only look alike (`source_key`:
    ``torch`` and ``tоrch`` with a Cyrillic ``о`` count once).

    Returns:
        ``(counted, repeats)``: the first spelling of each distinct source, in
        order of first appearance, and every later name that matched one of them.

    Raises:
        InputError: a blank name, or one that is not valid UTF-8 text (`check_text`).
    """
    seen: set[str] = set()
    counted: list[str] = []
    repeats: list[str] = []
    for name in names:
        key = source_key(check_text(name, field, name=True))
        if key in seen:
            repeats.append(name)
        else:
            seen.add(key)
            counted.append(name)
    return tuple(counted), tuple(repeats)


def parse_named_number(
    text: str, option: str, bounds: tuple[int, int], *, noun: str, example: str
) -> tuple[str, int]:
    """One ``NAME=N`` of a repeatable option (``--aspect Might=3``, ``--attribute Strength=2``): L1, L3.

    Returns ``(name as typed, value)``; the name's own N1 checks are the caller's.

    Raises:
        InputError: not UTF-8 text, no ``=``, no name, several in one option
            (a name holding ``=`` or a ``,``), or a value that is not a whole
            number within *bounds*.
    """
    name, sign, value = check_text(text, option).rpartition("=")
    if not sign:
        raise InputError(option, text, f"must be {noun}=N, such as {example}")
    if not name.strip():
        raise InputError(option, text, f"needs a name before '=', such as {example}")
    if "=" in name or "," in text:
        raise InputError(
            option,
            text,
            f"one {noun}=N per {{{option}}}: repeat the option, as in {{{option}}} {example} {{{option}}} ...",
            mentions=(option,),
        )
    try:
        return name, parse_whole(value, option, bounds)
    except InputError as error:
        raise InputError(
            option, text, f"the value {error.problem}", mentions=error.mentions
        ) from None


# --- look-alike names (N1, Unicode TR39) ---------------------------------------------------

# disarm's TR39 skeleton of printable ASCII: lower case after these four. An encounter whose
# names are all ASCII is compared without loading disarm (its import costs about 35 ms);
# tests/rules/test_look_alike.py checks this table against disarm for every ASCII character.
_ASCII_SKELETON = str.maketrans({"I": "l", "|": "l", '"': "''", "`": "'"})


def look_alike_key(name: str) -> str:
    """The key under which *name* looks like other names (N1): its Unicode TR39 confusable skeleton.

    Two names with the same key draw alike (``Aria`` and ``Аria`` with a Cyrillic
    ``А``; ``Ilsa`` and ``llsa``). The skeleton is disarm's (`disarm.skeleton_key`:
    TR39 prototypes, lower case, white space folded), of the NFC form. Keys of short
    names are cached, as `fold_name`'s: every change compares every creature's name.
    """
    if len(name) <= 100:
        return _skeleton_short(name)
    return _skeleton(name)


def _skeleton(name: str) -> str:
    if name.isascii():
        return " ".join(name.translate(_ASCII_SKELETON).lower().split())
    # Deferred: only a non-ASCII name needs disarm, and importing it reads package metadata (~65 ms).
    from disarm import skeleton_key

    return skeleton_key(unicodedata.normalize("NFC", name))


_skeleton_short = lru_cache(maxsize=8192)(_skeleton)


# A digit zero draws as a capital O (``B0RIN`` beside ``BORIN``), which TR39's skeleton keeps apart.
_DIGIT_LOOK_ALIKES = str.maketrans({"0": "o"})


def look_alike_keys(name: str) -> tuple[str, str]:
    """The keys under which *name* looks like other names whatever their case (N1): the
    look-alike key (`look_alike_key`) of the name as written and of its N1 fold (`fold_name`),
    each with a digit 0 read as the letter o. Two names look alike when they share a key.

    As written, ``Ilsa`` draws like ``llsa`` (a capital I); folded, ``ВORIN`` (a Cyrillic
    capital Ve) draws like ``borin``, so like ``Borin``, as do ``B0RIN`` and ``ＡＲＩＡ``
    beside ``Aria``: the names compare case-insensitively, so their look-alikes do too.
    """
    return (
        look_alike_key(name).translate(_DIGIT_LOOK_ALIKES),
        look_alike_key(fold_name(name)).translate(_DIGIT_LOOK_ALIKES),
    )


def looks_alike(name: str, other: str) -> bool:
    """Whether *name* and *other* share a look-alike key (`look_alike_keys`, N1)."""
    return not set(look_alike_keys(name)).isdisjoint(look_alike_keys(other))


def source_key(name: str) -> str:
    """The key under which Advantage and Disadvantage sources and effects are one (R4, N1): the
    look-alike key (`look_alike_key`) of the N1 fold, so names that match under N1 or only draw
    alike (``torch``, ``tоrch``) count once."""
    return look_alike_key(fold_name(name))


def _describe(text: str) -> str:
    if not text:
        return "nothing"
    return ", ".join(
        f"{escape_name(char)!r} {unicodedata.name(char, f'U+{ord(char):04X}')}" for char in text
    )


def difference(name: str, other: str) -> str:
    """Which characters of *name* differ from *other* (their common ends left out), for messages.

    >>> difference("Аria", "Aria")
    "'А' CYRILLIC CAPITAL LETTER A where 'Aria' has 'A' LATIN CAPITAL LETTER A"
    """
    a, b = unicodedata.normalize("NFC", name), unicodedata.normalize("NFC", other)
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    return f"{_describe(a[start : len(a) - end])} where {escape_name(other)!r} has {_describe(b[start : len(b) - end])}"


class NameSet:
    """Names that must stay apart (N1): none equal to another, none that looks like another.

    For the creatures of an encounter and the Aspects of one creature: `equal_to`
    and `looks_like` of a new name say which name it clashes with, `add` takes it in.
    """

    __slots__ = ("_equal", "_alike")

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._equal: dict[str, str] = {}
        self._alike: dict[str, str] = {}
        for name in names:
            self.add(name)

    def equal_to(self, name: str) -> str | None:
        """The name here that *name* compares equal to (`fold_name`), or None."""
        return self._equal.get(fold_name(name))

    def looks_like(self, name: str) -> str | None:
        """The name here that *name* looks like (a shared `look_alike_keys` key), or None."""
        for key in look_alike_keys(name):
            if key in self._alike:
                return self._alike[key]
        return None

    def add(self, name: str) -> None:
        """Take *name* in (whether it clashes is the caller's to check first)."""
        self._equal.setdefault(fold_name(name), name)
        for key in look_alike_keys(name):
            self._alike.setdefault(key, name)


def look_alike_problem(name: str, other: str) -> str:
    """The message of *name* refused for looking like *other* (N1)."""
    return f"looks like {other!r} (N1): {difference(name, other)}; names must look different"
