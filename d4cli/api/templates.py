"""New encounters: from nothing, or from a template (a bundled example by name, else a file).

`template_path` is shared by ``init --from``, ``simulate --from`` and ``handbook --from``;
`new_encounter` is what ``init`` writes (R12).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from d4cli.fight.encounter_state import MODES, ROUND_RESETS, Encounter
from d4cli.fileformat.encounter_toml import bundled_examples, dump_encounter, parse_encounter
from d4cli.journal.entry import init_json
from d4cli.rules.errors import InputError
from d4cli.rules.names import check_text, fold_name
from d4cli.rules.suggest import did_you_mean
from d4cli.store.bestiary_folder import find_template, template_files
from d4cli.store.files import read_text


def template_path(value: str, bestiary: Path | None = None) -> Path:
    """The template *value* names: a template of the GM's *bestiary* folder by name
    (`d4cli.store.bestiary_folder`), else a bundled example by name (``skirmish``, ``duel.toml``; N1
    folding), else the file ``Path(value)``.

    Raises:
        InputError: naming ``template`` (the keyword of `Tracker.init`): not UTF-8 text, no
            such example or file, or a path the system refuses to look at (a name too long, ...).
    """
    check_text(value, "template")
    found = None if bestiary is None else find_template(bestiary, value)
    if found is not None:
        return found
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
            "template", value, f"cannot look for this file: {error.strerror or error}"
        ) from None
    own = [] if bestiary is None else [path.stem for path in template_files(bestiary)]
    known = [*own, *examples]
    problem = "no such example (" + ", ".join(examples) + ") or file"
    if bestiary is not None:
        problem = (
            f"no such template in the bestiary ({bestiary}), example ("
            + ", ".join(examples)
            + ") or file"
        )
    raise InputError("template", value, problem + did_you_mean(value, known))


class NewEncounter(NamedTuple):
    """An encounter about to be written: its state, its file text, the ``init`` entry's facts,
    and whether a template's hand-written comments were kept (unless a setting changed it)."""

    encounter: Encounter
    text: str
    details: dict[str, Any]
    kept_comments: bool


def new_encounter(
    path: Path,
    *,
    name: str | None = None,
    mode: str | None = None,
    round_reset: str | None = None,
    template: str | None = None,
    bestiary: Path | None = None,
) -> NewEncounter:
    """The encounter ``init`` writes at *path*: empty (named *name*, else after the file), or
    from *template* (`template_path`), in *mode* ``turn``/``round`` with *round_reset*
    ``buffer``/``zero`` (round mode only, R12); a template name is looked up in the GM's
    *bestiary* folder first.

    Raises:
        InputError: an unknown mode or round reset, a round reset outside round mode (R12),
            an unknown template.
        FileError: the template cannot be read or is not a valid encounter.
    """
    if mode is not None and mode not in MODES:
        raise InputError("mode", mode, "must be 'turn' or 'round' (R12)")
    if round_reset is not None and round_reset not in ROUND_RESETS:
        raise InputError("round_reset", round_reset, "must be 'buffer' or 'zero' (R12)")
    if name is not None:
        check_text(name, "name")
    if template is None:
        encounter = Encounter(
            name=path.stem if name is None else name,
            mode=mode or "turn",
            round_reset=round_reset or "buffer",
        )
        _check_round_reset(encounter, round_reset)
        return NewEncounter(encounter, dump_encounter(encounter), init_json(encounter, None), True)
    source = template_path(template, bestiary)
    text = read_text(source)
    original = parse_encounter(text, source)
    encounter = original._replace(
        mode=mode or original.mode,
        name=original.name if name is None else name,
        round_reset=round_reset or original.round_reset,
    )
    _check_round_reset(encounter, round_reset)
    kept = encounter == original
    text = text if kept else dump_encounter(encounter)
    return NewEncounter(encounter, text, init_json(encounter, template), kept)


def _check_round_reset(encounter: Encounter, round_reset: str | None) -> None:
    if round_reset is not None and encounter.mode != "round":
        raise InputError(
            "round_reset",
            round_reset,
            "applies only in round mode (R12): add {mode} round",
            mentions=("mode",),
        )
