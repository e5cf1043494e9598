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
behave exactly as with ``@dataclass(frozen=True)``. Only a class of plain fields
waits (`_plain`: every model class); any other is built at once by `dataclasses`.
A waiting class swaps its stand-in ``__init__`` for the real one in one step, under
a lock, so threads making its first instances at once are safe.

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


# One class is built at a time: a thread that reads the fields of a class another thread
# is building, or makes one of its first instances, waits for it (the stand-in ``__init__``
# is swapped for the real one in one step).
_BUILDING = _thread.RLock()


def realize(cls: type) -> None:
    """Make every waiting class of *cls*'s MRO a frozen dataclass, bases first."""
    with _BUILDING:
        _realize(cls)


def _realize(cls: type) -> None:
    """Make every waiting class of *cls*'s MRO a frozen dataclass, bases first.

    Only plain classes wait (`frozen_dataclass`): each compiles its ``__init__``
    alone (`_build_plain`); ``__repr__``, ``__eq__`` and ``__hash__``, rarely called
    on most records, are the same methods written once here over the fields
    (`_object_methods`).
    """
    for klass in reversed(cls.__mro__):
        if klass in _PENDING:
            _PENDING.discard(klass)
            delattr(klass, _FIELDS)
            _build_plain(klass)
            for name, method in _object_methods(klass).items():
                method.__qualname__ = f"{klass.__qualname__}.{name}"
                setattr(klass, name, method)
            params = klass.__dict__["__dataclass_params__"]
            params.repr = params.eq = True  # as @dataclass(frozen=True) says


def _plain(klass: type) -> bool:
    """Whether *klass* is a class of plain fields that `_build_plain` can build.

    No ``__repr__``/``__eq__``/``__hash__``/``__setattr__``/``__delattr__`` of its own,
    a docstring (else dataclasses writes one from the signature), no ``InitVar``,
    ``KW_ONLY``, ``kw_only`` or ``init=False`` field, its own or a built base's.
    """
    own = klass.__dict__
    if any(name in own for name in (*_OWN_METHODS, "__setattr__", "__delattr__")):
        return False
    if not own.get("__doc__") or "self" in own.get("__annotations__", {}):
        return False
    if any("InitVar" in str(kind) or "KW_ONLY" in str(kind) for kind in own.get("__annotations__", {}).values()):
        return False
    inherited = [  # a waiting base holds plain fields; reading its stand-in would build it
        field for base in klass.__mro__[1:]
        if isinstance(known := base.__dict__.get(_FIELDS), dict) for field in known.values()
    ]
    declared = [value for value in own.values() if isinstance(value, dataclasses.Field)]
    return not any(field.init is False or field.kw_only is True for field in inherited + declared)


def _build_plain(klass: type) -> None:
    """Make the plain class *klass* (`_plain`) a frozen dataclass compiling one method, ``__init__``.

    `dataclasses.dataclass` collects the fields (``init=False, frozen=False``:
    it compiles nothing); ``__init__`` is then written as the frozen dataclass
    writes it (every field set past the frozen ``__setattr__``, defaults, default
    factories, ``__post_init__``) and replaces the stand-in in one step, and the
    frozen ``__setattr__``/``__delattr__`` are the same checks as closures, not
    compiled per class; the class's parameters then say ``frozen`` and ``init``,
    as ``@dataclass(frozen=True)`` sets them.
    """
    frozen_bases = [
        params for base in klass.__mro__[1:]
        if (params := base.__dict__.get("__dataclass_params__")) is not None and params.frozen
    ]
    try:
        for params in frozen_bases:
            params.frozen = False  # for the check "non-frozen dataclass from a frozen one"; put back below
        dataclasses.dataclass(init=False, repr=False, eq=False)(klass)
    finally:
        for params in frozen_bases:
            params.frozen = True
    fields = dataclasses.fields(klass)
    source = _init_source(fields, hasattr(klass, "__post_init__"))
    space: dict[str, Any] = {"__d4_factory__": _FACTORY}
    for field in fields:
        space[f"__d4_default_{field.name}__"] = field.default
        space[f"__d4_make_{field.name}__"] = field.default_factory
    exec(source, space)  # noqa: S102 - text built above from the field names alone
    init = space["__init__"]
    init.__qualname__ = f"{klass.__qualname__}.__init__"
    init.__annotations__ = {**{field.name: field.type for field in fields}, "return": None}
    klass.__init__ = init  # type: ignore[misc]
    names = tuple(field.name for field in fields)
    for name, method in _frozen_methods(klass, names).items():
        method.__qualname__ = f"{klass.__qualname__}.{name}"
        setattr(klass, name, method)
    params = klass.__dict__["__dataclass_params__"]
    params.frozen = params.init = True


# The marker of a field whose default factory runs (dataclasses has its own, private).
_FACTORY = object()


def _init_source(fields: tuple[dataclasses.Field[Any], ...], post_init: bool) -> str:
    """The text of ``__init__`` for *fields*.

    Raises:
        TypeError: a field without a default follows one with a default (as dataclasses says).
    """
    params, values, defaulted = [], [], False
    for field in fields:
        name = field.name
        if field.default is not dataclasses.MISSING:
            params.append(f"{name}=__d4_default_{name}__")
            value = name
        elif field.default_factory is not dataclasses.MISSING:
            params.append(f"{name}=__d4_factory__")
            value = f"__d4_make_{name}__() if {name} is __d4_factory__ else {name}"
        elif defaulted:
            raise TypeError(f"non-default argument {name!r} follows default argument")
        else:
            params.append(name)
            value = name
        defaulted = defaulted or field.default is not dataclasses.MISSING or field.default_factory is not dataclasses.MISSING
        values.append(f"{name}={value}")
    # Straight into the instance's __dict__ (no slots, no descriptors: what object.__setattr__
    # does for these fields), in field order: half the compiling, twice as fast per instance.
    body = f"    self.__dict__.update({', '.join(values)})\n"
    if post_init:
        body += "    self.__post_init__()\n"
    return f"def __init__(self, {', '.join(params)}):\n{body}"


def _frozen_methods(klass: type, names: tuple[str, ...]) -> dict[str, Any]:
    """``__setattr__`` and ``__delattr__`` as ``@dataclass(frozen=True)`` writes them for *klass*."""

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is klass or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(klass, self).__setattr__(name, value)  # type: ignore[arg-type]

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is klass or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(klass, self).__delattr__(name)  # type: ignore[arg-type]

    return {"__setattr__": __setattr__, "__delattr__": __delattr__}


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
    if not _plain(cls):  # built now by dataclasses itself: only plain classes wait
        return dataclasses.dataclass(frozen=True)(cls)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        realize(cls)
        cls.__init__(self, *args, **kwargs)  # type: ignore[misc]  # now the dataclass's own

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = __init__  # type: ignore[misc,method-assign]
    setattr(cls, _FIELDS, _WAITING_FIELDS)
    _PENDING.add(cls)
    return cls
