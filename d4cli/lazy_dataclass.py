"""Frozen dataclasses built on first use: `frozen_dataclass`, for start-up time.

Building a dataclass compiles its methods (``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__``, ``__delattr__``): about half a millisecond per class,
which is most of what importing the model costs. A command uses few of the model's
classes (``act`` needs about ten of more than forty), so `frozen_dataclass` leaves a
class as written and makes it a dataclass, with `dataclasses.dataclass` itself and
``frozen=True``, the first time it is instantiated (or subclassed). An instance is
therefore always of a complete dataclass: ``==``, ``hash``, ``repr``, immutability,
`dataclasses.replace` and ``__post_init__`` behave exactly as with
``@dataclass(frozen=True)``. Until its first instance, the class itself has no
``__dataclass_fields__`` (`dataclasses.fields` needs an instance; call `realize` first
to inspect the class).

The class must not define ``__init__`` (the dataclass writes it) and uses no slots.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

# Classes waiting to become dataclasses.
_PENDING: set[type] = set()


def realize(cls: type) -> None:
    """Make *cls* (and first any waiting base of it) a frozen dataclass, if it is not one yet."""
    if cls not in _PENDING:
        return
    for base in reversed(cls.__mro__[1:]):
        realize(base)
    _PENDING.discard(cls)
    del cls.__init__  # type: ignore[misc]  # the stand-in below; the dataclass writes the real one
    dataclasses.dataclass(frozen=True)(cls)


def _realize_bases(cls: type, **kwargs: Any) -> None:
    # ``__init_subclass__`` of a waiting class: a subclass (lazy or a plain dataclass)
    # needs its bases' fields now.
    if kwargs:
        raise TypeError(f"{cls.__name__}: unexpected class keywords {sorted(kwargs)}")
    for base in cls.__mro__[1:]:
        realize(base)


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def frozen_dataclass(cls: type[T]) -> type[T]:
    """``@dataclass(frozen=True)``, built when the class is first instantiated or subclassed.

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
    if not any("__init_subclass__" in klass.__dict__ for klass in cls.__mro__[:-1]):
        cls.__init_subclass__ = classmethod(_realize_bases)  # type: ignore[assignment]
    _PENDING.add(cls)
    return cls
