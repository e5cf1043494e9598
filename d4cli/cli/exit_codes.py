"""The exit codes of d4cli (docs/cli.md "Exit codes") and the one table that maps errors to them."""

from __future__ import annotations

from enum import IntEnum

from d4cli.api import D4Error, RefusedError
from d4cli.api.inputs import InternalError


class ExitCode(IntEnum):
    """How a run of d4cli ends."""

    OK = 0
    # A bug, a failed output (a full disk, a closed terminal: any change stands), or a
    # failure that is not the user's input (a Dask cluster that went away).
    INTERNAL = 1
    INPUT = 2  # bad input of any kind: arguments, environment, files
    REFUSED = 3  # the rules refuse: the gate (R2), a creature that is down (R18), C4
    INTERRUPTED = 130  # Ctrl-C


# Each kind of the error family -> its code; an error takes its nearest class's.
EXIT_CODES: dict[type[D4Error], ExitCode] = {
    D4Error: ExitCode.INPUT,
    RefusedError: ExitCode.REFUSED,
    InternalError: ExitCode.INTERNAL,
}


def exit_code_of(error: D4Error) -> ExitCode:
    """The exit code of *error*: that of the nearest of its classes in `EXIT_CODES`."""
    for kind in type(error).__mro__:
        if kind in EXIT_CODES:
            return EXIT_CODES[kind]
    return ExitCode.INPUT
