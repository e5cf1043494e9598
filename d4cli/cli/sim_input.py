"""What the simulator's commands play and with which dice: the encounter (FILE, ``--file`` or
``--from EXAMPLE``) and the seed (``--seed``, else ``D4CLI_SEED``, else the OS)."""

from __future__ import annotations

import os
from pathlib import Path

from d4cli.api import InputError
from d4cli.api.encounter import Encounter
from d4cli.api.inputs import SEED, parse_whole
from d4cli.api.reader import Reader
from d4cli.api.templates import template_path
from d4cli.cli.settings import resolve_path


def one_file(argument: str | None, option: str | None) -> str | None:
    """The encounter file, named as every encounter command names it (``--file/-f``) or as FILE.

    Raises:
        InputError: naming ``--file``: given both ways.
    """
    if argument is not None and option is not None:
        raise InputError("--file", option, "give the file once: as FILE or as --file")
    return option if argument is None else argument


def played_path(file: str | None, from_: str | None) -> Path:
    """The encounter file of *file* (else the usual one), or of ``--from`` (a bundled example or a path).

    Raises:
        InputError: naming ``--from``: given with a file, or an unknown example.
    """
    if from_ is not None:
        if file is not None:
            raise InputError("--from", from_, "give the file (FILE or --file) or --from, not both")
        return template_path(from_)
    return resolve_path(file)


def played_encounter(file: str | None, from_: str | None) -> Encounter:
    """The encounter of `played_path`, read.

    Raises:
        InputError: as `played_path`; a file that cannot be read.
    """
    return Reader(played_path(file, from_)).status()


def seed_of(text: str | None) -> int:
    """``--seed`` as given, else ``D4CLI_SEED``, else a random seed.

    Raises:
        InputError: naming ``--seed`` or ``D4CLI_SEED``: not a whole number in 0..2**63-1.
    """
    if text is not None:
        return parse_whole(text, "--seed", SEED)
    env = os.environ.get("D4CLI_SEED")
    return parse_whole(env, "D4CLI_SEED", SEED) if env else int.from_bytes(os.urandom(4), "big")
