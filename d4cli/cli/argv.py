"""The command line as text (N1): arguments a non-UTF-8 locale decoded byte by byte, read as UTF-8.

`d4cli.cli.root` passes a command line holding any non-ASCII argument through `recover_args`
before parsing it: the one place where argv text enters. File paths stay as the operating
system gave them.
"""

from __future__ import annotations

import os

# Options whose value is a file path: kept as the operating system gave it, since
# the bytes of a path, not their reading as text, name the file.
_PATH_OPTIONS = ("--file", "-f", "--from")


def recover_utf8(value: str) -> str:
    """*value* read as UTF-8 when a non-UTF-8 locale decoded it byte by byte (N1).

    Under a C/POSIX locale Python hands every non-ASCII byte of argv over as a
    lone surrogate (``'Zo\\udcc3\\udcab'``); when those bytes are UTF-8 they are
    the text the user typed (``'Zoë'``). Bytes that are not UTF-8 stay as they
    are, for `d4cli.rules.names.check_text` to refuse.
    """
    if value.isascii():
        return value
    try:
        return os.fsencode(value).decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return value


def recover_args(args: list[str]) -> list[str]:
    """The command line with every text argument and option read as UTF-8 (`recover_utf8`).

    The one place where argv text enters: names, sources, labels and notes all
    pass here. File paths (``--file``/``-f``/``--from`` values) stay as given.
    """
    out: list[str] = []
    path_next = False
    for arg in args:
        if (
            path_next
            or arg.startswith(tuple(f"{option}=" for option in _PATH_OPTIONS))
            or (arg.startswith("-f") and not arg.startswith("--"))
        ):
            out.append(arg)
        else:
            out.append(recover_utf8(arg))
        path_next = arg in _PATH_OPTIONS
    return out
