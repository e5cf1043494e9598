"""``--out PATH``: where a command writes a document (a chart, a handbook) instead of stdout.

The path is checked before any work (its folder exists and may be written, it is not a
folder), so a bad one is refused with nothing played and nothing written; the document is
then written whole or not at all (a temporary file beside it, renamed over it).
"""

from __future__ import annotations

import os
import tempfile

from d4cli.api import InputError
from d4cli.api.inputs import check_text


def checked_out(out: str | None, option: str = "--out") -> str | None:
    """*out* as a path a document may be written to, or None when not given.

    Raises:
        InputError: naming *option*: its folder does not exist or may not be written, it is
            a folder, or a file there may not be written.
    """
    if out is None:
        return None
    target = check_text(out, option)
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(folder):
        raise InputError(option, out, "its folder does not exist")
    if os.path.isdir(target):
        raise InputError(option, out, "is a folder")
    if not os.access(folder, os.W_OK) or (
        os.path.exists(target) and not os.access(target, os.W_OK)
    ):
        raise InputError(option, out, "cannot be written: permission denied")
    return target


def write_out(target: str, text: str, option: str = "--out") -> None:
    """Write *text* to *target* whole: into a temporary file beside it, then renamed over it.

    Raises:
        InputError: naming *option*: the file cannot be written (nothing is left behind).
    """
    folder = os.path.dirname(os.path.abspath(target))
    temporary = None
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".d4cli-out-")
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, target)
    except OSError as error:
        if temporary is not None and os.path.exists(temporary):
            os.unlink(temporary)
        raise InputError(option, target, f"cannot be written: {error.strerror or error}") from None
