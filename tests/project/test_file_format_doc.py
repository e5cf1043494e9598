"""docs/file-format.md states the encounter file as d4cli reads it.

Its schema example is a valid encounter file (and reads back the same once d4cli
writes it); every key the reader knows, at the top, in a creature, an effect, an
action, a policy and ``[player_view]``, is named on the page; the journal's kinds
are the ones ``log --kind`` takes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from d4cli.fight.closed_sets import LOG_KINDS
from d4cli.fight.policy_table import POLICY_KEYS
from d4cli.fight.sheets import ACTION_KEYS
from d4cli.fileformat.creature_toml import CREATURE_KEYS, PENDING_KEYS
from d4cli.fileformat.effects_toml import EFFECT_KEYS
from d4cli.fileformat.encounter_toml import TOP_KEYS, dump_encounter, parse_encounter
from d4cli.fileformat.player_view_toml import PLAYER_VIEW_KEYS
from d4cli.fileformat.schema1 import OLD_TOP_KEYS

PAGE = Path(__file__).resolve().parents[2] / "docs" / "file-format.md"
TEXT = PAGE.read_text(encoding="utf-8")


def schema_example() -> str:
    (block,) = re.findall(r"^```toml\n(.*?)^```", TEXT, re.S | re.M)
    return block


def test_the_schema_example_is_a_valid_encounter_file():
    encounter = parse_encounter(schema_example(), PAGE)
    (creature,) = encounter.creatures
    assert creature.name == "Aria"
    assert creature.effects and creature.actions and creature.policy
    assert creature.attributes and creature.proficiencies and creature.specializations
    assert encounter.player_view is not None
    assert parse_encounter(dump_encounter(encounter), PAGE) == encounter


KEYS = sorted(
    {
        *TOP_KEYS,
        *OLD_TOP_KEYS,
        *CREATURE_KEYS,
        *PENDING_KEYS,
        *EFFECT_KEYS,
        *ACTION_KEYS,
        *POLICY_KEYS,
        *PLAYER_VIEW_KEYS,
    }
)


def _named(key: str, text: str = TEXT) -> bool:
    # In backticks in the text, or as a key of the schema example (a line of its own,
    # perhaps commented out, perhaps a table header).
    named = rf"`{re.escape(key)}\b|^(# )?\[*(creature\.)?{re.escape(key)}\b"
    return re.search(named, text, re.M) is not None


@pytest.mark.parametrize("key", KEYS)
def test_the_page_names_every_key_the_reader_knows(key):
    assert _named(key), key


def test_the_key_check_would_catch_a_missing_key():
    assert not _named("teleport")
    assert _named("uses", "# uses = 1\n")
    assert _named("aspects", "[creature.aspects]\n")
    assert not _named("uses", "the uses of it\n")


def test_the_page_lists_the_journal_kinds():
    listed = re.search(r"`kind`, one of (.*?);", TEXT, re.S)
    assert listed, "docs/file-format.md lists no journal kinds"
    assert re.findall(r"`([a-z-]+)`", listed[1]) == list(LOG_KINDS)
