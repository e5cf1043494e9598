"""What a front end checks its input with and says of it: the library's own rules for whole
numbers and their ranges (L3), names and free text (N1), DCs, dice expressions and faces, the
nearest known word, and how an error shows a value.

The shell (`d4cli.cli`) and the web app (`d4cli.web`) reach the core only through `d4cli.api`;
these are the rules' parsers and limits they take a value apart with before they call it, the
same functions the library checks its own arguments with (one rule, one function).
"""

from d4cli.rules.dc import DC_TIERS, parse_dc
from d4cli.rules.dice import parse_expression, parse_extra, parse_extras, parse_faces
from d4cli.rules.errors import SHOWN_HEAD, InternalError, escape_control, shorten
from d4cli.rules.limits import (
    ADVANTAGE_LEVEL,
    ASPECT,
    BUFFER,
    COST,
    DC,
    DISADVANTAGE_COUNT,
    EVASION,
    EXHAUSTION,
    HP,
    LAST,
    LOAD,
    MAX_COUNT,
    MAX_DICE,
    MAX_NOTES,
    MODIFIER,
    ROUND,
    SEED,
    TIMES,
    check_rolled_dice,
    parse_whole,
)
from d4cli.rules.names import check_text, fold_name, name_length, parse_named_number
from d4cli.rules.suggest import closest, did_you_mean

__all__ = [
    # whole numbers and their ranges (L3)
    "parse_whole",
    "check_rolled_dice",
    "ADVANTAGE_LEVEL",
    "ASPECT",
    "BUFFER",
    "COST",
    "DC",
    "DISADVANTAGE_COUNT",
    "EVASION",
    "EXHAUSTION",
    "HP",
    "LAST",
    "LOAD",
    "MAX_COUNT",
    "MAX_DICE",
    "MAX_NOTES",
    "MODIFIER",
    "ROUND",
    "SEED",
    "TIMES",
    # DCs and dice
    "DC_TIERS",
    "parse_dc",
    "parse_expression",
    "parse_extra",
    "parse_extras",
    "parse_faces",
    # names and free text (N1)
    "check_text",
    "fold_name",
    "name_length",
    "parse_named_number",
    # the nearest known word
    "closest",
    "did_you_mean",
    # how an error shows a value
    "InternalError",
    "SHOWN_HEAD",
    "escape_control",
    "shorten",
]
