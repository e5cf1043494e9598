"""``note [NAME] TEXT`` and ``note NAME --set TEXT``: journaled like every change."""

from __future__ import annotations

import json

from _cli import fails, ok, ok_json


def _setup(tmp_path):
    ok("init")
    ok("add", "Aria", "--aspect", "Might=3", "--hp", "10")
    return tmp_path / "encounter.toml"


def test_a_note_is_logged_and_leaves_the_file_as_it_was(tmp_path):
    path = _setup(tmp_path)
    path.write_text(path.read_text() + "# the GM's own comment\n")
    before = path.read_bytes()
    obj = ok_json("note", "the bridge is out")
    assert obj == {
        "kind": "note",
        "round": 0,
        "turn": None,
        "actor": None,
        "set": False,
        "note": "the bridge is out",
    }
    assert path.read_bytes() == before
    about = ok("note", "aria", "owes Borin a favour").stdout
    assert about == "note on Aria: owes Borin a favour\n"
    assert path.read_bytes() == before
    entries = ok_json("log", "--kind", "note")["entries"]
    assert [(e["actor"], e["note"]) for e in entries] == [
        (None, "the bridge is out"),
        ("Aria", "owes Borin a favour"),
    ]
    lines = ok("log", "--last", "2").stdout.splitlines()
    assert lines[0].endswith("note: the bridge is out") and lines[1].endswith(
        "note on Aria: owes Borin a favour"
    )
    assert (
        ok_json("log", "--creature", "Aria", "--kind", "note")["entries"][0]["note"]
        == "owes Borin a favour"
    )


def test_undo_takes_a_note_back(tmp_path):
    path = _setup(tmp_path)
    ok("note", "first")
    ok("undo")
    assert ok_json("log", "--kind", "note")["entries"] == []
    ok("redo")
    assert [e["note"] for e in ok_json("log", "--kind", "note")["entries"]] == ["first"]
    assert path.exists()


def test_set_writes_the_creatures_notes(tmp_path):
    path = _setup(tmp_path)
    obj = ok_json("note", "Aria", "--set", "sworn to the Duke")
    assert obj["set"] is True and obj["notes"] == "sworn to the Duke" and obj["notes_before"] == ""
    assert 'notes = "sworn to the Duke"' in path.read_text()
    sheet = ok_json("status", "Aria")
    assert json.dumps(sheet).count("sworn to the Duke") == 1
    again = ok("note", "Aria", "--set", "sworn to the Duke").stdout
    assert "nothing changed" in again
    line = ok("note", "Aria", "--set", "").stdout
    assert line == 'Aria\'s notes: cleared (were "sworn to the Duke")\n'
    assert "notes =" not in path.read_text()
    ok("undo")
    assert 'notes = "sworn to the Duke"' in path.read_text()


def test_bad_notes_change_nothing(tmp_path):
    path = _setup(tmp_path)
    assert "NAME: 'Ari': no such creature" in fails(2, path, "note", "Ari", "hello")
    assert "TEXT" in fails(2, path, "note", "   ")
    assert "give either TEXT or --set" in fails(2, path, "note", "Aria", "x", "--set", "y")
    assert "--set" in fails(2, path, "note", "Aria", "--set", "a\x07b")
    assert "longer than 200" in fails(2, path, "note", "x" * 201)
