"""The one error family of d4cli (docs/cli.md).

The rules core, the library and the store raise only these; the command-line shell
turns them into a short plain message and an exit code, in one place
(`d4cli.cli.exit_codes`).
"""

from __future__ import annotations

from collections.abc import Callable


class D4Error(ValueError):
    """Base of every error d4cli expects: bad input unless a subclass says otherwise."""

    def render(self, spell: Callable[[str], str] = str) -> str:
        """The message with each field it names spelt by *spell* (the shell: as its options).

        `str` of the error is ``render()``; an error that names no field is its message.
        """
        return str(self)


class InternalError(D4Error):
    """A failure that is not the user's input (a cluster that went away mid-run)."""


# The problem of any text argument holding bytes that are not UTF-8 (docs/cli.md, N1).
NOT_UTF8 = "holds bytes that are not UTF-8 text"


class InputError(D4Error):
    """Bad input: a value that the rules or the limits (L1-L4) do not accept.

    The message is ``field: value: problem`` (``field: problem`` without a value). The
    library names its own fields: the keyword arguments and record fields it was given
    (``dc``, ``ignore_load``; several joined by ``/``: ``dc/evasion``). The command-line
    shell spells each as its option (``--dc``) when it prints the error (`render`,
    `d4cli.cli.flags`). Any other field (an argument such as ``NAME``, a field of the
    encounter file) is shown as written.

    A problem that names another field writes it ``{name}`` and lists it in *mentions*:
    ``InputError("ignore_load", None, "only with {gm}: ...", mentions=("gm",))`` reads
    ``ignore_load: only with gm: ...``, and ``--ignore-load: only with --gm: ...`` in the
    shell. Only the names in *mentions* are replaced, so braces in a creature's name
    stay as written.

    A text value holding bytes of argv that are not UTF-8 (lone surrogates
    U+DC80..U+DCFF) is always refused as such (`NOT_UTF8`, the bytes shown as ``\\xNN``),
    whichever command or lookup found it: one message for every text argument.

    Args:
        field: the field at fault: a field of the library, an argument, a file field.
        value: the value as it was given (quoted with ``repr`` for text), or None.
        problem: what is wrong with it, in a few words.
        mentions: the fields that *problem* names, each written ``{name}`` in it.
        where: what the field belongs to (a creature's name), shown before it.

    Attributes:
        field, value, mentions, where: as given.
        problem: as given, its ``{name}`` marks kept: re-raise it with *mentions*.
    """

    def __init__(
        self,
        field: str,
        value: object,
        problem: str,
        *,
        mentions: tuple[str, ...] = (),
        where: str = "",
    ) -> None:
        if (
            isinstance(value, str)
            and not value.isascii()
            and any(0xDC80 <= ord(ch) <= 0xDCFF for ch in value)
        ):
            # bytes of argv that are not UTF-8 (N1): the fault, whatever else was looked for
            problem, mentions = NOT_UTF8, ()
        self.field = field
        self.value = value
        self.problem = problem
        self.mentions = mentions
        self.where = where
        super().__init__(self.render())

    def render(self, spell: Callable[[str], str] = str) -> str:
        """``field: value: problem`` with the field and each mention spelt by *spell*.

        A field of library names (lower-case words joined by ``/``) is spelt name by
        name; any other is shown as written.
        """
        field = self.field
        names = field.split("/")
        if all(_is_name(name) for name in names):
            field = "/".join(spell(name) for name in names)
        if self.where:
            field = f"{self.where}: {field}"
        problem = self.problem
        for name in self.mentions:
            problem = problem.replace("{" + name + "}", spell(name))
        shown = _show(self.value)
        return f"{field}: {shown}: {problem}" if shown else f"{field}: {problem}"


def _is_name(text: str) -> bool:
    """Whether *text* is a name of the library's (``dc``, ``ignore_load``), not ``NAME`` or ``policy.target``."""
    return (
        text[:1].isalpha() and text.isascii() and text.islower() and text.replace("_", "").isalpha()
    )


class FileError(InputError):
    """An encounter file (or its journal) that cannot be read, used or written.

    Args:
        path: the file at fault.
        field: where in it (``creature 'Goblin': load``), or "" for the whole file; kept
            as `in_file` (`field` then starts with the file's name).
        value: the offending value (``None`` to show none).
        problem: what is wrong.
    """

    def __init__(self, path: object, field: str, value: object, problem: str) -> None:
        self.path = str(path)
        shown = shorten(self.path)
        where = f"{shown}: {field}" if field else shown
        super().__init__(where, value, problem)
        self.in_file = field

    def render(self, spell: Callable[[str], str] = str) -> str:
        """The message as it is, whatever *spell*: a file's fields are named as the file has them."""
        return super().render()


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
        return shorten(repr(value))
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
