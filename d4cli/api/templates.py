"""New encounters: from nothing, or from a template (a bundled example by name, else a file).

`template_path` is shared by ``init --from``, ``simulate --from`` and ``handbook --from``;
`new_encounter` is what ``init`` writes (R12).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from d4cli.fight.encounter import Encounter
from d4cli.fileformat.encounter_toml import bundled_examples, dump_encounter, parse_encounter
from d4cli.rules.errors import InputError
from d4cli.rules.names import check_text, fold_name
from d4cli.store.files import read_text


def template_path(value: str) -> Path:
    """The file of a bundled example by name (``skirmish``, ``duel.toml``; N1 folding), else ``Path(value)``.

    Raises:
        InputError: naming ``--from``: not UTF-8 text, no such example or file,
            or a path the system refuses to look at (a name too long, ...).
    """
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


class NewEncounter(NamedTuple):
    """An encounter about to be written: its state, its file text, whether a template's
    hand-written comments were kept (they are unless a setting changed the template)."""

    encounter: Encounter
    text: str
    kept_comments: bool


def new_encounter(
    name: str | None,
    *,
    mode: str | None = None,
    round_reset: str | None = None,
    template: Path | None = None,
) -> NewEncounter:
    """A new encounter called *name* (None keeps the template's), in *mode* (``turn``/``round``,
    R12) with *round_reset* (``buffer``/``zero``, round mode only), empty or from *template*.

    Raises:
        InputError: *round_reset* outside round mode (R12).
        FileError: the template cannot be read or is not a valid encounter.
    """
    if template is None:
        encounter = Encounter(
            name=name or "", mode=mode or "turn", round_reset=round_reset or "buffer"
        )
        _check_round_reset(encounter, round_reset)
        return NewEncounter(encounter, dump_encounter(encounter), True)
    text = read_text(template)
    encounter = parse_encounter(text, template)
    changed = encounter._replace(
        mode=mode or encounter.mode,
        name=encounter.name if name is None else name,
        round_reset=round_reset or encounter.round_reset,
    )
    _check_round_reset(changed, round_reset)
    if changed != encounter:
        return NewEncounter(changed, dump_encounter(changed), False)
    return NewEncounter(encounter, text, True)


def _check_round_reset(encounter: Encounter, round_reset: str | None) -> None:
    if round_reset is not None and encounter.mode != "round":
        raise InputError(
            "--round-reset", round_reset, "applies only in round mode (R12): add --mode round"
        )
