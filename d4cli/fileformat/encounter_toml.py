"""The encounter file format (TOML, schema 3; schemas 2 and 1 are still read): validate a document into an `Encounter`, and back.

Pure: text in, text out; the store (`d4cli.store`) does the files. Every value
from the file passes through `check_whole` (L1, L3) and every error is a
`FileError` naming the file, the creature and the field (docs/cli.md).
docs/file-format.md documents the schema with a commented example.
"""

from __future__ import annotations

import re
import tomllib
from itertools import accumulate
from pathlib import Path
from typing import Any, NoReturn

import tomli_w

from d4cli.fight.encounter_state import MODES, ROUND_RESETS, Creature, Encounter
from d4cli.fight.sheets import sheet_document
from d4cli.fileformat.creature_toml import (
    CREATURE_KEYS,
    CREATURE_KEYS_2,
    check_effect_creatures,
    creature_from_row,
    turn_name,
)
from d4cli.fileformat.effects_toml import effects_document
from d4cli.fileformat.player_view_toml import (
    check_aliases,
    player_view_document,
    player_view_from_document,
    view_fields_document,
)
from d4cli.fileformat.schema1 import OLD_CREATURE_KEYS, OLD_TOP_KEYS, upgrade_turns
from d4cli.fileformat.where import Where
from d4cli.rules.errors import FileError
from d4cli.rules.limits import MAX_DIGITS
from d4cli.rules.names import NameSet, look_alike_problem

SCHEMA_VERSION = 3
# Schema 2 lacks what the players see (`d4cli.fileformat.player_view_toml`); it is read with its own
# keys and written as schema 3 by the first change (``undo`` of that change gives its bytes back).
SCHEMA_2 = 2
# Schema 1 (`d4cli.fileformat.schema1`) is read as it is and written as schema 3 by the first change.
OLD_SCHEMA_VERSION = 1
ROUND = (0, 1_000_000)

TOP_KEYS_2: tuple[str, ...] = (
    "schema_version",
    "name",
    "mode",
    "round_reset",
    "round",
    "current",
    "last_turn",
    "creature",
)
TOP_KEYS = TOP_KEYS_2 + ("player_view", "resume_at", "round_open")
TOP_REQUIRED = ("schema_version", "mode", "round")
# Bounds of the shape pre-scan (`check_shape`): the schema needs depth 2 and no dotted key at all.
MAX_DEPTH = 16
MAX_DOTS = 16
BOM = "\ufeff"

# What is not TOML structure: strings (multi-line ones first) and comments. Possessive
# quantifiers (Python 3.11) keep every alternative linear, also when a string never ends.
_NOT_STRUCTURE = re.compile(
    r'"""(?:[^"\\]++|\\.|"{1,2}+(?!"))*+"{3,5}'  # multi-line basic string
    r"|'''(?:[^']++|'{1,2}+(?!'))*+'{3,5}"  # multi-line literal string
    r'|"(?:[^"\\\n]++|\\.)*+"'  # basic string
    r"|'[^'\n]*+'"  # literal string
    r"|#[^\n]*+",  # comment
    re.DOTALL,
)
# Every byte but the brackets, deleted to measure the nesting (UTF-8 never hides an ASCII
# byte inside a longer character); each bracket's step in depth.
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")
_BRACKET_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
# A key of more than MAX_DOTS dots: a run of key characters (strings are "_" by then)
# holding MAX_DOTS + 1 dots, tried only where such a run starts. Compiled when first
# needed: most files have no dot outside their strings and comments.
_LONG_DOTTED_KEY = rf"(?<![A-Za-z0-9_\-. \t])(?:[A-Za-z0-9_\- \t]*+\.){{{MAX_DOTS + 1}}}"

# L3: TOML also reads 1_000, +1, 0x10, 0o17 and 0b11 as whole numbers; d4cli takes
# only the plain spelling, in the file as on the command line. Dates (1979-05-27)
# and floats are left to the type checks. A bare key (`1_2 = 3`, `{ 0x10 = 1 }`) is a
# name, not a number: a match followed by `=` is never refused.
# Compiled when first needed (`_may_be_fancy`): most files hold none of its marks.
_FANCY_INTEGER = (
    r"(?<![\w.])(?:[+-]?0[xob][0-9A-Fa-f_]+|[+-]?[0-9]+(?:_[0-9]+)+|\+[0-9]+)(?![\w.:-])(?![ \t]*=)"
)
# What every match of `_FANCY_INTEGER` holds one of: a sign, a base prefix, a digit before `_`.
# A whole number of more digits than any range allows (`d4cli.rules.limits.MAX_DIGITS`): refused
# before tomllib converts it, which is quadratic in the digits and fails past 4,300. Not a
# bare key (followed by `=` or `.`), nor part of a float or a date.
_LONG_INTEGER = rf"(?<![\w.:-])-?[0-9]{{{MAX_DIGITS + 1},}}+(?![ \t]*[=.])(?![eE:-])"
_FANCY_MARKS = ("+", "0x", "0o", "0b") + tuple(f"{digit}_" for digit in range(10))

HEADER = (
    "# d4cli encounter file (schema 3). Hand edits are welcome: every d4cli command checks this\n"
    "# file first. Turn order is the order of the [[creature]] tables below (R13).\n\n"
)


def parse_encounter(text: str, path: object) -> Encounter:
    """Parse and validate an encounter file's text (schema 3, 2, or 1: `d4cli.fileformat.schema1`).

    A leading UTF-8 byte-order mark (Windows Notepad) is skipped, as decoding
    with ``utf-8-sig`` would; the store keeps it in the bytes it hashes and
    saves, so the journal agrees and ``undo`` restores the file exactly.

    Args:
        text: the whole file, decoded.
        path: the file, for messages.

    Returns:
        The `Encounter`; ``current`` and ``next_turn`` spelt as their creatures' names.

    Raises:
        FileError: a file shaped to break the TOML parser (`check_shape`), a TOML
            syntax error, or any value the schema refuses: a wrong type, a missing
            field, an unknown key, an unknown mode, a duplicate name (N1), a value
            out of range (L1), a bool or float where a whole number belongs (L3),
            a ``current`` that names nobody.
    """
    body = text.removeprefix(BOM)
    check_shape(body, path)
    try:
        data = tomllib.loads(body)
    except tomllib.TOMLDecodeError as error:
        raise FileError(path, "", None, f"not valid TOML: {error}") from None
    except (RecursionError, MemoryError):  # check_shape should have refused it first
        raise FileError(path, "", None, "not valid TOML: nested or dotted too deeply") from None
    return encounter_from_document(data, path)


def check_shape(text: str, path: object) -> None:
    """Refuse, before tomllib sees it, a file built to exhaust the parser.

    tomllib recurses once per nested array or inline table (100,000 ``[`` end
    in RecursionError) and keeps a set per prefix of a dotted key (one key
    ``a.a.a...`` of 20,000 parts takes 1.6 GB). The schema nests two deep and
    needs no dotted key, so with strings and comments left out the nesting may
    reach `MAX_DEPTH` and a key may have `MAX_DOTS` dots. Whole numbers must
    be written plainly (L3: no ``1_000``, ``+1`` or ``0x10``). Linear time, and cheap
    on the small files Tab completion reads: one regular expression without
    backtracking, a byte translation, and a Python loop only on the error path.

    Raises:
        FileError: naming the file and the line.
    """
    code = _NOT_STRUCTURE.sub("_", text)
    brackets = code.encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)
    if (
        len(brackets) > MAX_DEPTH
        and max(accumulate(map(_BRACKET_STEP.__getitem__, brackets))) > MAX_DEPTH
    ):
        _refuse_shape(text, path, _too_deep, f"nested more than {MAX_DEPTH} deep")
    if code.count(".") > MAX_DOTS and _long_key(code) is not None:
        problem = f"a key with more than {MAX_DOTS} dots (the schema needs none)"
        _refuse_shape(text, path, _long_key, problem)
    if len(code) > MAX_DIGITS and re.search(f"[0-9]{{{MAX_DIGITS + 1}}}", code):
        long = re.search(_LONG_INTEGER, code)
        if long is not None:
            digits = len(long.group().lstrip("-"))
            problem = f"a number of {digits:,} digits: a whole number has at most {MAX_DIGITS} digits (L1)"
            _refuse_shape(text, path, _long_at, problem, key=True)
    fancy = re.search(_FANCY_INTEGER, code) if any(mark in code for mark in _FANCY_MARKS) else None
    if fancy is not None:
        problem = (
            f"{fancy.group()}: a whole number is written plainly, without _, +, 0x, 0o or 0b (L3)"
        )
        _refuse_shape(text, path, _fancy_at, problem)


def _fancy_at(code: str) -> int | None:
    found = re.search(_FANCY_INTEGER, code)
    return None if found is None else found.start()


def _long_at(code: str) -> int | None:
    found = re.search(_LONG_INTEGER, code)
    return None if found is None else found.start()


def _too_deep(code: str) -> int | None:
    """Where the nesting of *code* first goes past `MAX_DEPTH`."""
    depth = 0
    for index, char in enumerate(code):
        depth += _BRACKET_STEP.get(ord(char), 0)
        if depth > MAX_DEPTH:
            return index
    return None


def _long_key(code: str) -> int | None:
    """Where the first key of *code* with more than `MAX_DOTS` dots starts."""
    match = re.search(_LONG_DOTTED_KEY, code)
    return None if match is None else match.start()


def _refuse_shape(
    text: str, path: object, find: Any, problem: str, *, key: bool = False
) -> NoReturn:
    """Raise the FileError of `check_shape`, naming the line where *find* finds the fault
    (and, with *key*, the key that line sets, when it starts with one).

    Strings are blanked again keeping their line breaks, so the line is the file's own.
    """
    code = _NOT_STRUCTURE.sub(lambda match: "_" + "\n" * match.group().count("\n"), text)
    index = find(code)
    line = 1 if index is None else code.count("\n", 0, index) + 1
    where = f"line {line}"
    if key:
        setting = re.match(
            r"[ \t]*([^=\n]{1,200}?)[ \t]*=",
            text.splitlines()[line - 1] if index is not None else "",
        )
        if setting is not None:
            where += f": {setting.group(1)}"
    raise FileError(path, where, None, problem)


def encounter_from_document(data: dict[str, Any], path: object) -> Encounter:
    """Validate a parsed TOML document (see `parse_encounter`); schema 1 documents are upgraded (`d4cli.fileformat.schema1`)."""
    top = Where(path)
    version = (
        top.whole("schema_version", data.get("schema_version"), (0, 1_000_000))
        if "schema_version" in data
        else None
    )
    old = version == OLD_SCHEMA_VERSION
    top_keys: tuple[str, ...] = TOP_KEYS
    creature_keys: tuple[str, ...] = CREATURE_KEYS
    if old:
        top_keys, creature_keys = OLD_TOP_KEYS, OLD_CREATURE_KEYS
    elif version == SCHEMA_2:
        top_keys, creature_keys = TOP_KEYS_2, CREATURE_KEYS_2
    top.keys(data, top_keys, TOP_REQUIRED)
    if version not in (SCHEMA_VERSION, SCHEMA_2, OLD_SCHEMA_VERSION):
        top.fail(
            "schema_version",
            version,
            f"this d4cli reads schema_version {SCHEMA_VERSION} (and {SCHEMA_2}, {OLD_SCHEMA_VERSION})",
        )
    name = top.text("name", data.get("name", ""), allow_empty=True)
    mode = data["mode"]
    if mode not in MODES:
        top.fail("mode", mode, "unknown mode: 'turn' or 'round' (R12)")
    round_reset = data.get("round_reset", "buffer")
    if round_reset not in ROUND_RESETS:
        top.fail("round_reset", round_reset, "unknown round reset: 'buffer' or 'zero' (R12)")
    round_number = top.whole("round", data["round"], ROUND)
    rows = data.get("creature", [])
    if not isinstance(rows, list):
        top.fail("creature", rows, "must be an array of tables ([[creature]])")
    creatures: list[Creature] = []
    seen = NameSet()
    for number, row in enumerate(rows, start=1):
        # A Creature in place of a row was validated already (`d4cli.fileformat.checked`).
        creature = (
            row
            if isinstance(row, Creature)
            else creature_from_row(row, number, path, creature_keys)
        )
        same = seen.equal_to(creature.name)
        if same is not None:
            Where(path, f"creature #{number}").fail(
                "name", creature.name, f"the same name as {same!r} (N1): names must differ"
            )
        alike = seen.looks_like(creature.name)
        if alike is not None:
            Where(path, f"creature #{number}").fail(
                "name", creature.name, look_alike_problem(creature.name, alike)
            )
        seen.add(creature.name)
        creatures.append(creature)
    check_effect_creatures(path, creatures)
    player_view = None
    if "player_view" in data or any(creature.alias for creature in creatures):  # schema 3's
        check_aliases(path, creatures)
        player_view = player_view_from_document(top, data)
    encounter = Encounter(name=name, mode=mode, round=round_number, creatures=tuple(creatures))
    last_key = "next_turn" if old else "last_turn"
    current, last_turn, resume_at, round_open = _turn_state(top, data, encounter, last_key)
    encounter = Encounter(
        name,
        mode,
        round_number,
        current,
        last_turn,
        tuple(creatures),
        round_reset,
        player_view,
        resume_at,
        round_open,
    )
    if old:
        return upgrade_turns(encounter, last_turn)
    return encounter


def _turn_state(
    top: Where, data: dict[str, Any], encounter: Encounter, last_key: str
) -> tuple[str | None, str | None, str | None, bool]:
    """``current``, ``last_turn`` (*last_key*), ``resume_at`` and ``round_open`` of a document
    whose round and creatures *encounter* holds (R17, R19)."""
    current = turn_name(top, "current", data.get("current"), encounter)
    last_turn = turn_name(top, last_key, data.get(last_key), encounter)
    resume_at = turn_name(top, "resume_at", data.get("resume_at"), encounter)
    round_open = data.get("round_open", False)
    if not isinstance(round_open, bool):
        top.fail("round_open", round_open, "must be true or false (R19)")
    if last_turn and resume_at:
        top.fail("resume_at", resume_at, f"is for when '{last_key}' was removed: give one of them")
    if encounter.round == 0 and (current or last_turn):
        top.fail("round", 0, f"is 0 (not started), so 'current' and '{last_key}' must be empty")
    if encounter.round == 0 and (resume_at or round_open):
        top.fail(
            "round", 0, "is 0 (not started), so 'resume_at' must be empty and 'round_open' false"
        )
    if encounter.round == 0 and any(creature.had_turn for creature in encounter.creatures):
        top.fail("round", 0, "is 0 (not started), so no creature can have had_turn = true")
    return current, last_turn, resume_at, round_open


def dump_encounter(encounter: Encounter) -> str:
    """The file text of *encounter*: a short header comment, then TOML in one fixed layout.

    The layout never depends on the values (a hand-edited file diffs only where
    a value changed): the top-level fields, then per creature a ``[[creature]]``
    table of its numbers and notes, a ``[creature.aspects]`` table and, when it
    has any, its effects and its sheet. A name that looks like a number
    (``1_2``, ``0x10``) is a key like any other: keys never pass the number check.

    ``parse_encounter(dump_encounter(e), path) == e`` for every valid encounter.
    """
    return HEADER + "\n".join(_layout("", encounter_document(encounter), aot=False))


def _layout(path: str, table: dict[str, Any], *, aot: bool) -> list[str]:
    """*table* as TOML chunks in a fixed layout: its plain values under its own header,
    then each sub-table (``[path.key]``) and each array of tables (``[[path.key]]``).

    tomli-w writes every key and value (quoting keys such as ``"1 2"`` where TOML
    needs it); only the choice of headers is ours, because tomli-w would turn a
    short array of tables into an inline array and flip the layout as values grow.
    """
    plain = {
        key: value
        for key, value in table.items()
        if not _is_table(value) and not _is_array_of_tables(value)
    }
    head = f"[[{path}]]\n" if aot else (f"[{path}]\n" if path else "")
    chunks = [head + tomli_w.dumps(plain)]
    for key, value in table.items():
        inner = f"{path}.{key}" if path else key  # our own field names, always bare keys
        if _is_table(value):
            chunks += _layout(inner, value, aot=False)
        elif _is_array_of_tables(value):
            for row in value:
                chunks += _layout(inner, row, aot=True)
    return chunks


def _is_table(value: object) -> bool:
    return isinstance(value, dict)


def _is_array_of_tables(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(row, dict) for row in value)


def encounter_document(encounter: Encounter) -> dict[str, Any]:
    """The TOML document of *encounter* as plain data (what `encounter_from_document` validates)."""
    document: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "name": encounter.name,
        "mode": encounter.mode,
        "round_reset": encounter.round_reset,
        "round": encounter.round,
    }
    if encounter.current is not None:
        document["current"] = encounter.current
    if encounter.last_turn is not None:
        document["last_turn"] = encounter.last_turn
    if encounter.resume_at is not None:
        document["resume_at"] = encounter.resume_at
    if encounter.round_open:
        document["round_open"] = True
    if encounter.player_view is not None:
        document["player_view"] = player_view_document(encounter.player_view)
    if encounter.creatures:
        document["creature"] = [creature_document(creature) for creature in encounter.creatures]
    return document


def creature_document(creature: Creature) -> dict[str, Any]:
    """One ``[[creature]]`` table of `encounter_document` as plain data."""
    row: dict[str, Any] = {
        "name": creature.name,
        "load_buffer": creature.load_buffer,
        "exhaustion": creature.exhaustion,
        "load": creature.load,
        "evasion": creature.evasion,
    }
    if creature.hp is not None:
        row["hp"] = creature.hp
    if creature.max_hp is not None:
        row["max_hp"] = creature.max_hp
    row["had_turn"] = creature.had_turn
    if creature.notes:
        row["notes"] = creature.notes
    row["aspects"] = dict(creature.aspects)
    if creature.effects:
        row["effects"] = effects_document(creature.effects)
    row.update(sheet_document(creature))
    if creature.hidden or creature.alias or creature.hp_shown is not None or creature.evasion_shown:
        row.update(view_fields_document(creature))
    return row


def dropped_comments(old_text: str, new_text: str) -> int:
    """How many comment lines of *old_text* are not in *new_text* (a change rewrote the file).

    A comment line is one whose first non-blank character is ``#``; the header
    `dump_encounter` writes is never counted, and a comment at the end of a
    value line (``round = 0  # ...``) counts as one too. Pure: the command layer
    says so on stderr (and that ``undo`` brings them back).
    """
    kept = set(_comments(new_text)) | set(_comments(HEADER))
    return sum(1 for comment in _comments(old_text) if comment not in kept)


def _comments(text: str) -> list[str]:
    """The comments of *text* (strings blanked first, so a ``#`` inside quotes is not one)."""
    code = _NOT_STRUCTURE.sub(
        lambda match: match.group() if match.group().startswith("#") else "_", text
    )
    return [match.group().strip() for match in re.finditer(r"#[^\n]*", code)]


def bundled_examples() -> dict[str, Path]:
    """The encounter templates shipped in ``d4cli/fileformat/examples`` by name (``skirmish``, ``duel``, ``ambush``)."""
    folder = Path(__file__).parent / "examples"
    return {path.stem: path for path in sorted(folder.glob("*.toml"))}
