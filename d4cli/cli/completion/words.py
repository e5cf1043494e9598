"""The typed line as the shell sees it: split into words, the word under the cursor, bash quoting."""

from __future__ import annotations

import os

DEFAULT_WORDBREAKS = " \t\n\"'@><=;|&(:"
# Characters a value may keep unquoted in bash (non-ASCII letters are kept as they are).
_BASH_SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,/+%@^")


class TypedWord:
    """The word being completed, as typed: what the shell will replace and how it is quoted.

    Attributes:
        value: the word with its quoting removed (what the program would receive).
        kept: the value of the part readline keeps (before the last word break,
            such as ``--dc=`` or ``Orc:``); the reply replaces only what follows.
        quote: the quote left open at the cursor (``'`` or ``"``), or "".
    """

    __slots__ = ("kept", "quote", "value")

    def __init__(self, value: str, kept: str, quote: str) -> None:
        self.value = value
        self.kept = kept
        self.quote = quote

    def __repr__(self) -> str:
        return f"TypedWord({self.value!r}, kept={self.kept!r}, quote={self.quote!r})"


def split_line(line: str, wordbreaks: str = DEFAULT_WORDBREAKS) -> tuple[list[str], TypedWord]:
    """Split a command line up to the cursor the way bash and readline do.

    Returns the finished words (quoting removed) and the word under the cursor.
    Lenient: an open quote or a trailing backslash is not an error.
    """
    breaks = set(wordbreaks) - set(" \t\n\"'")
    words: list[str] = []
    value: list[str] = []
    kept_len = 0  # length of `value` that readline keeps
    in_word = False
    quote = ""
    i = 0
    while i < len(line):
        char = line[i]
        if quote == "'":
            if char == "'":
                quote = ""
            else:
                value.append(char)
        elif quote == '"':
            if char == '"':
                quote = ""
            elif char == "\\" and i + 1 < len(line) and line[i + 1] in '"\\$`\n':
                i += 1
                value.append(line[i])
            else:
                value.append(char)
        elif char in " \t\n":
            if in_word:
                words.append("".join(value))
            value, kept_len, in_word = [], 0, False
        elif char == "\\":
            in_word = True
            if i + 1 < len(line):
                i += 1
                value.append(line[i])
        elif char in "'\"":
            in_word = True
            quote = char
            kept_len = len(value)  # readline completes what follows an open quote
        else:
            in_word = True
            value.append(char)
            if char in breaks:
                kept_len = len(value)
        i += 1
    current = "".join(value)
    kept = current[:kept_len] if quote or kept_len <= len(current) else ""
    return words, TypedWord(current, kept, quote)


def line_to_cursor(raw: bytes, point: str) -> str:
    """COMP_LINE up to COMP_POINT. bash counts the point in characters under a UTF-8
    locale and in bytes otherwise."""
    text = raw.decode("utf-8", "surrogateescape")
    if not (point.isascii() and point.isdigit() and len(point) <= 18):
        return text  # no cursor position (or 5,000 digits): the whole line
    index = int(point)
    if index >= len(raw):
        return text
    locale = os.environ.get("LC_ALL") or os.environ.get("LC_CTYPE") or os.environ.get("LANG") or ""
    if "utf" in locale.lower().replace("-", ""):
        return text[:index]
    return raw[:index].decode("utf-8", "surrogateescape")


def bash_quote(text: str, quote: str = "") -> str:
    """*text* as bash must read it back as (part of) one word, inside an open *quote* if any."""
    if quote == "'":
        return text.replace("'", "'\\''")
    if quote == '"':
        return "".join("\\" + c if c in '"\\$`' else c for c in text)
    return "".join(
        c if c in _BASH_SAFE or (ord(c) > 127 and c.isprintable()) else "\\" + c for c in text
    )
