"""``add NAME --count N`` and ``--like OTHER``: four goblins in one command, one undo (R13, R18, N1)."""

from __future__ import annotations

from _cli import fails, ok, ok_json


def _setup(tmp_path):
    ok("init")
    return tmp_path / "encounter.toml"


def test_count_like_adds_four_copies_of_a_bundled_stat_block(tmp_path):
    _setup(tmp_path)
    obj = ok_json("add", "Goblin", "--count", "4", "--like", "goblin archer")
    assert obj["names"] == ["Goblin 1", "Goblin 2", "Goblin 3", "Goblin 4"]
    assert obj["like"] == "Goblin Archer" and obj["actor"] == "Goblin 1"
    status = ok_json("status")["creatures"]
    assert [c["name"] for c in status] == obj["names"]
    from d4cli.api.add_sheets import template_creature
    from d4cli.fight.encounter_state import Encounter

    archer = template_creature(
        Encounter(), "Goblin Archer"
    )  # the first bundled example that has one
    first = status[0]
    assert first["aspects"] == dict(archer.aspects)
    assert (first["evasion"], first["hp"], first["max_hp"], first["side"]) == (
        archer.evasion,
        archer.max_hp,
        archer.max_hp,
        archer.side,
    )
    assert [a["name"] for a in first["actions"]] == [a.name for a in archer.actions] != []
    assert first["load"] == archer.reset_value and first["effects"] == []
    ok("undo")
    assert ok_json("status")["creatures"] == []


def test_numbering_skips_names_in_use(tmp_path):
    _setup(tmp_path)
    ok("add", "goblin 2", "--aspect", "Might=1")
    obj = ok_json("add", "Goblin", "--count", "3", "--aspect", "Might=2")
    assert obj["names"] == ["Goblin 1", "Goblin 3", "Goblin 4"]
    line = ok("add", "Goblin", "--count", "2", "--aspect", "Might=2").stdout
    assert line.startswith("added Goblin 5, Goblin 6: Might 2;")


def test_like_copies_an_encounter_creature_unhurt_with_options_on_top(tmp_path):
    _setup(tmp_path)
    ok(
        "add",
        "Borin",
        "--aspect",
        "Might=3",
        "--aspect",
        "Wits=1",
        "--hp",
        "12",
        "--evasion",
        "11",
        "--side",
        "party",
        "--attribute",
        "Strength=3",
    )
    ok("action", "add", "Borin", "axe", "--aspect", "Might", "--extra", "1d8")
    ok("damage", "Borin", "5")
    ok("effect", "add", "Borin", "shaken", "--dis")
    obj = ok_json(
        "add",
        "Bram",
        "--like",
        "borin",
        "--aspect",
        "might=4",
        "--aspect",
        "Luck=2",
        "--evasion",
        "9",
    )
    assert obj["aspects"] == {"Might": 4, "Wits": 1, "Luck": 2}
    assert (obj["hp_after"], obj["max_hp"], obj["evasion"], obj["side"]) == (12, 12, 9, "party")
    assert obj["attributes"] == {"Strength": 3} and obj["like"] == "Borin"
    bram = ok_json("status", "Bram")
    assert "shaken" not in str(bram) and [a["name"] for a in bram["actions"]] == ["axe"]
    assert ok_json("add", "Cob", "--like", "Borin", "--hp", "3")["max_hp"] == 3


def test_bad_counts_and_templates_change_nothing(tmp_path):
    path = _setup(tmp_path)
    ok("add", "Aria", "--aspect", "Might=3")
    for count in ("0", "101", "-1", "two", "3.0"):
        line = fails(2, path, "add", "Goblin", "--count", count, "--aspect", "A=1")
        assert line.startswith("d4cli: error: --count: ") and count in line
    line = fails(2, path, "add", "Goblin", "--count", "2", "--like", "Goblin Archr")
    assert (
        "--like: 'Goblin Archr': no such creature in the encounter or the bundled examples" in line
    )
    assert "did you mean 'Goblin Archer'" in line
    long_name = "x" * 199
    assert "(N1)" in fails(2, path, "add", long_name, "--count", "2", "--aspect", "A=1")
    assert "already has 'Aria'" in fails(2, path, "add", "aria", "--like", "Aria")
    assert "needs at least one Aspect" in fails(2, path, "add", "Nobody")


def test_copy_sheet_is_a_fresh_creature_with_the_options_on_top():
    from d4cli.fight.encounter_state import Action, Creature
    from d4cli.fight.sheets import copy_sheet

    template = Creature(
        "Borin",
        (("Might", 3), ("Wits", 1)),
        load_buffer=2,
        load=4,
        evasion=11,
        hp=5,
        max_hp=16,
        side="party",
        attributes=(("Strength", 3),),
        actions=(Action("axe", "Might"),),
        had_turn=True,
        notes="grumpy",
    )
    copy = copy_sheet(template, "Bram")
    assert (copy.name, copy.aspects, copy.load, copy.hp, copy.max_hp) == (
        "Bram",
        template.aspects,
        -2,
        16,
        16,
    )
    assert (copy.side, copy.attributes, copy.actions, copy.had_turn, copy.notes) == (
        "party",
        (("Strength", 3),),
        template.actions,
        False,
        "",
    )
    tweaked = copy_sheet(template, "Cob", aspects=(("might", 5), ("Luck", 2)), hp=4, evasion=9)
    assert tweaked.aspects == (("Might", 5), ("Wits", 1), ("Luck", 2))
    assert (tweaked.hp, tweaked.max_hp, tweaked.evasion, tweaked.load_buffer) == (4, 4, 9, 2)
