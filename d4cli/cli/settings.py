"""What the shell reads from the environment for the store: the file and the lock's patience.

The store itself never reads the environment: the command layer calls
`resolve_path` and `lock_timeout` and passes the results in. The lock's default
patience is the store's (`d4cli.store.lock.DEFAULT_LOCK_TIMEOUT`); this module
does not import the store, being on every command's start-up path.
"""

from __future__ import annotations

import os
from pathlib import Path

from d4cli.api import FileError, InputError

DEFAULT_FILE = "encounter.toml"
FILE_ENV = "D4CLI_FILE"
LOCK_TIMEOUT_ENV = "D4CLI_LOCK_TIMEOUT"


def resolve_path(option_value: str | None) -> Path:
    """The encounter file: the ``--file`` option, else ``D4CLI_FILE``, else ``./encounter.toml``.

    Raises:
        InputError: an empty ``--file`` value.
        FileError: a name with a byte that is not UTF-8 (a lone surrogate in argv
            or the environment): d4cli could not show it, nor take it as a name.
    """
    if option_value == "":
        raise InputError("--file", "", "must name an encounter file")
    text = option_value if option_value is not None else os.environ.get(FILE_ENV) or DEFAULT_FILE
    path = Path(text)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise FileError(path, "", None, "the file name is not valid UTF-8 text") from None
    return path


def lock_timeout() -> float | None:
    """Seconds to wait for the encounter's lock: ``D4CLI_LOCK_TIMEOUT``; None when unset or
    empty, which the store takes as its default (`d4cli.store.lock.DEFAULT_LOCK_TIMEOUT`, 5 s).

    Raises:
        InputError: not a number of seconds within 0..86400.
    """
    text = os.environ.get(LOCK_TIMEOUT_ENV)
    if text is None or text == "":
        return None
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 86_400:
        raise InputError(LOCK_TIMEOUT_ENV, text, "must be a number of seconds within 0..86400")
    return seconds
