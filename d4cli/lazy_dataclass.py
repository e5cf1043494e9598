"""Frozen dataclasses built on first use: `frozen_dataclass`, for start-up time.

Building a dataclass compiles its methods (``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__``, ``__delattr__``): about half a millisecond per class,
which was most of what importing the model cost. A command uses few of the model's
classes (``act`` needs about ten of more than forty), so `frozen_dataclass` leaves a
class as written and turns it into a dataclass, with `dataclasses.dataclass` itself
and ``frozen=True``, the first time it is needed: its first instance, or the first
look at its ``__dataclass_fields__`` (`dataclasses.fields`, `dataclasses.is_dataclass`,
a dataclass subclass being built). So every instance is of a complete dataclass, and
``==``, ``hash``, ``repr``, immutability, `dataclasses.replace` and ``__post_init__``
behave exactly as with ``@dataclass(frozen=True)``.

The class must not define ``__init__`` (the dataclass writes it) nor ``__slots__``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

_FIELDS = "__dataclass_fields__"

# Classes waiting to become dataclasses.
_PENDING: set[type] = set()


def realize(cls: type) -> None:
    """Make every waiting class of *cls*'s MRO a frozen dataclass, bases first."""
    for klass in reversed(cls.__mro__):
        if klass in _PENDING:
            _PENDING.discard(klass)
            del klass.__init__  # type: ignore[misc]  # the stand-in; the dataclass writes the real one
            delattr(klass, _FIELDS)
            dataclasses.dataclass(frozen=True)(klass)


class _WaitingFields:
    """``__dataclass_fields__`` of a waiting class: reading it builds the dataclass first."""

    def __get__(self, instance: object, owner: type) -> Any:
        realize(owner)
        for klass in owner.__mro__:
            value = klass.__dict__.get(_FIELDS)
            if isinstance(value, dict):
                return value
        raise AttributeError(_FIELDS)


_WAITING_FIELDS = _WaitingFields()


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def frozen_dataclass(cls: type[T]) -> type[T]:
    """``@dataclass(frozen=True)``, built when the class is first needed (see the module docstring).

    Raises:
        TypeError: the class defines ``__init__`` or ``__slots__``.
    """
    if "__init__" in cls.__dict__ or "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__name__}: frozen_dataclass writes __init__ and uses no slots")

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        realize(cls)
        cls.__init__(self, *args, **kwargs)  # type: ignore[misc]  # now the dataclass's own

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = __init__  # type: ignore[misc,method-assign]
    setattr(cls, _FIELDS, _WAITING_FIELDS)
    _PENDING.add(cls)
    return cls
