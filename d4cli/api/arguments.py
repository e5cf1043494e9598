"""The library's arguments, checked at its door: a wrong type is an `InputError` naming it.

Every public call of `d4cli.api` (the rolls, the odds, `Tracker` and `Reader`, the
simulator) is wrapped by `checked`, which reads the call's own annotations and refuses
a value of the wrong type before the call runs: ``roll_pool("4")`` raises
``aspect: '4': must be a whole number``, never a `TypeError` from deep inside. So is a
keyword the call does not take, a missing argument, or one positional argument too many.
The values themselves (ranges, names, dice) are the rules' to judge (L1-L4), as before.

A Difficulty Class is a whole number or a named tier everywhere (C2): `DC` is its type
and `dc_value` reads it, with `d4cli.rules.dc.parse_dc`'s error naming the parameter.

The checks are built on a call's first use (its annotations resolved then), so importing
the library costs nothing more.
"""

from __future__ import annotations

import functools
import os
import types
import typing
import warnings
from collections import abc
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from d4cli.rules.dc import parse_dc
from d4cli.rules.errors import InputError

F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C", bound=type)

# C2: a tier's name, as `d4cli.rules.dc.DC_TIERS` spells it.
DCTier = Literal["easy", "medium", "hard", "challenging", "nearly-impossible"]
DC = int | DCTier


def dc_value(dc: int | str, field: str = "dc") -> int:
    """A DC given as a whole number or a tier (``"hard"`` is 18, C2), as a whole number.

    Raises:
        InputError: an unknown tier (with a did-you-mean hint), naming *field*.
    """
    return dc if isinstance(dc, int) else parse_dc(dc, field)


def dc_or_none(dc: int | str | None, field: str = "dc") -> int | None:
    """`dc_value`, or None when no DC was given."""
    return None if dc is None else dc_value(dc, field)


# --- what a value must be -----------------------------------------------------------------

_PLAIN: dict[object, str] = {
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    str: "text",
    type(None): "None",
    os.PathLike: "a path",
}
_COLLECTIONS = (abc.Iterable, abc.Sequence, abc.Collection, list, tuple, frozenset, set)


def _fits(value: object, hint: Any) -> bool:
    """Whether *value* is of the annotated type *hint* (what the library can check of it)."""
    if hint is Any or hint is object or isinstance(hint, TypeVar):
        return True
    if hint is None or hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Annotated:
        return _fits(value, args[0])
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, arg) for arg in args)
    if origin is Literal:
        # the right type is enough here: which values are known is the call's to say, with its hint
        return any(type(value) is type(arg) for arg in args)
    if origin in _COLLECTIONS or hint in _COLLECTIONS:
        return _fits_collection(value, origin or hint, args)
    if origin in (abc.Mapping, dict) or hint in (abc.Mapping, dict):
        return isinstance(value, abc.Mapping)
    if origin is abc.Callable or hint is abc.Callable:
        return callable(value)
    if origin is not None:
        return isinstance(value, origin) if isinstance(origin, type) else True
    if isinstance(hint, type):
        return _fits_class(value, hint)
    return True  # an annotation the door cannot read: the call judges the value itself


def _fits_collection(value: object, origin: Any, args: tuple[Any, ...]) -> bool:
    if isinstance(value, (str, bytes)) or not isinstance(value, abc.Iterable):
        return False  # text is never a list of names: "torch" is not ("t", "o", ...)
    if origin in (list, tuple, frozenset, set) and not isinstance(value, origin):
        return False
    if origin is abc.Sequence and not isinstance(value, abc.Sequence):
        return False
    if not isinstance(value, (list, tuple)) or not args:
        return True  # an iterator is read once, by the call: its items are not looked at here
    items = args[:1] if origin is not tuple or args[-1] is Ellipsis else args
    if origin is tuple and args[-1] is not Ellipsis:
        return len(value) == len(args) and all(map(_fits, value, args))
    return all(_fits(item, items[0]) for item in value)


def _fits_class(value: object, hint: type) -> bool:
    if getattr(hint, "_is_protocol", False):
        # a protocol (a `DiceSource`): the value has each of its methods
        return all(callable(getattr(value, name, None)) for name in _methods(hint))
    return isinstance(value, hint)


def _methods(protocol: type) -> list[str]:
    """The public methods a protocol asks for (a `DiceSource`: ``randint``)."""
    return [name for name in vars(protocol) if not name.startswith("_")]


def _expected(hint: Any) -> str:
    """What *hint* asks for, in a few words (``a whole number or text``)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    plain = _PLAIN.get(hint, _PLAIN.get(origin))
    if plain is not None:
        return plain
    if origin is typing.Annotated:
        return _expected(args[0])
    if origin in (typing.Union, types.UnionType):
        return " or ".join(dict.fromkeys(_expected(arg) for arg in args))
    if origin is Literal:
        return "one of " + ", ".join(str(arg) for arg in args)
    if origin in _COLLECTIONS or hint in _COLLECTIONS:
        inner = " or ".join(dict.fromkeys(_expected(arg) for arg in args if arg is not Ellipsis))
        return f"a list, each {inner}" if inner else "a list"
    if origin in (abc.Mapping, dict):
        return "a table (a dict)"
    if origin is abc.Callable or hint is abc.Callable:
        return "a function"
    if getattr(hint, "_is_protocol", False):
        return "an object with " + ", ".join(f"{name}()" for name in _methods(hint))
    name = getattr(origin or hint, "__name__", str(hint))
    return f"{'an' if name[:1] in 'AEIOU' else 'a'} {name}"


# --- the door -------------------------------------------------------------------------------


# The flags of a code object with ``*args`` and with ``**kwargs`` (`inspect.CO_VARARGS`, ...).
_VARARGS = 0x04
_VARKEYWORDS = 0x08


class _Parameters:
    """One call's parameters as the door checks them: names, kinds and annotated types."""

    def __init__(self, function: Callable[..., Any], renamed: dict[str, str]) -> None:
        code = function.__code__
        positional = code.co_argcount
        keyword_only = code.co_kwonlyargcount
        names = code.co_varnames[: positional + keyword_only]
        self.positional = names[:positional]
        self.names = names
        defaults = function.__defaults__ or ()
        required = set(self.positional[: positional - len(defaults)])
        kw_defaults = function.__kwdefaults__ or {}
        required |= {name for name in names[positional:] if name not in kw_defaults}
        self.required = frozenset(required)
        self.hints = {name: hint for name, hint in _hints(function).items() if name in self.names}
        # a request record given whole (`check_odds(CheckRequest(...))`): its fields too
        self.records = {
            name: _field_hints(hint)
            for name, hint in self.hints.items()
            if isinstance(hint, type) and hasattr(hint, "_fields")
        }
        self.renamed = renamed
        self.method = bool(self.positional) and self.positional[0] in ("self", "cls")
        self.star_args = bool(code.co_flags & _VARARGS)
        self.star_kwargs = bool(code.co_flags & _VARKEYWORDS)

    def check(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        """*kwargs* with each old keyword renamed; raises `InputError` for what does not fit."""
        shown = self.positional[1:] if self.method else self.positional
        if len(args) > len(self.positional) and not self.star_args:
            extra = args[len(self.positional)]
            raise InputError(
                "arguments",
                None,
                f"takes {len(shown)} positional argument(s) ({', '.join(shown) or 'none'}); "
                f"the next one, {_short(extra)}, has no place: give it by keyword",
            )
        for old, new in self.renamed.items():
            if old in kwargs:
                warnings.warn(
                    f"the keyword {old!r} is now {new!r}", DeprecationWarning, stacklevel=3
                )
                if new in kwargs:
                    raise InputError(f"{old}/{new}", None, "give one of them, not both")
                kwargs = {new if key == old else key: value for key, value in kwargs.items()}
        given = dict(zip(self.positional, args))
        for name, value in kwargs.items():
            if (name not in self.names and not self.star_kwargs) or name in given:
                known = ", ".join(n for n in self.names if n not in ("self", "cls"))
                problem = "given twice" if name in given else f"no such keyword (it takes {known})"
                raise InputError(name, None, problem)
            given[name] = value
        missing = sorted(self.required - given.keys())
        if missing:
            raise InputError(missing[0], None, "missing: give it")
        for name, value in given.items():
            hint = self.hints.get(name)
            if hint is not None and not _fits(value, hint):
                if _plain(value):
                    raise InputError(name, value, f"must be {_expected(hint)}")
                raise InputError(
                    name, None, f"must be {_expected(hint)}, not a {type(value).__name__}"
                )
            for field, field_hint in self.records.get(name, {}).items():
                item = getattr(value, field)
                if not _fits(item, field_hint):
                    bad = item if _plain(item) else None
                    raise InputError(f"{name}.{field}", bad, f"must be {_expected(field_hint)}")
        return kwargs


def _hints(function: Callable[..., Any]) -> dict[str, Any]:
    """The annotations of *function*, resolved; one that names a type imported only for the
    type checker (an import cycle avoided) is left out, and that argument goes unchecked."""
    try:
        return typing.get_type_hints(function, include_extras=True)
    except NameError:
        pass
    hints = {}
    for name, annotation in function.__annotations__.items():
        try:
            hints[name] = typing.get_type_hints(
                _Annotated(name, annotation, function), include_extras=True
            )[name]
        except NameError:
            continue
    return hints


def _field_hints(record: type) -> dict[str, Any]:
    """The fields of a named tuple class and their types; none when one cannot be resolved
    (a record that names a type imported only for the type checker is checked as a whole)."""
    try:
        return typing.get_type_hints(record)
    except NameError:
        return {}


class _Annotated:
    """One annotation of a function, alone, for `typing.get_type_hints` to resolve."""

    def __init__(self, name: str, annotation: Any, function: Callable[..., Any]) -> None:
        self.__annotations__ = {name: annotation}
        self.__globals__ = getattr(function, "__globals__", {})


def _plain(value: object) -> bool:
    """Whether an error shows *value* itself (text, a number), not only its type."""
    return isinstance(value, (str, int, float))


def _short(value: object) -> str:
    """A value as a problem mentions it: text and numbers as they are, else by its type."""
    return repr(value)[:40] if _plain(value) else f"a {type(value).__name__}"


@typing.overload
def checked(function: F) -> F: ...


@typing.overload
def checked(*, renamed: dict[str, str]) -> Callable[[F], F]: ...


def checked(
    function: F | None = None, *, renamed: dict[str, str] | None = None
) -> F | Callable[[F], F]:
    """Wrap a public call so that every argument is checked against its annotation first.

    *renamed* maps an old keyword to its new name: the old one still works, with a
    `DeprecationWarning`. Used as ``@checked`` or ``@checked(renamed={...})``.

    Raises (from the wrapped call):
        InputError: a value of the wrong type (field: the parameter), an unknown keyword,
            a missing argument, too many positional arguments.
    """

    def wrap(call: F) -> F:
        parameters: list[_Parameters] = []

        @functools.wraps(call)
        def door(*args: Any, **kwargs: Any) -> Any:
            if not parameters:  # built on first use: resolving annotations costs at import
                parameters.append(_Parameters(call, renamed or {}))
            kwargs = parameters[0].check(args, kwargs)
            return call(*args, **kwargs)

        return typing.cast(F, door)

    return wrap if function is None else wrap(function)


def checked_methods(cls: C) -> C:
    """`checked` on every public method of *cls* and on its ``__init__`` (class methods too)."""
    for name, member in list(vars(cls).items()):
        if name.startswith("_") and name != "__init__":
            continue
        if isinstance(member, classmethod):
            setattr(cls, name, classmethod(checked(member.__func__)))
        elif isinstance(member, types.FunctionType):
            setattr(cls, name, checked(member))
    return cls
