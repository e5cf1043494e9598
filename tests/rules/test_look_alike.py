"""Look-alike names (N1): two creatures, or two Aspects of one creature, whose Unicode TR39
confusable skeletons match cannot coexist, from the command line or a hand-edited file."""

from __future__ import annotations

from pathlib import Path

import pytest
from _cli import fails, ok, ok_json
from disarm import skeleton_key
from hypothesis import given
from hypothesis import strategies as st

from d4cli.rules.names import NameSet, difference, distinct_sources, look_alike_key


@pytest.mark.parametrize("char", [chr(code) for code in range(0x20, 0x7F)])
def test_the_ascii_fast_path_is_disarms_skeleton(char):
    # Names that are all ASCII are compared without importing disarm: the same key.
    text = f"a{char}b {char}"
    assert look_alike_key(text) == skeleton_key(text)


@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=30))
def test_ascii_keys_agree_with_disarm_on_any_text(text):
    assert look_alike_key(text) == skeleton_key(text)


@pytest.mark.parametrize(
    ("name", "other"),
    [
        ("Аria", "Aria"),  # Cyrillic capital A
        ("Gоblin", "Goblin"),  # Cyrillic small o
        ("llsa", "Ilsa"),  # l and capital I
        ("Ρaul", "Paul"),  # Greek capital rho
        ("Aria", "ARIA"),  # plain N1 equality is a clash too
    ],
)
def test_look_alikes_clash(name, other):
    names = NameSet([other])
    assert (names.equal_to(name) or names.looks_like(name)) == other


@pytest.mark.parametrize(("name", "other"), [("Zoë", "Zoe"), ("Orc 1", "Orc 2"), ("Aria", "Arla")])
def test_different_names_do_not_clash(name, other):
    names = NameSet([other])
    assert names.equal_to(name) is None and names.looks_like(name) is None


@pytest.mark.parametrize(
    ("name", "other"),
    [
        ("ВORIN", "Borin"),  # Cyrillic capital Ve, upper-cased
        ("B0RIN", "Borin"),  # digit zero, upper-cased
        ("ＡＲＩＡ", "Aria"),  # fullwidth, upper-cased
        ("Вorin", "Borin"),
        ("BORIN", "Borin"),
    ],
)
def test_look_alikes_of_an_upper_cased_name_clash_as_its_case_does(name, other):
    """N1 compares names case-insensitively, so their look-alikes too (F7): each of these is
    refused beside *other*, from either side."""
    assert NameSet([other]).equal_to(name) or NameSet([other]).looks_like(name) == other
    assert NameSet([name]).equal_to(other) or NameSet([name]).looks_like(other) == name


@pytest.mark.parametrize("name", ["ВORIN", "B0RIN"])
def test_add_refuses_an_upper_cased_look_alike(tmp_path: Path, name):
    path = tmp_path / "encounter.toml"
    ok("init")
    ok("add", "Borin", "--aspect", "Might=3")
    line = fails(2, path, "add", name, "--aspect", "Might=3")
    assert line.startswith(f"d4cli: error: NAME: {name!r}: the encounter already has a name that ")
    assert "looks like 'Borin' (N1)" in line


def test_the_difference_names_the_characters():
    assert (
        difference("Аria", "Aria")
        == "'А' CYRILLIC CAPITAL LETTER A where 'Aria' has 'A' LATIN CAPITAL LETTER A"
    )


def test_add_refuses_a_look_alike_creature(tmp_path: Path):
    path = tmp_path / "encounter.toml"
    ok("init")
    ok("add", "Aria", "--aspect", "Might=3")
    line = fails(2, path, "add", "Аria", "--aspect", "Might=3")
    assert (
        "'Аria'" in line
        and "'Aria'" in line
        and "CYRILLIC CAPITAL LETTER A" in line
        and "(N1)" in line
    )


def test_add_refuses_look_alike_aspects(tmp_path: Path):
    path = tmp_path / "encounter.toml"
    ok("init")
    line = fails(2, path, "add", "Bob", "--aspect", "Might=3", "--aspect", "Мight=2")
    assert (
        "--aspect" in line
        and "'Мight'" in line
        and "'Might'" in line
        and "CYRILLIC CAPITAL LETTER EM" in line
    )


@pytest.mark.parametrize(
    ("table", "field"),
    [
        (
            '[[creature]]\nname = "Aria"\n{rest}\n[[creature]]\nname = "\u0410ria"\n{rest}',
            "creature #2: name",
        ),
        (
            '[[creature]]\nname = "Bob"\n{rest_no_aspects}\n[creature.aspects]\nMight = 1\n"\u041cight" = 2\n',
            "aspects",
        ),
    ],
)
def test_a_hand_edited_file_with_look_alikes_is_refused(tmp_path: Path, table, field):
    path = tmp_path / "encounter.toml"
    ok("init")
    rest_no_aspects = "load_buffer = 1\nexhaustion = 0\nload = -1\nevasion = 0\nhad_turn = false\n"
    rest = rest_no_aspects + "[creature.aspects]\nMight = 1\n"
    path.write_text(
        path.read_text() + "\n" + table.format(rest=rest, rest_no_aspects=rest_no_aspects),
        encoding="utf-8",
    )
    line = fails(2, path, "status")
    assert str(path) in line and field in line and "looks like" in line and "(N1)" in line


# --- aliases and sources (N1, R4): look-alikes are refused as names are, or count once --------


@pytest.mark.parametrize("alias", ["Gоblin", "Gobl\u0456n", "G\u043eblin"])
def test_an_alias_that_only_looks_like_another_creature_is_refused(tmp_path: Path, alias):
    path = tmp_path / "encounter.toml"
    ok("init")
    ok("add", "Goblin", "--aspect", "Might=3")
    ok("add", "Orc", "--aspect", "Might=3")
    line = fails(2, path, "alias", "Orc", alias)
    if alias == "Gоblin":
        assert "looks like the name of 'Goblin'" in line and "CYRILLIC SMALL LETTER O" in line
    assert "(N1)" in line and "Goblin" in line


def test_an_alias_that_looks_like_another_alias_is_refused(tmp_path: Path):
    path = tmp_path / "encounter.toml"
    ok("init")
    ok("add", "Goblin", "--aspect", "Might=3")
    ok("add", "Orc", "--aspect", "Might=3")
    ok("alias", "Goblin", "Shadow")
    line = fails(2, path, "alias", "Orc", "Shаdow")  # Cyrillic а
    assert "looks like the alias of 'Goblin'" in line


def test_a_hand_edited_alias_that_looks_like_a_name_is_refused(tmp_path: Path):
    path = tmp_path / "encounter.toml"
    ok("init")
    ok("add", "Goblin", "--aspect", "Might=3")
    ok("add", "Orc", "--aspect", "Might=3")
    ok("alias", "Orc", "Brute")
    path.write_text(path.read_text("utf-8").replace("Brute", "Gоblin"), encoding="utf-8")
    line = fails(2, path, "status")
    assert "alias" in line and "looks like the name of 'Goblin'" in line


def test_look_alike_sources_count_once():
    assert distinct_sources(["torch", "tоrch", "TORCH", "Torch "]) == (
        ("torch",),
        ("tоrch", "TORCH", "Torch "),
    )
    assert distinct_sources(["torch", "torches"]) == (("torch", "torches"), ())


def test_a_roll_with_look_alike_advantages_counts_one_source():
    out = ok("roll", "pool", "3", "--adv", "torch", "--adv", "tоrch", "--seed", "1", "--json")
    assert (out.json()["net_advantage"], out.json()["pool_size"]) == (1, 4)
    assert out.json()["advantage_repeats"] == ["tоrch"]


def test_a_look_alike_effect_is_the_same_effect(tmp_path: Path):
    path = tmp_path / "encounter.toml"
    ok("init")
    ok("add", "Aria", "--aspect", "Might=3")
    ok("effect", "add", "Aria", "torch", "--adv")
    line = fails(2, path, "effect", "add", "Aria", "tоrch", "--dis")
    assert "already has 'torch'" in line
    ok("effect", "remove", "Aria", "tоrch")
    assert ok_json("status", "Aria")["effects"] == []
