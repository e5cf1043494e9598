"""The encounter a ``--from`` option names: a bundled example by name, else a file.

Shared by ``init --from``, ``simulate --from`` and ``handbook --from``.
"""

from __future__ import annotations

from pathlib import Path

from d4cli.rules.errors import InputError
from d4cli.rules.names import check_text


def template_path(value: str) -> Path:
    """The file of a bundled example by name (``skirmish``, ``duel.toml``; N1 folding), else ``Path(value)``.

    Raises:
        InputError: naming ``--from``: not UTF-8 text, no such example or file,
            or a path the system refuses to look at (a name too long, ...).
    """
    from d4cli.fileformat.encounter_toml import bundled_examples
    from d4cli.rules.names import fold_name

    check_text(value, "--from")
    examples = bundled_examples()
    for example, path in examples.items():
        if fold_name(example) == fold_name(value) or fold_name(example + ".toml") == fold_name(
            value
        ):
            return path
    candidate = Path(value)
    try:
        if candidate.exists():
            return candidate
    except OSError as error:
        raise InputError(
            "--from", value, f"cannot look for this file: {error.strerror or error}"
        ) from None
    raise InputError("--from", value, "no such example (" + ", ".join(examples) + ") or file")
