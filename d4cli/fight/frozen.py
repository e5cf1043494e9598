"""A faster `dataclasses.replace` for the model's plain frozen dataclasses.

The rules replace a creature or an encounter on every transition; the playtest
simulator (`d4cli.sim.engine`) makes millions of them. `dataclasses.replace`
looks up the fields and calls ``__init__`` on every call; this copies the
instance's ``__dict__``, applies the changes and runs ``__post_init__`` as
``__init__`` would (field names are checked against a per-class cache).
`build` makes a new instance the same way, from the class's defaults and the
values given: a frozen dataclass's ``__init__`` sets each field through
``object.__setattr__``, which costs several times as much for a record of many
fields. Both serve dataclasses without ``init=False`` fields, ``InitVar``s or
slots: all of d4cli's records.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any, TypeVar

T = TypeVar("T")
# Per dataclass: its field names and its __post_init__ (or None).
_KNOWN: dict[type, tuple[frozenset[str], Any]] = {}
# Per dataclass: its field names, its defaults and its __post_init__ (`build`).
_BUILT: dict[type, tuple[frozenset[str], dict[str, Any], Any]] = {}


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


def build(cls: type[T], /, **values: Any) -> T:
    """A new *cls* with *values*, as ``cls(**values)`` makes it (defaults filled, ``__post_init__`` run).

    The keyword dict itself becomes the instance's ``__dict__`` when every field is given.

    Raises:
        TypeError: a value names no field, or a field without a default has no value.
    """
    known = _BUILT.get(cls)
    if known is None:
        known = _BUILT[cls] = _build_info(cls)
    names, defaults, post_init = known
    if len(values) != len(names):
        values = {**defaults, **values}
    if values.keys() != names:
        wrong = sorted(set(values) ^ names)
        raise TypeError(f"{cls.__name__}: field {wrong[0]!r} unknown or missing")
    new = object.__new__(cls)
    object.__setattr__(new, "__dict__", values)  # the frozen class's own __setattr__ refuses
    if post_init is not None:
        post_init(new)
    return new


def _build_info(cls: type) -> tuple[frozenset[str], dict[str, Any], Any]:
    found = fields(cls)  # type: ignore[arg-type]
    if any(f.default_factory is not MISSING for f in found):
        raise TypeError(f"{cls.__name__}: build serves fields with plain defaults only")
    defaults = {f.name: f.default for f in found if f.default is not MISSING}
    return frozenset(f.name for f in found), defaults, getattr(cls, "__post_init__", None)
