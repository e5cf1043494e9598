"""The JSON body of a seat's ``/preview`` and ``/act`` as a `d4cli.api.SeatAction`.

The body is one object::

    {"aspect": "Finesse", "cost": 1, "advantage": ["torch"], "disadvantage": [],
     "extra": ["1d4"], "target": "Goblin 2", "faces": null, "creature": "Aria"}

``aspect`` (an Aspect or named action) is the one key it must have; ``cost`` a whole
number or null (1, or the named action's); ``advantage``, ``disadvantage`` and ``extra``
lists of text; ``target`` the name the players see, or null or "" for none; ``faces`` null
("roll") or the entered faces, whole numbers; ``creature`` the creature the page thinks it
acts for, or null. Any other key, or a value of another type, is refused naming the key.
The values themselves are checked by the library (`d4cli.api.SeatDesk.submit`).
"""

from __future__ import annotations

from typing import Any

from d4cli.api import InputError, SeatAction

KEYS = ("aspect", "cost", "advantage", "disadvantage", "extra", "target", "faces", "creature")
# More than any hand builds; the body's size (4 KiB) bounds the rest.
MAX_ITEMS = 40
MAX_FACES = 500


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _texts(body: dict[str, Any], key: str) -> tuple[str, ...]:
    value = body.get(key, [])
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InputError(key, None, "must be a list of text")
    if len(value) > MAX_ITEMS:
        raise InputError(key, len(value), f"at most {MAX_ITEMS} items")
    return tuple(item for item in value if item.strip())


def _text(body: dict[str, Any], key: str) -> str | None:
    value = body.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        raise InputError(key, None, "must be text or null")
    return value


def seat_action(body: Any) -> SeatAction:
    """The `SeatAction` of a request's parsed JSON *body*.

    Raises:
        InputError: naming the key: not an object (``body``), an unknown key, ``aspect``
            missing or not text, a value of another type than the module lists.
    """
    if not isinstance(body, dict):
        raise InputError("body", None, "must be a JSON object")
    unknown = sorted(key for key in body if key not in KEYS)
    if unknown:
        raise InputError(unknown[0][:40], None, "is not a key of an action: " + ", ".join(KEYS))
    aspect = body.get("aspect")
    if not isinstance(aspect, str) or not aspect.strip():
        raise InputError("aspect", None, "give an Aspect or named action")
    cost = body.get("cost")
    if cost is not None and not _whole(cost):
        raise InputError("cost", None, "must be a whole number or null")
    faces = body.get("faces")
    if faces is not None:
        if not isinstance(faces, list) or not all(_whole(face) for face in faces):
            raise InputError("faces", None, "must be null (roll) or a list of whole numbers")
        if len(faces) > MAX_FACES:
            raise InputError("faces", len(faces), f"at most {MAX_FACES} faces")
    return SeatAction(
        aspect=aspect,
        cost=cost,
        advantage=_texts(body, "advantage"),
        disadvantage=_texts(body, "disadvantage"),
        extra=_texts(body, "extra"),
        target=_text(body, "target"),
        faces=None if faces is None else tuple(faces),
        creature=_text(body, "creature"),
    )
