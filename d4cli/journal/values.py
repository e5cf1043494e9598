"""One value of a change's JSON object read as the type it should hold: a hand-edited line, or a
key an older version did not write, reads as None or empty instead of failing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Facts = Mapping[str, Any]  # a change's JSON object, as read


def read_int(facts: Facts, key: str) -> int | None:
    """*facts*[*key*] when it is a whole number (not a bool), else None."""
    value = facts.get(key)
    return value if type(value) is int else None


def read_str(facts: Facts, key: str) -> str | None:
    """*facts*[*key*] when it is text, else None."""
    value = facts.get(key)
    return value if isinstance(value, str) else None


def read_objects(facts: Facts, key: str) -> list[Facts]:
    """The objects of the list *facts*[*key*] (anything else in it left out; no list: none)."""
    value = facts.get(key)
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def read_strs(facts: Facts, key: str) -> tuple[str, ...]:
    """The texts of the list *facts*[*key*]."""
    value = facts.get(key)
    return tuple(item for item in value if isinstance(item, str)) if isinstance(value, list) else ()


def read_ints(facts: Facts, key: str) -> tuple[int, ...]:
    """The whole numbers of the list *facts*[*key*]."""
    value = facts.get(key)
    return tuple(item for item in value if type(item) is int) if isinstance(value, list) else ()


def read_table(facts: Facts, key: str) -> dict[str, Any]:
    """A copy of the object *facts*[*key*] (none: empty)."""
    value = facts.get(key)
    return dict(value) if isinstance(value, dict) else {}


def read_object(facts: Facts, key: str) -> Facts | None:
    """The object *facts*[*key*], or None."""
    value = facts.get(key)
    return value if isinstance(value, dict) else None
