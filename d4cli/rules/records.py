"""What every result record of d4cli shows in a notebook: one shared `notebook` decorator.

A record (a named tuple or a frozen dataclass of the rules, the odds, the fight model or
the simulator) decorated with `notebook` gets, from this one module:

- a short ``repr`` (at most `MAX_REPR` characters): its fields, each nested record, long
  tuple or table shown by its kind and size (``plan=PoolPlan(…)``, ``dice=(12 items)``);
- ``_repr_html_``: a two-column HTML table of its fields and its public properties (what
  Jupyter shows for a value on its own line);
- ``to_dict()``: plain data (dicts, lists, text, numbers, true/false, None), nested records
  as dicts, a dict of the same keys for every record of one kind, so
  ``pandas.DataFrame([r.to_dict() for r in results])`` takes a list of them as it is.

Nothing here reads a rule: it only shows values the records already hold. Decorating a
class costs three assignments: the module imports nothing a command's start-up does not
already hold (no `dataclasses`, no `fractions`; `html` only when a table is drawn).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

T = TypeVar("T", bound=type)

# A repr longer than this is cut, its last fields left out (``…``).
MAX_REPR = 200
# A tuple of more items than this is shown by its length in a repr.
SHOWN_ITEMS = 8


def notebook(cls: T) -> T:
    """Give *cls* the short ``repr``, ``_repr_html_`` and ``to_dict`` of every result record."""
    cls.__repr__ = short_repr  # type: ignore[assignment]
    cls._repr_html_ = html_table  # type: ignore[attr-defined]
    cls.to_dict = to_dict  # type: ignore[attr-defined]
    return cls


def _fields(value: object) -> list[tuple[str, object]]:
    """The fields of a record, in order (a named tuple's or a dataclass's)."""
    names = getattr(type(value), "_fields", None)
    if names is not None:
        return [(name, getattr(value, name)) for name in names]
    # a dataclass's fields, as `dataclasses.fields` gives them (the class attribute it reads)
    fields: Mapping[str, Any] = getattr(type(value), "__dataclass_fields__", {})
    return [(name, getattr(value, name)) for name, field in fields.items() if field.repr]


def _is_record(value: object) -> bool:
    """A named tuple or a dataclass instance (not a class)."""
    kind = type(value)
    return hasattr(kind, "_fields") or hasattr(kind, "__dataclass_fields__")


def _fraction(value: object) -> bool:
    """An exact ratio (a `fractions.Fraction`), told by what it has, not by importing it."""
    return hasattr(value, "limit_denominator") and hasattr(value, "denominator")


def _properties(value: object) -> list[tuple[str, object]]:
    """The public properties of a record's class and its bases, each with its value."""
    seen: dict[str, object] = {}
    for klass in type(value).__mro__:
        for name, member in vars(klass).items():
            if isinstance(member, property) and not name.startswith("_") and name not in seen:
                try:
                    seen[name] = getattr(value, name)
                except ValueError:  # the rules refuse to say (an error of the family)
                    continue
    return list(seen.items())


def _brief(value: object) -> str:
    """One field's value in a repr: scalars as Python writes them, the rest by kind and size."""
    if _is_record(value):
        return f"{type(value).__name__}(…)"
    if isinstance(value, (tuple, list, frozenset, set)):
        items = list(value)
        if len(items) <= SHOWN_ITEMS and all(_scalar(item) for item in items):
            inner = ", ".join(_brief(item) for item in items)
            return f"({inner}{',' if len(items) == 1 else ''})"
        return f"({len(items)} item{'' if len(items) == 1 else 's'})"
    if isinstance(value, Mapping):
        return f"{{{len(value)} keys}}"
    if isinstance(value, enum.Enum):
        return repr(value.value)
    if isinstance(value, str) and len(value) > 40:
        return repr(value[:37] + "...")
    if _fraction(value):
        return str(value)
    if _scalar(value):
        return repr(value)
    return f"{type(value).__name__}(…)"


def _scalar(value: object) -> bool:
    return (
        value is None or isinstance(value, (bool, int, float, str, enum.Enum)) or _fraction(value)
    )


def short_repr(self: object) -> str:
    """``Name(field=value, ...)`` in at most `MAX_REPR` characters."""
    name = type(self).__name__
    parts: list[str] = []
    length = len(name) + 2
    fields = _fields(self)
    for index, (field, value) in enumerate(fields):
        part = f"{field}={_brief(value)}"
        last = index == len(fields) - 1
        if length + len(part) + 2 > MAX_REPR - (0 if last else 3):
            parts.append("…")
            break
        parts.append(part)
        length += len(part) + 2
    return f"{name}({', '.join(parts)})"


def plain(value: object) -> Any:
    """*value* as plain data: dicts, lists, text, numbers, true/false and None."""
    if value is None or isinstance(value, (bool, int, str, float)):
        return value
    if _fraction(value):
        return float(value)  # type: ignore[arg-type]
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if _is_record(value):
        return {field: plain(item) for field, item in _fields(value)}
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (tuple, list, frozenset, set)):
        return [plain(item) for item in value]
    isoformat: Callable[[], str] | None = getattr(value, "isoformat", None)
    if callable(isoformat):  # a date or a time
        return isoformat()
    return str(value)


def to_dict(self: object) -> dict[str, Any]:
    """The record's fields as plain data (nested records as dicts, tuples as lists)."""
    return {field: plain(value) for field, value in _fields(self)}


def html_table(self: object) -> str:
    """The record as an HTML table: a row per field, then a row per public property."""
    import html  # only when a notebook draws the table: `html.entities` is large

    rows = [*_fields(self), *_properties(self)]
    body = "".join(
        f"<tr><th style='text-align:left'>{html.escape(name)}</th>"
        f"<td style='text-align:left'>{html.escape(_cell(value))}</td></tr>"
        for name, value in rows
    )
    caption = html.escape(type(self).__name__)
    return f"<table><caption>{caption}</caption><tbody>{body}</tbody></table>"


def _cell(value: object) -> str:
    """A value in one cell: a nested record by its own short repr, else as the repr shows it."""
    if _is_record(value):
        return repr(value)
    return _brief(value)
