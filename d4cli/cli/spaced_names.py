"""Names without quotes: ``act Goblin Archer shortbow`` reads the creature ``Goblin Archer`` (N1).

A creature's name of several words is several words of argv when it is typed without
quotes. Before Click parses a command line, the root command (`d4cli.cli.root`) asks
this module which words of it hold a creature's name, and hands Click those words
joined into one. Everything here is pure: the words, the names of the encounter's
creatures and the command's options come in; the words to parse, or an error, go out.

`ARGUMENTS` is the one table of the commands whose positional arguments take creature
names, slot by slot. A *reading* of the positional words gives each slot its words: a
name slot takes one word or more, a text slot (a new name: ``alias Goblin Archer Goblin 2``)
every word left, every other slot one word. A run of two words or
more (each without white space: typed without quotes) is a reading only when it names a creature (N1: `d4cli.rules.names.fold_name`);
one word alone in a name slot only when it names a creature or, where a slot takes
several names, is a shell pattern (``Goblin*``). The words are rejoined when exactly
one reading exists and it joins some; with two readings the line is bad input that
shows each reading quoted; with none the words stay as typed, for the command's own
errors. A word that was one argv word (a quoted name) is never split; a line that
holds ``--`` is left as typed (the way to say ``Goblin`` and ``Archer`` when a
``Goblin Archer`` exists too). Options are never read as names. The value of an option
that takes a creature's name (`CREATURE_OPTIONS`, typed without ``=``) is read as a name
slot is: ``--target Goblin Sniper`` takes both words when that reading of the whole line
is the one (`join_line`); the words it leaves are positional. Other options' values are
never joined.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from itertools import product

from d4cli.api import InputError
from d4cli.api.inputs import fold_name

# What one positional slot of a command takes.
NAME = "name"  # one creature's name
NAME_OPTIONAL = "name?"  # one creature's name, or nothing
NAMES = "names"  # one or more creatures' names or shell patterns
WORD = "word"  # one word that is not read as a name (an Aspect, an amount, a text)
WORD_OPTIONAL = "word?"  # one such word, or nothing
ASSIGNMENTS = "assignments"  # any number of FIELD=VALUE words
TEXT = "text"  # the last slot: every word left, one text (a new name: ``Goblin 2``)
TEXT_OPTIONAL = "text?"  # the same, or nothing

# The commands whose positional arguments take creature names: the command's path ->
# its positional slots, in order. The one place this knowledge lives.
ARGUMENTS: Mapping[tuple[str, ...], tuple[str, ...]] = {
    ("act",): (NAME, WORD),
    ("team",): (NAME, NAME),
    ("damage",): (NAMES, WORD),
    ("heal",): (NAMES, WORD),
    ("set",): (NAME, ASSIGNMENTS),
    ("conceal",): (NAMES,),
    ("reveal",): (NAMES,),
    ("add",): (TEXT,),
    ("alias",): (NAME, TEXT_OPTIONAL),
    ("remove",): (NAME,),
    ("move",): (NAME,),
    ("exhaust",): (NAME, WORD),
    ("note",): (NAME, WORD),
    ("status",): (NAME_OPTIONAL,),
    ("check",): (NAME,),
    ("effect", "add"): (NAMES, WORD),
    ("effect", "remove"): (NAME, WORD),
    ("effect", "list"): (NAME_OPTIONAL,),
    ("action", "add"): (NAME, WORD),
    ("action", "remove"): (NAME, WORD),
    ("turn", "start"): (NAME_OPTIONAL,),
}

# The options whose value is a creature's name, on the commands of `ARGUMENTS`: their
# value, typed without quotes, may take several words as a name slot does.
CREATURE_OPTIONS = (
    "--target",
    "--before",
    "--after",
    "--like",
    "--until-start-of",
    "--until-end-of",
)

# The characters that make a word a shell pattern (as `d4cli.fight.several` reads them).
_PATTERN = frozenset("*?[")
# The most words a run may join when no names are known (a name has at most 200 characters).
_MOST_WORDS = 100

# One run of a reading: how many words it takes, and whether a name slot took it.
Run = tuple[int, bool]
Reading = tuple[Run, ...]
# Whether the words of one run fit a slot: (the run's words, whether the slot takes patterns).
Fits = Callable[[Sequence[str], bool], bool]


def command_of(args: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The path of the command *args* run (``("effect", "add")``) and its slots, or None
    when that command takes no creature name as a positional argument."""
    for size in (2, 1):
        path = tuple(args[:size])
        if path in ARGUMENTS:
            return path, ARGUMENTS[path]
    return None


def readings(
    words: Sequence[str], slots: Sequence[str], fits: Fits, open_end: bool = False
) -> list[Reading]:
    """The readings of *words* for *slots* (at most two, the longest runs first).

    *fits* says whether a run of words may fill a name slot; with *open_end* the last
    word alone fits any (a word still being typed, for Tab). Two readings that give
    the same runs are one: they hand Click the same words.
    """
    if open_end:
        given, last = fits, len(words) - 1

        def fits_or_open(start: int, size: int, patterns: bool) -> bool:
            return (start == last and size == 1) or given(words[start : start + size], patterns)

    else:

        def fits_or_open(start: int, size: int, patterns: bool) -> bool:
            return fits(words[start : start + size], patterns)

    count = len(words)
    # found[s][i]: the readings of words[i:] by slots[s:]; a slot that takes several
    # names, or assignments, may take one more run and stay the slot.
    found: list[list[list[Reading]]] = [
        [[] for _ in range(count + 1)] for _ in range(len(slots) + 1)
    ]
    found[len(slots)][count] = [()]
    for s in range(len(slots) - 1, -1, -1):
        for i in range(count, -1, -1):
            found[s][i] = _slot_readings(words, slots, s, i, found, fits_or_open)
    return found[0][0]


def _slot_readings(
    words: Sequence[str],
    slots: Sequence[str],
    s: int,
    i: int,
    found: list[list[list[Reading]]],
    fits: Callable[[int, int, bool], bool],
) -> list[Reading]:
    """The readings of words[i:] by slots[s:] (`readings`), from those already found."""
    kind = slots[s]
    out: dict[tuple[int, ...], Reading] = {}

    def add(run: Run | None, rest: list[Reading]) -> None:
        for reading in rest:
            full = reading if run is None else (run, *reading)
            out.setdefault(tuple(size for size, _ in full), full)

    if kind in (NAME_OPTIONAL, WORD_OPTIONAL, TEXT_OPTIONAL, ASSIGNMENTS):
        add(None, found[s + 1][i])  # the slot takes nothing
    if kind in (WORD, WORD_OPTIONAL) and i < len(words):
        add((1, False), found[s + 1][i + 1])
    if kind in (TEXT, TEXT_OPTIONAL) and i < len(words):
        left = words[i:]
        if len(left) == 1 or all(_joinable(word) for word in left):
            add((len(left), False), found[s + 1][len(words)])  # a text takes every word left
    if kind == ASSIGNMENTS and i < len(words) and "=" in words[i]:
        add((1, False), found[s][i + 1])
    if kind in (NAME, NAME_OPTIONAL, NAMES):
        for size in range(1, min(len(words) - i, _MOST_WORDS) + 1):
            if fits(i, size, kind == NAMES):
                add((size, True), found[s + 1][i + size])
                if kind == NAMES:
                    add((size, True), found[s][i + size])  # and more names after it
    return sorted(out.values(), key=lambda reading: [-size for size, _ in reading])[:2]


def could_join(words: Sequence[str], slots: Sequence[str]) -> bool:
    """Whether a reading of *words* for *slots* could join some of them, whatever the
    creatures: the test that decides whether the encounter file is read at all."""

    def fits(run: Sequence[str], _patterns: bool) -> bool:
        return len(run) == 1 or all(_joinable(word) and "=" not in word for word in run)

    return any(any(size > 1 for size, _ in reading) for reading in readings(words, slots, fits))


def name_fits(creatures: Collection[str]) -> Fits:
    """Whether a run of words names one of *creatures* (N1), or is one shell pattern
    where the slot takes patterns."""
    keys = {fold_name(name) for name in creatures}

    def fits(run: Sequence[str], patterns: bool) -> bool:
        if len(run) == 1 and patterns and not _PATTERN.isdisjoint(run[0]):
            return True
        if len(run) > 1 and not all(_joinable(word) for word in run):
            return False
        return fold_name(" ".join(run)) in keys

    return fits


def _joinable(word: str) -> bool:
    """Whether *word* may be one word of a name typed without quotes: not empty, no white
    space in it (a word that holds some was quoted), not an option."""
    return (
        bool(word) and not word.startswith("-") and len(word.split()) == 1 and word.strip() == word
    )


def runs_of(
    words: Sequence[str],
    slots: Sequence[str],
    creatures: Collection[str],
    command: str,
    open_end: bool = False,
) -> Reading | None:
    """The one reading of *words* (positional words of *command*) that joins some of them;
    None when the words are to stay as typed (no reading, or only the one as typed).
    *open_end*: the last word is still being typed (`readings`).

    Raises:
        InputError: two readings: the line says both, each name quoted.
    """
    found = readings(words, slots, name_fits(creatures), open_end)
    if not found:
        return None
    if len(found) > 1:
        shown = ", or ".join(_shown(command, words, reading) for reading in found)
        raise InputError("NAME", None, f"{' '.join(words)} reads more than one way; give {shown}")
    if all(size == 1 for size, _ in found[0]):
        return None
    return found[0]


def join_names(
    words: Sequence[str], slots: Sequence[str], creatures: Collection[str], command: str = ""
) -> list[str]:
    """*words* with every run of the one reading that names a creature joined into one word.

    Raises:
        InputError: the words read two ways (`runs_of`).
    """
    reading = runs_of(words, slots, creatures, command)
    if reading is None:
        return list(words)
    out: list[str] = []
    start = 0
    for size, _ in reading:
        out.append(" ".join(words[start : start + size]))
        start += size
    return out


def _shown(command: str, words: Sequence[str], reading: Reading) -> str:
    """*command* and the words of *reading* as they would be typed to mean it: each name of
    several words in double quotes, and ``--`` before words meant as typed."""
    if all(size == 1 for size, _ in reading):
        return f"{command} -- {' '.join(words)}"
    out: list[str] = []
    start = 0
    for size, _ in reading:
        text = " ".join(words[start : start + size])
        start += size
        out.append(_quoted(text) if " " in text or '"' in text else text)
    return " ".join([command, *out])


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Options:
    """The options of one command: those that take a value, and those that do not."""

    def __init__(self, valued: Collection[str], flags: Collection[str]) -> None:
        self.valued = frozenset(valued)
        self.flags = frozenset(flags)


def positional_indexes(args: Sequence[str], options: Options) -> list[int] | None:
    """Where the positional words of *args* (a command's words, after its path) are.

    The value of an option that takes one is not positional (``--target Aria``,
    ``--target=Aria``, ``-fpath``). A negative number (``-1``) is a positional word
    unless it is an option.

    Returns:
        The indexes, or None when the line is left to Click as typed: it holds ``--``
        (the words meant as typed), asks for help, or holds an option the command
        does not know.
    """
    out: list[int] = []
    index = 0
    while index < len(args):
        word = args[index]
        if word in ("--", "-h", "--help"):
            return None
        if word.startswith("-") and len(word) > 1 and not _is_number(word):
            step = _option_words(word, options)
            if step is None:
                return None
            index += step
            continue
        out.append(index)
        index += 1
    return out


def _option_words(word: str, options: Options) -> int | None:
    """How many words the option *word* takes up (itself and its value), or None if unknown."""
    if word.startswith("--"):
        name, equals, _ = word.partition("=")
        if name in options.valued:
            return 1 if equals else 2
        return 1 if name in options.flags and not equals else None
    if word[:2] in options.valued:
        return 1 if len(word) > 2 else 2
    return 1 if word in options.flags else None


def _is_number(word: str) -> bool:
    return word[1:].isascii() and word[1:].isdigit()


def option_value(args: Sequence[str], names: Collection[str]) -> str | None:
    """The value of the last option of *names* in *args* (``--file x``, ``--file=x``, ``-fx``)."""
    value: str | None = None
    for index, word in enumerate(args):
        name, equals, rest = word.partition("=")
        if word in names and index + 1 < len(args):
            value = args[index + 1]
        elif equals and name in names and name.startswith("--"):
            value = rest
        elif not word.startswith("--") and word[:2] in names and len(word) > 2:
            value = word[2:]
        if word == "--":
            break
    return value


def rebuilt(args: Sequence[str], indexes: Sequence[int], reading: Reading) -> list[str]:
    """*args* with the positional words at *indexes* joined run by run as *reading* says:
    each run's words become one, where its first word was; options stay where they are."""
    joined: dict[int, str] = {}
    dropped: set[int] = set()
    start = 0
    for size, _ in reading:
        run = indexes[start : start + size]
        joined[run[0]] = " ".join(args[index] for index in run)
        dropped.update(run[1:])
        start += size
    return [joined.get(index, word) for index, word in enumerate(args) if index not in dropped]


# --- a whole line: positional words and the values of creature options ---------------------------

# One creature option's value typed without ``=``: the index of its first word in the line, and
# the positional words right after it, which may be the rest of its name (``--target Goblin
# Sniper``).
Span = tuple[int, tuple[int, ...]]
# The most ways a line's option values are tried together; past it the line stays as typed.
_MOST_TRIES = 64


class LineReading:
    """One reading of a command's words: how many words each creature option's value takes
    (`sizes`, one per `spans` entry), the positional words left (`indexes`) and their runs
    (`runs`; None: as typed, when only the option values join)."""

    def __init__(
        self,
        spans: Sequence[Span],
        sizes: Sequence[int],
        indexes: Sequence[int],
        runs: Reading | None,
    ) -> None:
        self.spans = tuple(spans)
        self.sizes = tuple(sizes)
        self.indexes = tuple(indexes)
        self.runs = runs

    def joins(self) -> bool:
        """Whether it joins any words (else the line stays as typed)."""
        return any(size > 1 for size in self.sizes) or any(size > 1 for size, _ in self.runs or ())

    def groups(self) -> list[list[int]]:
        """The indexes of the words that become one word, group by group."""
        out = [
            [value, *follow[: size - 1]] for (value, follow), size in zip(self.spans, self.sizes)
        ]
        start = 0
        for size, _ in self.runs or tuple((1, False) for _ in self.indexes):
            out.append(list(self.indexes[start : start + size]))
            start += size
        return out


def value_spans(args: Sequence[str], indexes: Sequence[int]) -> list[Span]:
    """The creature options of *args* (a command's words after its path, *indexes* its
    positional ones) typed as a word of their own, each with the positional words after its value."""
    positional = set(indexes)
    out: list[Span] = []
    for index, word in enumerate(args):
        if word == "--":
            break
        if word in CREATURE_OPTIONS and index + 1 < len(args):
            follow: list[int] = []
            while index + 2 + len(follow) in positional:
                follow.append(index + 2 + len(follow))
            out.append((index + 1, tuple(follow)))
    return out


def line_could_join(args: Sequence[str], indexes: Sequence[int], slots: Sequence[str]) -> bool:
    """Whether some words of *args* could join, whatever the creatures (`could_join`, and a
    creature option's value followed by positional words): whether the file is read at all."""
    if any(follow for _, follow in value_spans(args, indexes)):
        return True
    return could_join([args[index] for index in indexes], slots)


def line_readings(
    args: Sequence[str],
    indexes: Sequence[int],
    slots: Sequence[str],
    creatures: Collection[str],
    open_end: bool = False,
) -> list[LineReading]:
    """The readings of *args* (at most two): each creature option's value takes one word or
    more that name a creature (one word that names none stays its value, as typed), the words
    it leaves are positional and are read as `readings` reads them. When no reading exists but
    each option's value names a creature exactly one way, that one, its positional words as typed.
    *open_end*: the last word is still being typed (option values are then left as typed).
    """
    fits = name_fits(creatures)
    spans = value_spans(args, indexes)
    choices: list[list[int]] = []
    for value, follow in spans:
        words = [args[value], *(args[index] for index in follow)]
        sizes = [size for size in range(1, len(words) + 1) if fits(words[:size], False)]
        choices.append([1] if open_end or not sizes else sizes[::-1])  # the longest first
    tries = 1
    for sizes in choices:
        tries *= len(sizes)
    if tries > _MOST_TRIES:
        return []
    found: list[LineReading] = []
    for combo in product(*choices):
        taken = {i for (_, follow), size in zip(spans, combo) for i in follow[: size - 1]}
        left = [index for index in indexes if index not in taken]
        for runs in readings([args[index] for index in left], slots, fits, open_end):
            found.append(LineReading(spans, combo, left, runs))
        if len(found) > 1:
            return found[:2]
    if not found and spans and all(len(sizes) == 1 for sizes in choices):
        combo = tuple(sizes[0] for sizes in choices)
        one = [args[value : value + size] for (value, _), size in zip(spans, combo)]
        if all(fits(words, False) for words in one):
            taken = {i for (_, follow), size in zip(spans, combo) for i in follow[: size - 1]}
            found.append(LineReading(spans, combo, [i for i in indexes if i not in taken], None))
    return found


def join_line(
    args: Sequence[str],
    indexes: Sequence[int],
    slots: Sequence[str],
    creatures: Collection[str],
    command: str,
    open_end: bool = False,
) -> list[str] | None:
    """*args* (a command's words after its path, *indexes* its positional ones) with every
    creature's name typed without quotes joined into one word, where a name slot or a creature
    option (`CREATURE_OPTIONS`) takes it; None when the words stay as typed.

    Raises:
        InputError: the words read two ways; the line says both, as they would be typed
            (the option's name is the field when the two differ in its value).
    """
    found = line_readings(args, indexes, slots, creatures, open_end)
    if len(found) > 1:
        first, second = found
        field = next(
            (
                args[value - 1]
                for (value, _), a, b in zip(first.spans, first.sizes, second.sizes)
                if a != b
            ),
            "NAME",
        )
        shown = ", or ".join(_shown_line(command, args, reading) for reading in found)
        raise InputError(field, None, f"{' '.join(args)} reads more than one way; give {shown}")
    if not found or not found[0].joins():
        return None
    return _joined(args, found[0].groups())


def _joined(args: Sequence[str], groups: Sequence[Sequence[int]]) -> list[str]:
    """*args* with the words of each group joined into one, where its first word was."""
    joined: dict[int, str] = {}
    dropped: set[int] = set()
    for group in groups:
        joined[group[0]] = " ".join(args[index] for index in group)
        dropped.update(group[1:])
    return [joined.get(index, word) for index, word in enumerate(args) if index not in dropped]


def _shown_line(command: str, args: Sequence[str], reading: LineReading) -> str:
    """*reading* of *args* as it would be typed to mean it: the positional words first (each
    text of several words in double quotes), then the options; ``--`` before positional words
    meant as typed, and an option's value of one word never followed by another word."""
    positional: list[str] = []
    for group in reading.groups()[len(reading.spans) :]:
        text = " ".join(args[index] for index in group)
        positional.append(_quoted(text) if " " in text or '"' in text else text)
    grouped = {group[0]: group for group in reading.groups()}
    skipped = {index for group in reading.groups() for index in group[1:]} | set(reading.indexes)
    options: list[str] = []
    for index in range(len(args)):
        if index in skipped:
            continue
        text = " ".join(args[i] for i in grouped.get(index, [index]))
        options.append(_quoted(text) if " " in text or '"' in text else text)
    as_typed = reading.runs is None or all(size == 1 for size, _ in reading.runs)
    if as_typed and len(positional) > 1:
        return " ".join([command, *options, "--", *positional])
    return " ".join([command, *positional, *options])
