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

import _thread
import dataclasses
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

_FIELDS = "__dataclass_fields__"

# Classes waiting to become dataclasses.
_PENDING: set[type] = set()


# Methods the class may write itself; then `dataclasses.dataclass` writes the rest as usual.
_OWN_METHODS = ("__repr__", "__eq__", "__hash__")


# One class is built at a time: a thread that reads the fields of a class another
# thread is building waits for it. (A first instance made while another thread builds
# the class can still fail: threads that play pieces call `realize_all` first.)
_BUILDING = _thread.RLock()


def realize(cls: type) -> None:
    """Make every waiting class of *cls*'s MRO a frozen dataclass, bases first."""
    with _BUILDING:
        _realize(cls)


def realize_all() -> None:
    """Build every class still waiting, now: before several threads use the model at once."""
    with _BUILDING:
        for cls in list(_PENDING):
            _realize(cls)


def _realize(cls: type) -> None:
    """Make every waiting class of *cls*'s MRO a frozen dataclass, bases first.

    `dataclasses.dataclass` compiles ``__init__`` (run on every instance) and the
    frozen ``__setattr__``/``__delattr__``; ``__repr__``, ``__eq__`` and ``__hash__``,
    rarely called on most records, are the same methods written once here over the
    fields (`_object_methods`), which saves half the compiling.
    """
    for klass in reversed(cls.__mro__):
        if klass in _PENDING:
            _PENDING.discard(klass)
            del klass.__init__  # type: ignore[misc]  # the stand-in; the dataclass writes the real one
            delattr(klass, _FIELDS)
            if any(name in klass.__dict__ for name in _OWN_METHODS):
                dataclasses.dataclass(frozen=True)(klass)
                continue
            dataclasses.dataclass(frozen=True, repr=False, eq=False)(klass)
            for name, method in _object_methods(klass).items():
                method.__qualname__ = f"{klass.__qualname__}.{name}"
                setattr(klass, name, method)
            params = getattr(klass, "__dataclass_params__", None)
            try:
                params.repr = params.eq = True  # type: ignore[union-attr]  # as @dataclass(frozen=True) says
            except AttributeError:
                pass


def _object_methods(klass: type) -> dict[str, Any]:
    """``__repr__``, ``__eq__`` and ``__hash__`` as `dataclasses.dataclass` writes them for *klass*.

    The repr lists the fields with ``repr=True`` (``...`` for a recursive one);
    equality compares the tuples of ``compare=True`` fields of two instances of
    the same class (else NotImplemented); the hash is that of the tuple of the
    fields ``hash`` selects (default: ``compare``), as for ``eq=True, frozen=True``.
    """
    import reprlib

    fields = dataclasses.fields(klass)
    shown = tuple(field.name for field in fields if field.repr)
    compared = tuple(field.name for field in fields if field.compare)
    hashed = tuple(field.name for field in fields if (field.compare if field.hash is None else field.hash))

    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        body = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{self.__class__.__qualname__}({body})"

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is self.__class__:
            return tuple(getattr(self, name) for name in compared) == tuple(getattr(other, name) for name in compared)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(tuple(getattr(self, name) for name in hashed))

    return {"__repr__": __repr__, "__eq__": __eq__, "__hash__": __hash__}


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
