"""d4cli as a library: the one way in for the CLI, ``play``, the server and a designer's script.

    >>> from d4cli.api.rolls import roll_pool
    >>> roll_pool(4, advantage=["torch"], dc=8).total      # doctest: +SKIP
    >>> from d4cli.api.encounter import Tracker
    >>> tracker = Tracker("encounter.toml")
    >>> change = tracker.act("Aria", "Finesse", extra=["1d4"], target="Goblin Archer")
    >>> change.record.result.total, change.written           # doctest: +SKIP

The library comes in parts, each loading what it needs and no more: this package holds the
family of errors every part raises; `d4cli.api.rolls` the rolls, which need no file;
`d4cli.api.odds` the exact odds; `d4cli.api.encounter` an
encounter file (`Tracker`, its records, its side files); `d4cli.api.seats` and
`d4cli.api.seat_requests` the players' seats; `d4cli.api.simulation` the playtest simulator
(`simulate`, `forecast`). Errors are one family: `D4Error`, with `InputError` (bad input, naming
the field and the value), `FileError` (a file that cannot be read, used or written) and
`RefusedError` (the rules refuse: R2, C4); a file adds `LockTimeout` and `WriteFailed`
(`d4cli.api.encounter`). docs/api.md documents each name.
"""

from d4cli.rules.errors import D4Error, FileError, InputError, RefusedError

__all__ = [
    "D4Error",
    "InputError",
    "FileError",
    "RefusedError",
]
