"""What the GM hides, in the file (schema 3): reveal, conceal, alias, add --hidden, schema 2 upgrade.

conftest's autouse fixture points D4CLI_FILE at a temp folder and chdirs there.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _cli import fails, files, ok, ok_json, run

from d4cli.fileformat.encounter_toml import bundled_examples

FILE = Path("encounter.toml")


def test_conceal_reveal_and_alias_are_journaled_changes_with_json():
    ok("init", "--from", "skirmish")
    concealed = ok_json("conceal", "Goblin Brute", "--note", "lurks behind the mill")
    assert concealed == {
        "kind": "conceal",
        "round": 0,
        "turn": None,
        "actor": "Goblin Brute",
        "hidden_before": False,
        "hidden_after": True,
        "alias_before": None,
        "alias_after": None,
    }
    aliased = ok_json("alias", "goblin archer", "Goblin 2")
    assert (aliased["actor"], aliased["alias_after"]) == ("Goblin Archer", "Goblin 2")
    status = {c["name"]: c for c in ok_json("status")["creatures"]}
    assert (status["Goblin Brute"]["hidden"], status["Goblin Archer"]["alias"]) == (
        True,
        "Goblin 2",
    )
    revealed = ok_json("reveal", "Goblin Brute")
    assert (revealed["hidden_before"], revealed["hidden_after"]) == (True, False)
    cleared = ok_json("alias", "Goblin Archer", "--clear")
    assert (cleared["alias_before"], cleared["alias_after"]) == ("Goblin 2", None)
    status = {c["name"]: c for c in ok_json("status")["creatures"]}
    assert (status["Goblin Brute"]["hidden"], status["Goblin Archer"]["alias"]) == (False, None)
    entries = ok_json("log")["entries"]
    assert [entry["kind"] for entry in entries] == ["init", "conceal", "alias", "reveal", "alias"]
    assert entries[1]["note"] == "lurks behind the mill"
    assert [entry["kind"] for entry in ok_json("log", "--kind", "conceal")["entries"]] == [
        "conceal"
    ]


def test_human_lines_say_what_the_players_now_see():
    ok("init", "--from", "skirmish")
    assert ok("conceal", "Goblin Brute").stdout == "Goblin Brute is hidden from the player view\n"
    assert (
        ok("alias", "Goblin Archer", "Goblin 2").stdout
        == "Goblin Archer is shown to the players as 'Goblin 2'\n"
    )
    assert ok("reveal", "Goblin Brute").stdout == "Goblin Brute is on the player view\n"
    assert (
        ok("alias", "Goblin Archer", "--clear").stdout
        == "Goblin Archer is shown to the players by its own name\n"
    )


def test_the_file_keeps_the_fields_and_undo_redo_give_the_bytes_back():
    ok("init", "--from", "skirmish")
    original = FILE.read_bytes()
    ok("conceal", "Goblin Brute")
    concealed = FILE.read_bytes()
    text = concealed.decode()
    assert "schema_version = 3" in text and "hidden = true" in text
    ok("alias", "Goblin Archer", "Goblin 2")
    assert 'alias = "Goblin 2"' in FILE.read_text()
    ok("undo")
    assert FILE.read_bytes() == concealed
    ok("undo")
    assert FILE.read_bytes() == original  # the template's bytes, comments and all
    ok("redo")
    assert FILE.read_bytes() == concealed


def test_a_change_that_changes_nothing_writes_nothing():
    ok("init", "--from", "skirmish")
    before = files(FILE)
    found = ok_json("reveal", "Aria")
    assert found["changed"] is False and found["hidden_after"] is False
    assert files(FILE) == before


def test_add_hidden_keeps_the_creature_off_the_player_view():
    ok("init")
    added = ok_json("add", "Shade", "--aspect", "Might=2", "--hp", "5", "--hidden")
    assert added["hidden"] is True
    assert "hidden = true" in FILE.read_text()
    assert ok_json("add", "Aria", "--aspect", "Finesse=3")["hidden"] is False


def test_alias_that_matches_another_name_or_alias_is_refused():
    ok("init", "--from", "skirmish")
    ok("alias", "Goblin Archer", "Goblin 2")
    line = fails(2, FILE, "alias", "Aria", "goblin  2")
    assert (
        line
        == "d4cli: error: TEXT: 'goblin  2': matches the alias of 'Goblin Archer' (N1): the players could not tell them apart"
    )
    line = fails(2, FILE, "alias", "Aria", "BORIN")
    assert "TEXT: 'BORIN': matches the name of 'Borin' (N1)" in line
    assert "TEXT" in fails(2, FILE, "alias", "Aria")
    assert "NAME: 'Nobody'" in fails(2, FILE, "conceal", "Nobody")
    assert "TEXT" in fails(2, FILE, "alias", "Aria", "   ")


def _schema3(
    tmp_path: Path, extra_top: str = "", extra_creature: str = "", effect: str = ""
) -> None:
    text = (
        f'schema_version = 3\nmode = "turn"\nround = 0\n{extra_top}\n'
        f'[[creature]]\nname = "Aria"\nload_buffer = 1\nexhaustion = 0\nload = -1\nhp = 5\n{extra_creature}\n'
        "[creature.aspects]\nFinesse = 3\n"
        f"{effect}"
        '\n[[creature]]\nname = "Borin"\nload_buffer = 1\nexhaustion = 0\nload = -1\n[creature.aspects]\nMight = 2\n'
    )
    (tmp_path / "encounter.toml").write_text(text)


def test_schema_3_fields_are_read_and_written_back(tmp_path: Path):
    _schema3(
        tmp_path,
        '[player_view]\nparty = "heroes"\nparty_hp = "label"\nothers_hp = "none"\n',
        'hidden = true\nalias = "The Shadow"\nhp_shown = "exact"\nevasion_shown = true\nnotes = "secret plan"\n',
        '[[creature.effects]]\nsource = "cursed"\ngrant = "disadvantage"\npublic = false\n',
    )
    from d4cli.store import read_encounter

    encounter = read_encounter(tmp_path / "encounter.toml")
    aria = encounter.creatures[0]
    assert (aria.hidden, aria.alias, aria.hp_shown, aria.evasion_shown) == (
        True,
        "The Shadow",
        "exact",
        True,
    )
    assert aria.effects[0].public is False
    assert (
        encounter.player_view.party,
        encounter.player_view.party_hp,
        encounter.player_view.others_hp,
    ) == ("heroes", "label", "none")
    ok("damage", "Aria", "1")
    again = read_encounter(tmp_path / "encounter.toml")
    assert again.creatures[0] == aria._replace(hp=4)
    assert again.player_view == encounter.player_view


@pytest.mark.parametrize(
    ("top", "creature", "effect", "expected"),
    [
        (
            "",
            'hp_shown = "fuzzy"\n',
            "",
            "creature 'Aria': hp_shown: 'fuzzy': must be one of: exact, label, none",
        ),
        ("", "hidden = 1\n", "", "creature 'Aria': hidden: 1: must be true or false"),
        (
            "",
            'alias = "borin"\n',
            "",
            "creature 'Aria': alias: 'borin': matches the name of 'Borin' (N1)",
        ),
        (
            "",
            'evasion_shown = "yes"\n',
            "",
            "creature 'Aria': evasion_shown: 'yes': must be true or false",
        ),
        (
            '[player_view]\nparty_hp = "all"\n',
            "",
            "",
            "player_view.party_hp: 'all': must be one of: exact, label, none",
        ),
        ('[player_view]\npary = "x"\n', "", "", "player_view.pary"),
        (
            "",
            "",
            '[[creature.effects]]\nsource = "x"\ngrant = "advantage"\npublic = "no"\n',
            "effects #1.public: 'no': must be true or false",
        ),
    ],
)
def test_bad_schema_3_values_name_the_field_and_the_value(
    tmp_path: Path, top: str, creature: str, effect: str, expected: str
):
    _schema3(tmp_path, top, creature, effect)
    line = fails(2, tmp_path / "encounter.toml", "status")
    assert expected in line
    fails(2, tmp_path / "encounter.toml", "conceal", "Aria")


def test_schema_2_files_do_not_take_schema_3_keys(tmp_path: Path):
    text = _schema_2_skirmish().replace('name = "Aria"', 'name = "Aria"\nhidden = true')
    (tmp_path / "encounter.toml").write_text(text)
    line = fails(2, tmp_path / "encounter.toml", "status")
    assert "creature 'Aria': hidden" in line


def _schema_2_skirmish() -> str:
    # The bundled templates are schema 3; the same skirmish declared as schema 2 (a subset).
    text = bundled_examples()["skirmish"].read_text()
    assert "schema_version = 3" in text
    return text.replace("schema_version = 3", "schema_version = 2", 1)


def test_status_json_still_reads_a_schema_2_file_unchanged():
    FILE.write_text(_schema_2_skirmish(), encoding="utf-8")
    before = files(FILE)
    assert run("status", "--json").exit_code == 0
    assert files(FILE) == before


def test_effect_add_gm_only_writes_public_false_and_undo_takes_it_back():
    ok("init", "--from", "skirmish")
    added = ok_json("effect", "add", "Aria", "cursed", "--dis", "--gm-only")
    assert added["effect"]["public"] is False
    assert "public = false" in FILE.read_text()
    listed = ok_json("effect", "list")["effects"]
    assert [(row["source"], row.get("public")) for row in listed] == [("cursed", False)]
    plain = ok_json("effect", "add", "Borin", "blessed", "--adv")
    assert "public" not in plain["effect"]
    ok("undo")
    ok("undo")
    assert FILE.read_bytes() == bundled_examples()["skirmish"].read_bytes()


def test_help_player_view_explains_what_the_players_see():
    text = ok("help", "player-view").stdout
    assert (
        "keep the last visible state" in text
        and "who goes next" in text
        and "Bloodied" in text
        and "--gm-only" in text
        and "R2" in text
    )
