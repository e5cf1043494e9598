"""Names: matching creatures, Aspects and Advantage sources (N1, R4), and checking user text."""

from __future__ import annotations

import unicodedata

from d4cli.errors import InputError


def fold_name(name: str) -> str:
    """Return the key under which *name* matches other names (N1, R4).

    Unicode NFC normalisation, case folding, surrounding white space dropped and
    inner runs of white space folded to one space: ``"Watch  My Back "`` and
    ``"watch my back"`` give the same key. There is no prefix matching.
    """
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def check_text(value: str, field: str, *, name: bool = False) -> str:
    """Return *value*, text typed by the user, once it is known to be writable (N1).

    A byte that is not UTF-8 in argv (``$'Bad\\x9bName'``) reaches Python as a
    lone surrogate (``'Bad\\udc9bName'``), which can be neither stored in the
    encounter file nor printed faithfully: it is refused here, where the text
    enters, rather than failing on the way out.

    Args:
        value: the text as given.
        field: the option or argument, for the message (``--aspect``, ``NAME``).
        name: the text names something (a creature, an Aspect, a source) and
            so must have more than white space (N1).

    Raises:
        InputError: not valid UTF-8 text; or, with *name*, empty or blank.
    """
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(field, value, "is not valid UTF-8 text (is the terminal set to UTF-8?)") from None
    if name and not fold_name(value):
        raise InputError(field, value, "a name cannot be empty")
    return value


def distinct_sources(
    names: tuple[str, ...] | list[str], field: str = "source"
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Split source names into those counted and those folded as repeats (R4).

    Args:
        names: the source names as given, in order.
        field: the option they came from (``--adv``, ``--dis``), for messages.

    Returns:
        ``(counted, repeats)``: the first spelling of each distinct source, in
        order of first appearance, and every later name that matched one of them.

    Raises:
        InputError: a blank name, or one that is not valid UTF-8 text (`check_text`).
    """
    seen: set[str] = set()
    counted: list[str] = []
    repeats: list[str] = []
    for name in names:
        key = fold_name(check_text(name, field, name=True))
        if key in seen:
            repeats.append(name)
        else:
            seen.add(key)
            counted.append(name)
    return tuple(counted), tuple(repeats)
