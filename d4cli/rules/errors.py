"""The one error family of d4cli (docs/cli.md).

The rules core, the library and the store raise only these; the command-line shell
turns them into a short plain message and an exit code, in one place
(`d4cli.cli.exit_codes`).
"""

from __future__ import annotations


class D4Error(ValueError):
    """Base of every error d4cli expects: bad input unless a subclass says otherwise."""


class InternalError(D4Error):
    """A failure that is not the user's input (a cluster that went away mid-run)."""


# The problem of any text argument holding bytes that are not UTF-8 (docs/cli.md, N1).
NOT_UTF8 = "holds bytes that are not UTF-8 text"


class InputError(D4Error):
    """Bad input: a value that the rules or the limits (L1-L4) do not accept.

    The message always names the field (an option such as ``--load``, or a
    field of the encounter file) and quotes the offending value. A text value
    holding bytes of argv that are not UTF-8 (lone surrogates U+DC80..U+DCFF) is
    always refused as such (`NOT_UTF8`, the bytes shown as ``\\xNN``), whichever
    command or lookup found it: one message for every text argument.

    Args:
        field: the option, argument or file field at fault.
        value: the value as it was given (quoted with ``repr`` for text).
        problem: what is wrong with it, in a few words.
    """

    def __init__(self, field: str, value: object, problem: str) -> None:
        if (
            isinstance(value, str)
            and not value.isascii()
            and any(0xDC80 <= ord(ch) <= 0xDCFF for ch in value)
        ):
            problem = NOT_UTF8  # bytes of argv that are not UTF-8 (N1): the fault, whatever else was looked for
        self.field = field
        self.value = value
        self.problem = problem
        shown = _show(value)
        super().__init__(f"{field}: {shown}: {problem}" if shown else f"{field}: {problem}")


class FileError(InputError):
    """An encounter file (or its journal) that cannot be read, used or written.

    Args:
        path: the file at fault.
        field: where in it (``creature 'Goblin': load``), or "" for the whole file; kept
            as `where` (`field` then starts with the file's name).
        value: the offending value (``None`` to show none).
        problem: what is wrong.
    """

    def __init__(self, path: object, field: str, value: object, problem: str) -> None:
        self.path = str(path)
        self.where = field
        shown = shorten(self.path)
        where = f"{shown}: {field}" if field else shown
        super().__init__(where, value, problem)


class RefusedError(D4Error):
    """The rules refuse the action (the R2 gate, or an impossible check, C4).

    The one refusal of d4cli, whoever finds it: the printers raise it after
    printing the refused result (its JSON is still the contract's answer), the
    odds refuse an impossible check with it; only the shell turns it into the
    exit code.

    Attributes:
        result: the result record that says why (a `PoolResult`, `CheckResult`,
            `TeamRecord` ...), or None when nothing was rolled.
    """

    def __init__(self, message: str, result: object = None) -> None:
        self.result = result
        super().__init__(message)


# A value longer than this is shown by its first SHOWN_HEAD characters and its length.
MAX_SHOWN = 1000
SHOWN_HEAD = 60


def shorten(text: str) -> str:
    """*text* as a message shows it: whole, or past `MAX_SHOWN` characters its first
    `SHOWN_HEAD` and its length, so a message stays one short line even for a value of megabytes."""
    if len(text) <= MAX_SHOWN:
        return text
    return f"{text[:SHOWN_HEAD]}... ({len(text):,} characters)"


def _show(value: object) -> str:
    """A value as the user wrote it (TOML spelling for what came from a file), not Python's."""
    if value is None:
        return ""
    if isinstance(value, str):
        if len(value) > MAX_SHOWN:
            return "'" + escape_control(value[:SHOWN_HEAD]) + f"...' ({len(value):,} characters)"
        return escape_control(repr(value)) if value == "" else "'" + escape_control(value) + "'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    # Dates and times from TOML: their TOML spelling.
    isoformat = getattr(value, "isoformat", None)
    shown = isoformat() if callable(isoformat) else str(value)
    return escape_control(str(shown))


_BIDI = (
    frozenset(range(0x202A, 0x202F)) | frozenset(range(0x2066, 0x206A)) | {0x200E, 0x200F, 0x061C}
)


def escape_control(text: str) -> str:
    """Return *text* with control characters shown as escapes (N1).

    C0, DEL and C1 controls, the bidirectional overrides and marks (LRM, RLM, ALM) are escaped, so a
    name from a file can never drive the terminal; so are lone surrogates (a
    byte of argv that was not UTF-8), which no stream could write. Everything
    else is kept.
    """
    if text.isprintable():
        return text
    out = []
    for ch in text:
        code = ord(ch)
        if code < 0x20 or 0x7F <= code < 0xA0:
            out.append(f"\\x{code:02x}")
        elif 0xDC80 <= code <= 0xDCFF:  # a byte of argv that is not UTF-8: shown as the byte
            out.append(f"\\x{code - 0xDC00:02x}")
        elif code in _BIDI or 0xD800 <= code < 0xE000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)
