"""Names a person can see (N1), keys that look like numbers, whole numbers everywhere (L3),
and a file layout that hand edits can rely on (the encounter file, schema 1)."""

from __future__ import annotations

import difflib
import json
import unicodedata

import pytest
from _cli import ok, run

from d4cli.fight.effects import Pending, team_grant_effects
from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fileformat.encounter_toml import dropped_comments, dump_encounter, parse_encounter
from d4cli.rules.errors import FileError, InputError, escape_control
from d4cli.rules.names import check_name, name_problem

# One character of every kind a name may not hold: each category that is a control or
# invisible, and the characters that draw nothing though classed otherwise.
INVISIBLE = {
    "Cc tab": "\t",
    "Cc newline": "\n",
    "Cc escape": "\x1b",
    "Cc DEL": "\x7f",
    "Cc C1 CSI": "\x9b",
    "Cf zero-width space": "\u200b",
    "Cf zero-width joiner": "\u200d",
    "Cf LRM": "\u200e",
    "Cf RLM": "\u200f",
    "Cf bidi override": "\u202e",
    "Cf word joiner": "\u2060",
    "Cf BOM": "\ufeff",
    "Cf soft hyphen": "\u00ad",
    "Cf tag": "\U000e0041",
    "Cn unassigned": "\U000e0080",
    "Zl line separator": "\u2028",
    "Zp paragraph separator": "\u2029",
    "Lo Hangul filler": "\u3164",
    "Lo Hangul choseong filler": "\u115f",
    "Lo halfwidth Hangul filler": "\uffa0",
    "So Braille blank": "\u2800",
    "Mn combining grapheme joiner": "\u034f",
    "Mn variation selector": "\ufe0f",
}


def test_every_kind_of_invisible_character_is_covered():
    categories = {unicodedata.category(char) for char in INVISIBLE.values()}
    assert {"Cc", "Cf", "Cn", "Zl", "Zp", "Lo", "So", "Mn"} <= categories


@pytest.mark.parametrize("kind", sorted(INVISIBLE))
@pytest.mark.parametrize("shape", ["alone", "after", "inside"])
def test_a_name_with_an_invisible_or_control_character_is_refused(kind, shape):
    char = INVISIBLE[kind]
    name = {"alone": char, "after": "Aria" + char, "inside": "A" + char + "ria"}[shape]
    assert name_problem(name) is not None
    with pytest.raises(InputError) as caught:
        check_name(name, "NAME")
    shown = str(caught.value)
    assert char not in shown and f"U+{ord(char):04X}" in shown and "NAME" in shown


@pytest.mark.parametrize(
    "name",
    [
        "Aria",
        "Zoë",
        "Goblin Archer",
        "Watch  my back",
        "1_2",
        "0x10",
        "inf",
        "true",
        "李",
        "Æsir",
        "e\u0301",
        "🐉",
        "Café\u00a0Noir",
    ],
)
def test_visible_names_are_legal(name):
    assert name_problem(name) is None and check_name(name, "NAME") == name


@pytest.mark.parametrize("name", ["", " ", "   ", "\u0301", "\u3000"])
def test_a_name_needs_a_visible_character(name):
    assert "cannot be empty" in name_problem(name)


def test_lrm_and_rlm_are_shown_escaped():
    assert escape_control("a\u200eb\u200fc") == "a\\u200eb\\u200fc"


@pytest.mark.parametrize(
    "kind",
    [
        "Cf zero-width space",
        "Cc tab",
        "Cc newline",
        "Lo Hangul filler",
        "So Braille blank",
        "Cf RLM",
    ],
)
def test_the_command_line_refuses_invisible_names_everywhere(tmp_path, kind):
    path = tmp_path / "encounter.toml"
    ok("init", file=path)
    ok("add", "Aria", "--aspect", "Might=3", file=path)
    ok("add", "Borin", "--aspect", "Might=3", file=path)
    before = path.read_bytes()
    bad = "A" + INVISIBLE[kind] + "ria"
    for argv in (
        ["add", bad, "--aspect", "Might=1"],
        ["add", INVISIBLE[kind], "--aspect", "Might=1"],
        ["add", "Cara", "--aspect", f"M{INVISIBLE[kind]}x=1"],
        ["team", "Aria", "Borin", "--adv", "--source", bad],
        ["act", "Aria", "Might", "--adv", bad, "--dc", "3"],
        ["roll", "pool", "3", "--adv", bad],
    ):
        out = run(*argv, file=None if argv[0] == "roll" else path)
        assert (
            out.exit_code == 2
            and "(N1)" in out.stderr
            and INVISIBLE[kind] not in out.stderr.rstrip("\n")
        ), str(out)
        assert f"U+{ord(INVISIBLE[kind]):04X}" in out.stderr
    assert path.read_bytes() == before


FILE = """schema_version = 1
mode = "turn"
round = 0

[[creature]]
name = {name}
load_buffer = 1
exhaustion = 0
load = 0

[creature.aspects]
{aspect} = 3
"""


@pytest.mark.parametrize("kind", sorted(INVISIBLE))
def test_a_file_name_with_an_invisible_character_names_creature_and_field(tmp_path, kind):
    char = INVISIBLE[kind]
    escaped = '"A' + f"\\U{ord(char):08x}" + 'ria"'  # a TOML basic string, the character escaped
    for text, where in (
        (FILE.format(name=escaped, aspect="Might"), "creature #1: name:"),
        (FILE.format(name='"Ann"', aspect=escaped), "creature 'Ann': aspects.A\\"),
    ):
        with pytest.raises(FileError) as caught:
            parse_encounter(text, "x.toml")
        shown = str(caught.value)
        assert where in shown and char not in shown and "(N1)" in shown, shown


# --- keys that look like numbers --------------------------------------------------------

NUMBER_LIKE = [
    "1_2",
    "0x10",
    "0b1",
    "0o17",
    "1e3",
    "inf",
    "nan",
    "true",
    "false",
    "+1",
    "1.5",
    "1979-05-27",
    "12",
]


@pytest.mark.parametrize("aspect", NUMBER_LIKE)
def test_an_aspect_named_like_a_number_survives_add_act_undo_and_a_hand_edit(tmp_path, aspect):
    path = tmp_path / "encounter.toml"
    ok("init", file=path)
    ok("add", "Ann", "--aspect", f"{aspect}=3", "--aspect", "Might=2", file=path)
    out = ok("act", "Ann", aspect, "--dc", "1", "--seed", "1", "--json", file=path).json()
    assert out["aspect_name"] == aspect and out["pool_size"] == 3
    status = ok("status", "--json", file=path).json()
    assert status["creatures"][0]["aspects"] == {aspect: 3, "Might": 2}
    ok("undo", file=path)
    # A hand edit writing the key bare where TOML allows it, then a change.
    text = (
        path.read_text().replace(json.dumps(aspect), aspect)
        if aspect.replace("_", "").replace("-", "").isalnum()
        else path.read_text()
    )
    path.write_text(text)
    assert ok("status", "--json", file=path).json()["creatures"][0]["aspects"] == {
        aspect: 3,
        "Might": 2,
    }
    ok("exhaust", "Ann", "1", file=path)
    ok("act", "Ann", aspect, "--dc", "1", "--seed", "1", file=path)
    assert ok("status", "--json", file=path).json()["creatures"][0]["aspects"] == {
        aspect: 3,
        "Might": 2,
    }


def test_a_hand_written_bare_numeric_key_loads_and_later_changes_succeed(tmp_path):
    path = tmp_path / "encounter.toml"
    path.write_text(FILE.format(name='"Ann"', aspect="1_2") + "\n")
    path.write_text(
        path.read_text()
        .replace("[creature.aspects]\n1_2 = 3", "aspects = { 1_2 = 3, 0x10 = 4 }")
        .replace("\n\n\n", "\n")
    )
    assert ok("status", "--json", file=path).json()["creatures"][0]["aspects"] == {
        "1_2": 3,
        "0x10": 4,
    }
    ok("act", "Ann", "0x10", "--dc", "1", "--seed", "2", file=path)
    assert ok("status", "--json", file=path).json()["creatures"][0]["aspects"] == {
        "1_2": 3,
        "0x10": 4,
    }


@pytest.mark.parametrize(
    "name",
    [
        "Might",
        "my-aspect_2",
        "1_2",
        "0x10",
        "0b1",
        "1e5",
        "inf",
        "nan",
        "True",
        "a b",
        'q"x',
        "a.b",
        "1979-05-27",
    ],
)
def test_every_legal_aspect_name_survives_write_and_read(name):
    encounter = parse_encounter(FILE.format(name='"Ann"', aspect='"Might"'), "x.toml")
    creature = encounter.creatures[0]._replace(aspects=((name, 3),))
    again = parse_encounter(dump_encounter(encounter._replace(creatures=(creature,))), "x.toml")
    assert again.creatures[0].aspects == ((name, 3),)


def test_fancy_values_are_still_refused_but_not_keys(tmp_path):
    text = FILE.format(name='"Ann"', aspect='"1_2"').replace("load = 0", "load = 1_0")
    with pytest.raises(FileError, match="1_0: a whole number is written plainly"):
        parse_encounter(text, "x.toml")


# --- whole numbers everywhere (L3) ------------------------------------------------------

WHOLE_FIELDS = [
    ("schema_version = 1", "schema_version = 1.0", "schema_version: 1.0"),
    ("round = 0", "round = 0.0", "round: 0.0"),
    ("load_buffer = 1", "load_buffer = 1.0", "load_buffer: 1.0"),
    ("exhaustion = 0", "exhaustion = 0.0", "exhaustion: 0.0"),
    ("load = 0", "load = 0.0", "load: 0.0"),
    ("load = 0", "load = 0\nevasion = 1.0", "evasion: 1.0"),
    ("load = 0", "load = 0\nhp = 5.0", "hp: 5.0"),
    ("Might = 3", "Might = 3.0", "aspects.Might: 3.0"),
    ("schema_version = 1", "schema_version = true", "schema_version: true"),
]


@pytest.mark.parametrize(("old", "new", "shown"), WHOLE_FIELDS)
def test_every_number_field_refuses_a_float(old, new, shown):
    text = FILE.format(name='"Ann"', aspect="Might")
    assert old in text
    with pytest.raises(FileError) as caught:
        parse_encounter(text.replace(old, new, 1), "x.toml")
    assert shown in str(caught.value) and "whole number" in str(caught.value)


# --- a layout hand edits can rely on ----------------------------------------------------


def _encounter(load: int, pending: bool = False, notes: str = "") -> Encounter:
    creatures = tuple(
        Creature(
            name,
            (("Might", 3), ("1_2", 1)),
            1,
            0,
            load,
            0,
            None,
            notes,
            team_grant_effects((), Pending(advantage=("Bob",))) if pending else (),
        )
        for name in ("A", "B")
    )
    return Encounter("E", "turn", 0, None, None, creatures)


def test_one_layout_whatever_the_values():
    shapes = set()
    for load in (-1000, -10, 0, 5, 10, 1000):
        text = dump_encounter(_encounter(load))
        shapes.add(tuple(line.split("=")[0] for line in text.splitlines()))
        assert (
            text.splitlines().count("[[creature]]") == 2
            and text.splitlines().count("[creature.aspects]") == 2
        )
    assert len(shapes) == 1
    # One number a digit longer changes one line only.
    old, new = (
        dump_encounter(_encounter(9)).splitlines(),
        dump_encounter(_encounter(10)).splitlines(),
    )
    assert sum(a != b for a, b in zip(old, new)) == 2 and len(old) == len(new)


def test_notes_survive_write_and_read(tmp_path):
    notes = 'Hates goblins.\nCarries a "lucky" coin\\ and 10 gp #not a comment'
    encounter = _encounter(0, pending=True, notes=notes)
    text = dump_encounter(encounter)
    assert parse_encounter(text, "x.toml") == encounter
    assert parse_encounter(text, "x.toml").creatures[0].notes == notes
    path = tmp_path / "encounter.toml"
    path.write_text(text)
    ok("exhaust", "A", "1", file=path)
    assert parse_encounter(path.read_text(), path).creatures[0].notes == notes


def test_notes_must_be_text(tmp_path):
    text = FILE.format(name='"Ann"', aspect="Might").replace("load = 0", "load = 0\nnotes = 3")
    with pytest.raises(FileError, match="creature 'Ann': notes: 3: must be text"):
        parse_encounter(text, "x.toml")


def test_dropped_comments_counts_comment_lines_that_are_gone():
    old = FILE.format(name='"Ann"', aspect="Might").replace(
        "load = 0", "load = 0  # spent\n# the GM's secret"
    )
    new = dump_encounter(parse_encounter(old, "x.toml"))
    assert dropped_comments(old, new) == 2
    assert dropped_comments(new, new) == 0
    assert dropped_comments('name = "# not a comment"\n', new) == 0


def test_a_change_keeps_the_files_comments_and_undo_restores_it_byte_for_byte(tmp_path):
    """A hand-written (here the bundled) file keeps its comments and layout: only the changed
    values' lines differ, new keys are added to their table; no note of dropped comments."""
    path = tmp_path / "encounter.toml"
    ok("init", "--from", "skirmish", file=path)
    original = path.read_bytes()
    assert dropped_comments(original.decode(), "") > 5
    out = ok("damage", "Goblin Brute", "3", file=path)
    assert "comment" not in out.stderr
    old, new = original.decode().splitlines(), path.read_text().splitlines()
    diff = list(difflib.ndiff(old, new))
    assert [line for line in diff if line.startswith("- ")] == ["- hp = 10"]
    added = sorted({line for line in diff if line.startswith("+ ")})
    assert added == ["+ had_turn = false", "+ hp = 7", '+ round_reset = "buffer"']
    ok("exhaust", "Aria", "1", file=path)
    assert dropped_comments(original.decode(), path.read_text()) == 0
    ok("undo", file=path)
    ok("undo", file=path)
    assert path.read_bytes() == original
