"""A faster `dataclasses.replace` for the model's plain frozen dataclasses.

The rules replace a creature or an encounter on every transition; the playtest
simulator (`d4cli.simulate`) makes millions of them. `dataclasses.replace`
looks up the fields and calls ``__init__`` on every call; this copies the
instance's ``__dict__``, applies the changes and runs ``__post_init__`` as
``__init__`` would (field names are checked against a per-class cache).
It serves dataclasses without ``init=False`` fields, ``InitVar``s or slots: all
of d4cli's records.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")
# Per dataclass: its field names and its __post_init__ (or None).
_KNOWN: dict[type, tuple[frozenset[str], Any]] = {}


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass *obj* with *changes*, as `dataclasses.replace` makes it.

    Raises:
        TypeError: a change names no field.
    """
    cls = type(obj)
    known = _KNOWN.get(cls)
    if known is None:
        known = _KNOWN[cls] = (frozenset(f.name for f in fields(cls)), getattr(cls, "__post_init__", None))  # type: ignore[arg-type]
    names, post_init = known
    if not names.issuperset(changes):
        unknown = sorted(set(changes) - names)
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
    state = obj.__dict__.copy()
    state.update(changes)
    new = object.__new__(cls)
    object.__setattr__(new, "__dict__", state)  # the frozen class's own __setattr__ refuses
    if post_init is not None:
        post_init(new)
    return new
