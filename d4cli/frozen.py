"""A faster `dataclasses.replace` for the model's plain frozen dataclasses.

The rules replace a creature or an encounter on every transition; the playtest
simulator (`d4cli.simulate`) makes millions of them. `dataclasses.replace`
looks up the fields on every call; this builds the same object from the
instance's ``__dict__`` through ``__init__`` (so ``__post_init__`` still runs).
It serves dataclasses without ``init=False`` fields, ``InitVar``s or slots: all
of d4cli's records.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass *obj* with *changes*, as `dataclasses.replace` makes it.

    Raises:
        TypeError: a change names no field.
    """
    return type(obj)(**{**obj.__dict__, **changes})
