"""The text every change writes (`encode_checked`): tomli-w's text of the whole document, byte for
byte, validated as a read validates it, while a creature this process validated already (the
store's memory, `d4cli.store.remembered`) is neither validated nor dumped again (1,000 adds in
one play session were quadratic)."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomli_w

from d4cli.fight.encounter_state import Encounter, new_creature
from d4cli.fight.turns import add_creature, end_turn, remove_creature, set_exhaustion, start_turn
from d4cli.fight.view_settings import PlayerView
from d4cli.fight.visibility import conceal, set_alias
from d4cli.fileformat import creature_toml, encounter_toml
from d4cli.fileformat.encounter_toml import HEADER, bundled_examples, encounter_document
from d4cli.rules.errors import FileError
from d4cli.store import remembered
from d4cli.store.transaction import encode_checked


def checked_text(encounter: Encounter, path: object) -> str:
    """The text a change writes for *encounter* (remembered as what a read of it gives)."""
    return encode_checked(encounter, Path(str(path))).decode("utf-8")


def parse_encounter(text: str, path: object) -> Encounter:
    """A read through the store's memory."""
    return remembered.parse(text, path)


def whole(encounter: Encounter) -> str:
    """What every change wrote before: the whole document through tomli-w."""
    return HEADER + tomli_w.dumps(encounter_document(encounter))


@pytest.mark.parametrize("example", sorted(bundled_examples()))
def test_the_text_is_tomli_ws_whole_document_through_a_run_of_changes(example):
    path = bundled_examples()[example]
    encounter = parse_encounter(path.read_text(), path)
    steps = [
        lambda e: start_turn(e),
        lambda e: add_creature(e, new_creature("Newcomer", (("Might", 2),), hp=5)),
        lambda e: set_exhaustion(e, e.creatures[0].name, 2),
        lambda e: end_turn(e),
        lambda e: add_creature(
            e, new_creature("Second", (("Wits", 1),)), before=e.creatures[0].name
        ),
        lambda e: remove_creature(e, "Newcomer"),
        lambda e: start_turn(e),
        lambda e: conceal(e, e.creatures[-1].name),
        lambda e: set_alias(e, e.creatures[0].name, "The Stranger"),
        lambda e: (e._replace(player_view=PlayerView(party="party")), None),
        lambda e: end_turn(e),
    ]
    assert checked_text(encounter, path) == whole(encounter)
    for step in steps:
        encounter, _ = step(encounter)
        text = checked_text(encounter, path)
        assert text == whole(encounter)
        kept = parse_encounter(text, "fresh")  # remembered: what a read of the text gives
        remembered.remember("", Encounter())  # forgotten: the whole way gives the same
        assert parse_encounter(text, "fresh") == kept and checked_text(encounter, path) == text
        encounter = kept


def test_one_new_creature_is_the_one_validated_and_dumped(monkeypatch):
    encounter = Encounter(
        creatures=tuple(new_creature(f"C{n}", (("Might", 1),)) for n in range(50))
    )
    encounter = parse_encounter(
        checked_text(encounter, "e.toml"), "e.toml"
    )  # read back, as a change does
    validated, dumped = [], []
    real_row, real_dumps = creature_toml.creature_from_row, tomli_w.dumps
    monkeypatch.setattr(
        encounter_toml,
        "creature_from_row",
        lambda *a, **k: validated.append(1) or real_row(*a, **k),
    )
    monkeypatch.setattr(tomli_w, "dumps", lambda *a, **k: dumped.append(1) or real_dumps(*a, **k))
    bigger, _ = add_creature(encounter, new_creature("C50", (("Might", 1),)))
    text = checked_text(bigger, "e.toml")
    assert len(validated) == 1 and len(dumped) == 2  # the new row; the top keys and that row
    assert text == whole(bigger)


def test_checks_across_creatures_still_see_remembered_ones():
    encounter = Encounter(creatures=(new_creature("Ilsa", (("Might", 1),)),))
    encounter = parse_encounter(checked_text(encounter, "e.toml"), "e.toml")
    aria = encounter.creatures[0]
    assert remembered.row_of(aria)[0]  # validated: passed through as it is
    with pytest.raises(FileError, match="the same name as 'Ilsa'"):
        checked_text(encounter._replace(creatures=(aria, aria)), "e.toml")
    with pytest.raises(FileError, match="looks like 'Ilsa'"):
        checked_text(
            encounter._replace(creatures=(aria, new_creature("llsa", (("Might", 1),)))), "e.toml"
        )
    with pytest.raises(FileError, match="current.*names no creature"):
        checked_text(encounter._replace(round=1, current="Borin"), "e.toml")
    with pytest.raises(FileError, match="aspects.Might"):
        checked_text(
            encounter._replace(
                creatures=(aria, aria._replace(name="Bo", aspects=(("Might", 10**9),)))
            ),
            "e.toml",
        )
