"""The journal, pure: lines from bytes, the crash classification of its tail, entries and patches.

Nothing here opens a file: every function takes bytes, a binary handle (a
real file or ``io.BytesIO``) or plain data, so the crash story can be tested
without a disk. The files and the lock are in `d4cli.store.files`; the
transaction that uses both is `d4cli.store.transaction`.

**Entries.** One compact ASCII JSON object a line: ``seq``, ``time``, the
facts of the change (``kind`` first), then bookkeeping that ``log`` never
shows (`PRIVATE_KEYS`): ``before`` and ``after``, the SHA-256 of the file's
bytes before and after, and what is needed to go back:

- ``patch``: a line patch ``[[line, removed, added], ...]`` (both sides, so it
  goes back for ``undo`` and forward for ``redo``), verified by the two
  hashes; its size follows the change, not the file;
- ``prev``: the whole previous text (journals written before patches, and
  the first entry after an ``init`` without ``text`` or after a hand edit,
  which anchors the patches that follow);
- ``text``: an ``init``'s whole file text (the anchor of a new history).
"""

# No `from __future__ import annotations`: a named tuple's field annotations would then be
# strings, each compiled when the class is made (start-up).

import difflib
import io
import json
import re
from collections.abc import Iterator
from itertools import accumulate
from typing import Any, BinaryIO, NamedTuple

from d4cli.journal import SCHEMA_KEY
from d4cli.journal.entry import is_init

# Bookkeeping keys, not facts (left out of `log`): the schema version, the hashes, the ways back.
WAY_BACK = ("before", "after", "prev", "patch", "text")
PRIVATE_KEYS = (SCHEMA_KEY, *WAY_BACK)

Patch = list[list[Any]]  # [[line, removed lines, added lines], ...]

# Bounds of a journal or redo line that is read (`load_line`). d4cli's entries nest at most
# 5 deep (an entry, its patch, a hunk, its lines); json recurses once a level, so 10,000
# levels end in RecursionError. Whole numbers of more digits than any range allows are
# refused before `int` converts them (quadratic, and a ValueError past 4,300 digits).
MAX_JSON_DEPTH = 16
MAX_JSON_DIGITS = 30
# The longest journal or redo line read: far above d4cli's own (an entry holds at most the
# previous text and a patch of a file of at most 1 MiB, JSON-escaped); a longer line is damaged
# and never parsed (a 30 MB line made each change take seconds and hundreds of MB).
MAX_LINE_BYTES = 16 * 1024 * 1024
# What is kept of an oversize line: enough for its ``seq`` and ``before`` (`_torn_before`).
HEAD_BYTES = 4096
_JSON_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"')
_NOT_JSON_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")
_JSON_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
# A run of more than MAX_JSON_DIGITS ASCII digits, found by a byte translation and a substring
# search (a regular expression tried at every position cost a log of 10,000 entries half a second).
_DIGITS_ONLY = bytes(
    48 if 48 <= byte <= 57 else 32 for byte in range(256)
)  # a digit: "0", else " "
_LONG_RUN = b"0" * (MAX_JSON_DIGITS + 1)


def load_line(raw: bytes) -> Any:
    """One JSON line of the journal or the redo file, parsed within bounds.

    Returns:
        The parsed value (any JSON value; the caller checks its shape).

    Raises:
        ValueError: not JSON, nested more than `MAX_JSON_DEPTH` deep, or holding a
            whole number of more than `MAX_JSON_DIGITS` digits: a damaged line.
    """
    if raw.count(b"[") + raw.count(b"{") > MAX_JSON_DEPTH:
        brackets = _JSON_STRING.sub(b"", raw).translate(None, _NOT_JSON_BRACKETS)
        if (
            len(brackets) > MAX_JSON_DEPTH
            and max(accumulate(map(_JSON_STEP.__getitem__, brackets))) > MAX_JSON_DEPTH
        ):
            raise ValueError(f"nested more than {MAX_JSON_DEPTH} deep")
    if _LONG_RUN in raw.translate(_DIGITS_ONLY):
        return json.loads(raw, parse_int=_bounded_int)
    return json.loads(raw)


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_DIGITS:
        raise ValueError(f"a whole number of {len(text):,} digits")
    return int(text)


class Line(NamedTuple):
    """One journal line: its byte span and its entry (None when torn or not JSON).

    ``raw`` holds the line's bytes only when it is not an entry (b"" otherwise).
    """

    start: int
    end: int
    entry: dict[str, Any] | None
    raw: bytes = b""
    oversize: bool = False  # longer than MAX_LINE_BYTES: ``raw`` holds its first bytes only

    @property
    def torn(self) -> bool:
        # An oversize line is damage, never a crash: d4cli writes no line so long.
        return not self.oversize and not self.raw.endswith(b"\n")


class Tail(NamedTuple):
    """The end of the journal as seen against the file's current hash.

    Attributes:
        size: the journal's size in bytes.
        good_end: where the standing entries end (before an unfinished one).
        last: the newest standing entry's line (before a damaged one), or None.
        damaged: the newest line when it is damaged (kept; see the package's "Damage").
        file_newer: with *damaged*: the file is not what the entry before it wrote.
        top_seq: the highest ``seq`` of the standing lines back to the newest entry, damaged
            lines that still show theirs included (0: none); the next change's is one more.
    """

    size: int
    good_end: int
    last: Line | None
    damaged: Line | None = None
    file_newer: bool = False
    top_seq: int = 0

    @property
    def unfinished(self) -> bool:
        return self.good_end < self.size


class Split(NamedTuple):
    """The standing lines, newest first (after a damaged newest line), and what was split off."""

    good_end: int
    lines: Iterator[Line]
    damaged: Line | None
    file_newer: bool


EMPTY = Tail(0, 0, None)


def lines_backward(handle: BinaryIO, size: int, chunk: int = 1 << 16) -> Iterator[Line]:
    """The journal's lines from the newest back, reading *chunk* bytes at a time.

    Linear in the bytes read, however long a line: each chunk is searched once. A line longer
    than `MAX_LINE_BYTES` is never held whole: it comes as an `oversize` `Line` that keeps only
    its first `HEAD_BYTES` (a damaged line: d4cli writes none so long).
    """
    pos = size
    end = size  # the end of the line being gathered
    parts: list[bytes] = []  # its bytes read so far, the latest read (nearest its start) last
    while pos > 0:
        step = min(chunk, pos)
        pos -= step
        handle.seek(pos)
        data = handle.read(step)
        hi = min(len(data), end - 1 - pos)  # a line's own last byte may be its newline
        while True:
            cut = data.rfind(b"\n", 0, max(0, hi))
            if cut < 0:
                break
            parts.append(data[cut + 1 : end - pos])
            yield _gathered(pos + cut + 1, end, parts)
            end, hi, parts = pos + cut + 1, cut, []
        parts.append(data[: end - pos])
        if end - pos > MAX_LINE_BYTES:
            parts = parts[-1:]  # too long to be an entry: keep only the bytes nearest its start
    if end > 0:
        yield _gathered(0, end, parts)


def _gathered(start: int, end: int, parts: list[bytes]) -> Line:
    """The line from *start* to *end* out of *parts* (its bytes, the one nearest its start last)."""
    if end - start > MAX_LINE_BYTES:
        head = b"".join(reversed(parts))[:HEAD_BYTES]
        return Line(start, end, None, head, oversize=True)
    return parse_line(start, b"".join(reversed(parts)))


class ForwardLine(NamedTuple):
    """A line read forward (`read_line`): its bytes (its first `HEAD_BYTES` when oversize) and length."""

    data: bytes
    length: int


def read_line(handle: BinaryIO) -> ForwardLine | None:
    """The next line of *handle*, holding at most `MAX_LINE_BYTES` + 1 of it (None at the end)."""
    raw = handle.readline(MAX_LINE_BYTES + 1)
    if not raw:
        return None
    length = len(raw)
    if length > MAX_LINE_BYTES and not raw.endswith(b"\n"):
        while True:
            rest = handle.readline(1 << 20)
            length += len(rest)
            if not rest or rest.endswith(b"\n"):
                break
        return ForwardLine(raw[:HEAD_BYTES], length)  # parse_line finds no entry in it
    return ForwardLine(raw, length)


def parse_line(start: int, raw: bytes) -> Line:
    """One line at byte *start*: an entry when it is a whole JSON object with a string ``kind``
    and a whole-number ``seq`` (a ``seq`` of text or true is a damaged line)."""
    entry = None
    if raw.endswith(b"\n") and len(raw) <= MAX_LINE_BYTES:
        try:
            value = load_line(raw)
        except ValueError:
            value = None
        if (
            isinstance(value, dict)
            and isinstance(value.get("kind"), str)
            and type(value.get("seq")) is int
        ):
            entry = value
    return Line(start, start + len(raw), entry, b"" if entry is not None else raw)


def _torn_before(raw: bytes) -> str | None:
    """The ``before`` hash a torn entry still shows, if the tear came after it."""
    found = re.search(rb',"before":"([0-9a-f]{64})","after":', raw)
    return found.group(1).decode("ascii") if found else None


def line_number(handle: BinaryIO, start: int, chunk: int = 1 << 20) -> int:
    """The 1-based number of the line starting at byte *start* (read only to name a damaged line)."""
    handle.seek(0)
    count = 1
    left = start
    while left > 0:
        data = handle.read(min(chunk, left))
        if not data:
            break
        count += data.count(b"\n")
        left -= len(data)
    return count


def standing(lines: Iterator[Line], file_digest: str | None, size: int) -> Split:
    """Split off an unfinished or a damaged newest line (the package's crash story and "Damage")."""
    newest = next(lines, None)
    if newest is None:
        return Split(0, iter(()), None, False)
    entry = newest.entry
    if entry is not None:
        if entry.get("after") != file_digest and entry.get("before") == file_digest:
            return Split(newest.start, lines, None, False)
        return Split(size, _chain(newest, lines), None, False)
    previous = next(lines, None)
    rest: Iterator[Line] = iter(()) if previous is None else _chain(previous, lines)
    if previous is None:
        # Only this line: the file can be checked against nothing but the torn entry itself.
        matches = file_digest is None
        file_newer = file_digest is not None
    else:
        matches = previous.entry is not None and previous.entry.get("after") == file_digest
        file_newer = previous.entry is not None and not matches
    if newest.torn and (matches or _torn_before(newest.raw) == file_digest):
        return Split(newest.start, rest, None, False)  # a crash inside the append: unfinished
    return Split(size, rest, newest, file_newer)


def _chain(first: Line, rest: Iterator[Line]) -> Iterator[Line]:
    yield first
    yield from rest


def read_tail(handle: BinaryIO | None, size: int, file_digest: str | None) -> Tail:
    """Classify the journal's end against the file's hash (*handle* None: no journal yet)."""
    if handle is None:
        return EMPTY
    split = standing(lines_backward(handle, size), file_digest, size)
    last = next(split.lines, None)
    # Numbering goes on from the highest readable seq, past any run of damaged lines.
    top = _shown_seq(split.damaged)
    line = last
    while line is not None and line.entry is None:
        top = max(top, _shown_seq(line))
        line = next(split.lines, None)
    if line is not None and line.entry is not None:
        top = max(top, line.entry["seq"])
    return Tail(size, split.good_end, last, split.damaged, split.file_newer, top)


def _shown_seq(line: Line | None) -> int:
    """The ``seq`` a damaged line still shows at its start, else 0."""
    if line is None:
        return 0
    shown = re.match(rb'\{"seq":(\d{1,18}),', line.raw)
    return int(shown.group(1)) if shown else 0


def tail_of(data: bytes, file_digest: str | None) -> Tail:
    """`read_tail` over a journal's whole bytes (for tests and tools)."""

    return read_tail(io.BytesIO(data), len(data), file_digest)


def damage(handle: BinaryIO, line: Line, file_newer: bool) -> str:
    """What a damaged line is, in words: "line N is damaged (...)"."""
    number = line_number(handle, line.start)
    if line.oversize:
        size = f"{(line.end - line.start) / (1024 * 1024):,.1f} MiB"
        return f"line {number} is damaged ({size}, longer than any journal entry)"
    if file_newer:
        return f"line {number} is damaged; the file is newer than the history"
    return f"line {number} is damaged (not a journal entry)"


def after_damage(handle: BinaryIO, tail: Tail, journal: object) -> str:
    """What a change appended after *tail*'s damaged newest line says (the line is kept):
    ``PATH.journal: line N is damaged ...: this change was recorded after it; ...``."""
    assert tail.damaged is not None
    problem = damage(handle, tail.damaged, tail.file_newer)
    return f"{journal}: {problem}: this change was recorded after it; 'log' skips it and 'undo' cannot go back past it"


def next_seq(tail: Tail) -> int:
    """The next change's ``seq``: one more than the highest readable one (`Tail.top_seq`), however
    many damaged lines end the journal."""
    return tail.top_seq + 1


def public_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry without its bookkeeping (hashes, patch and saved texts)."""
    return {key: value for key, value in entry.items() if key not in PRIVATE_KEYS}


def encode_entry(entry: dict[str, Any]) -> bytes:
    """One journal line: compact ASCII JSON and a newline."""
    return (json.dumps(entry, ensure_ascii=True, separators=(",", ":")) + "\n").encode("ascii")


# --- patches -------------------------------------------------------------------------------


# The most line pairs (removed x added) a middle that grew or shrank may hand to difflib.
MAX_DIFF_WORK = 40_000


def make_patch(old: str, new: str) -> Patch:
    """The line patch from *old* to *new*: ``[[line, removed, added], ...]``, lines with their ends.

    ``line`` is where the hunk starts in *old*. Unchanged lines around and
    between hunks are not stored, so the size follows the change. Cheap on
    the usual change (a few lines edited in place): common ends are trimmed
    and an equal-length middle is compared line by line; only a middle that
    grew or shrank goes through ``difflib``, and only while both its sides are
    small (`MAX_DIFF_WORK` line pairs): ``difflib`` is quadratic in them (the
    first change of a hand-written file of 300 creatures took 41 s, holding the
    lock). A bigger middle is one hunk, in time linear in the file; the entry
    then usually keeps the whole previous text instead (`going_back`).
    """
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    lo = 0
    top = min(len(a), len(b))
    while lo < top and a[lo] == b[lo]:
        lo += 1
    ea, eb = len(a), len(b)
    while ea > lo and eb > lo and a[ea - 1] == b[eb - 1]:
        ea -= 1
        eb -= 1
    if ea - lo == eb - lo:
        hunks: Patch = []
        i = lo
        while i < ea:
            if a[i] == b[i]:
                i += 1
                continue
            j = i
            while j < ea and a[j] != b[j]:
                j += 1
            hunks.append([i, a[i:j], b[i:j]])
            i = j
        return hunks
    if (ea - lo) * (eb - lo) > MAX_DIFF_WORK:
        return [[lo, a[lo:ea], b[lo:eb]]]

    matcher = difflib.SequenceMatcher(None, a[lo:ea], b[lo:eb], autojunk=False)
    return [
        [lo + i1, a[lo + i1 : lo + i2], b[lo + j1 : lo + j2]]
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def apply_patch(text: str, patch: Patch, *, reverse: bool = False) -> str | None:
    """*text* with *patch* applied (forward: old to new; *reverse*: new to old), or None if it does not fit.

    Each hunk's lines are checked where they are expected; the caller still
    checks the result's hash (``before`` or ``after``), which is what makes
    the result byte-exact.
    """
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    pos = 0
    shift = 0  # (new line index) - (old line index) so far
    try:
        for start, removed, added in patch:
            at = start + shift if reverse else start
            want, put = (added, removed) if reverse else (removed, added)
            if not isinstance(at, int) or at < pos or lines[at : at + len(want)] != want:
                return None
            out.extend(lines[pos:at])
            out.extend(put)
            pos = at + len(want)
            shift += len(added) - len(removed)
    except (TypeError, ValueError):
        return None
    out.extend(lines[pos:])
    return "".join(out)


def patch_size(patch: Patch) -> int:
    return len(json.dumps(patch, ensure_ascii=True, separators=(",", ":")))


def text_size(text: str) -> int:
    return len(json.dumps(text, ensure_ascii=True))


def forwardable(entry: dict[str, Any]) -> bool:
    """An entry whose ``after`` text can be rebuilt from the one before it (or from itself)."""
    if is_init(entry):
        return isinstance(entry.get("text"), str)
    return isinstance(entry.get("patch"), list)


def going_back(old_text: str | None, new_text: str, anchor: bool) -> dict[str, Any]:
    """The entry's way back from *new_text* to *old_text*: a patch, the whole text, or both.

    The whole previous text (``prev``) is kept only where the patch would be
    larger, or where the entry must anchor the patches after it (*anchor*).
    """
    if old_text is None:
        return {}
    patch = make_patch(old_text, new_text)
    if patch_size(patch) > text_size(old_text):
        return {"prev": old_text}
    return {"prev": old_text, "patch": patch} if anchor else {"patch": patch}
