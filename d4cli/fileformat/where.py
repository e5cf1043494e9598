"""The place of a fault in an encounter file, and the `FileError` that names it (docs/cli.md).

`Where` is the readers' one helper (`d4cli.fileformat.encounter_toml`, `creature_toml`,
`effects_toml`, `player_view_toml`): it names the file, the creature and the field
(``path: creature 'X': field``) and checks the values every table holds (L1 numbers, N1 names,
text, known keys).
"""

from __future__ import annotations

from typing import Any, NoReturn

from d4cli.rules.errors import FileError, InputError
from d4cli.rules.limits import check_whole
from d4cli.rules.names import escape_name, fold_name, name_problem
from d4cli.rules.suggest import unknown_key


class Where:
    """Builds the FileError for one place of the file: ``path: creature 'X': field``."""

    def __init__(self, path: object, creature: str = "") -> None:
        self.path = path
        self.creature = creature

    def field(self, name: str) -> str:
        return f"{self.creature}: {name}" if self.creature else name

    def fail(self, name: str, value: object, problem: str) -> NoReturn:
        raise FileError(self.path, self.field(name), value, problem)

    def whole(self, name: str, value: object, bounds: tuple[int, int]) -> int:
        try:
            return check_whole(value, name, bounds)
        except InputError as error:
            raise FileError(self.path, self.field(name), error.value, error.problem) from None

    def name(self, name: str, value: object) -> str:
        """A name from the file (N1: `d4cli.rules.names.name_problem`), else a FileError shown escaped."""
        if not isinstance(value, str):
            self.fail(name, value, "must be text (in quotes)")
        problem = name_problem(value)
        if problem is not None:
            self.fail(name, escape_name(value), problem)
        return value

    def text(self, name: str, value: object, *, allow_empty: bool = False) -> str:
        if not isinstance(value, str):
            self.fail(name, value, "must be text (in quotes)")
        if not allow_empty and not fold_name(value):
            self.fail(name, value, "cannot be empty")
        return value

    def keys(
        self, table: dict[str, Any], allowed: tuple[str, ...], required: tuple[str, ...]
    ) -> None:
        for key in table:
            if key not in allowed:
                self.fail(key, None, unknown_key(key, allowed))
        for key in required:
            if key not in table:
                self.fail(key, None, "missing")
