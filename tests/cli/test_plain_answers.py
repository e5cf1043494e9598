"""Plain answers: actions replaced where they stand, no-op lines that say what was found, what a
check used up and its Advantage Level cap (C3), names counted after NFC (N1), text that is not
UTF-8 in any argument, a read-only journal named as such, a check's note once in the log."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest
from _cli import fails, files, ok, ok_json, run

NOTHING = "nothing changed: nothing written or logged"


@pytest.fixture
def skirmish(isolated_env) -> Path:
    path = Path(os.environ["D4CLI_FILE"])
    ok("init", "--from", "skirmish")
    ok("turn", "start")
    return path


def _actions(path: Path) -> list[str]:
    return [action["name"] for action in ok_json("status", "Aria")["actions"]]


# --- action add: in place ---------------------------------------------------------------------


def test_adding_the_very_action_in_first_place_changes_nothing(skirmish):
    assert _actions(skirmish)[0] == "dagger"  # not the last action of the template
    before = files(skirmish)
    result = ok(
        "action",
        "add",
        "Aria",
        "dagger",
        "--aspect",
        "Finesse",
        "--cost",
        "1",
        "--extra",
        "1d4",
        "--note",
        "x",
    )
    assert (
        result.stdout
        == f"Aria already has action dagger (Finesse, Cost 1); {NOTHING}; the --note was not kept\n"
    )
    assert files(skirmish) == before
    obj = ok_json(
        "action", "add", "Aria", "dagger", "--aspect", "Finesse", "--cost", "1", "--extra", "1d4"
    )
    assert obj["changed"] is False and obj["action"] == {
        "name": "dagger",
        "aspect": "Finesse",
        "cost": 1,
        "extra": ["1d4"],
    }
    assert files(skirmish) == before


def test_a_changed_action_is_replaced_where_it_stands(skirmish):
    order = _actions(skirmish)
    count = len(ok_json("log")["entries"])
    ok("action", "add", "Aria", "DAGGER", "--aspect", "Might", "--cost", "2")
    assert _actions(skirmish) == ["DAGGER", *order[1:]]
    assert len(ok_json("log")["entries"]) == count + 1
    ok("action", "add", "Aria", "kick", "--aspect", "Might")
    assert _actions(skirmish) == ["DAGGER", *order[1:], "kick"]


# --- no-op lines ------------------------------------------------------------------------------


def test_an_effect_no_op_says_the_creature_already_has_it_and_replaces_nothing(skirmish):
    ok("effect", "add", "Aria", "blessed", "--adv")
    before = files(skirmish)
    line = ok("effect", "add", "Aria", "blessed", "--adv").stdout
    assert line == f"Aria already has blessed +1d4, until removed (R20); {NOTHING}\n"
    assert "replaced" not in line
    obj = ok_json("effect", "add", "Aria", "blessed", "--adv")
    assert (obj["changed"], obj["replaced"], obj["effect"]["source"]) == (False, None, "blessed")
    assert files(skirmish) == before


def test_a_dropped_note_is_said(skirmish):
    assert ok("exhaust", "Aria", "+0", "--note", "hi").stdout.endswith(
        f"; {NOTHING}; the --note was not kept\n"
    )
    assert ok("exhaust", "Aria", "+0").stdout.endswith(f"; {NOTHING}\n")


# --- check: what it used up, the cap, its note ------------------------------------------------


def test_check_shows_the_effects_and_grants_it_used_up(skirmish):
    ok("effect", "add", "Aria", "focus", "--adv", "--level", "2", "--uses", "1")
    ok("team", "Borin", "Aria", "--adv", "--aspect", "Wits")
    lines = ok(
        "check", "Aria", "--attribute", "Agility", "--dc", "5", "--seed", "1"
    ).stdout.splitlines()
    assert lines[-2:] == [
        "Team Action grants used up: +team action (R11)",
        "focus on Aria ended: used up (R20)",
    ]
    assert ok_json("status", "Aria")["effects"] == []
    again = ok("check", "Aria", "--attribute", "Agility", "--seed", "1").stdout
    assert "used up" not in again and "ended" not in again


def test_the_advantage_level_cap_is_shown_and_in_the_json(skirmish):
    ok("effect", "add", "Aria", "blessed", "--adv", "--level", "3")
    ok("effect", "add", "Aria", "focus", "--adv", "--level", "2")
    ok("team", "Borin", "Aria", "--adv", "--aspect", "Wits")
    out = ok("check", "Aria", "--attribute", "Agility", "--seed", "1", "--dry-run").stdout
    assert (
        "blessed (effect) +3, focus (effect) +2, team action (team action) +1 = 6, capped at Level 5 (C3)"
        in out
    )
    obj = ok_json(
        "check", "Aria", "--attribute", "Agility", "--seed", "1", "--advantage", "2", "--dry-run"
    )
    assert (obj["uncapped_advantage_level"], obj["advantage_level"]) == (8, 5)
    ok("effect", "remove", "Aria", "blessed")
    out = ok("check", "Aria", "--attribute", "Agility", "--seed", "1", "--dry-run").stdout
    assert (
        "focus (effect) +2, team action (team action) +1 = Level 3 " in out and "capped" not in out
    )
    assert ok_json("check", "Aria", "--seed", "1", "--dry-run")["uncapped_advantage_level"] == 3


def test_a_checks_note_is_on_its_log_line_once(skirmish):
    ok("check", "Aria", "--attribute", "Agility", "--dc", "18", "--seed", "1", "--note", "hide")
    line = ok("log", "--last", "1").stdout
    assert line.count("hide") == 1 and line.rstrip().endswith("Load unchanged (C8); note: hide")
    assert run("check", "Aria", "--note", "two\nlines").exit_code == 2


# --- names after NFC (N1) ---------------------------------------------------------------------


def test_a_name_is_measured_after_nfc(isolated_env):
    path = Path(os.environ["D4CLI_FILE"])
    ok("init")
    decomposed = "e\u0301" * 150  # 300 code points, 150 characters after NFC
    ok("add", decomposed, "--aspect", "Might=1")
    assert ok_json("status", "\u00e9" * 150)["name"] == decomposed  # the same name (N1)
    message = fails(2, path, "add", "e\u0301" * 201, "--aspect", "Might=1")
    assert message.endswith(
        "is 201 characters long (after NFC normalisation): a name has at most 200 (N1)"
    )
    assert ok_json("exhaust", decomposed, "+0")["changed"] is False


# --- text that is not UTF-8 -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "field", "shown"),
    [
        (("act", "Zo\udceb", "Might"), "NAME", "Zo\\xeb"),
        (("status", "Zo\udceb"), "NAME", "Zo\\xeb"),
        (("damage", "Zo\udceb", "1"), "NAME", "Zo\\xeb"),
        (("effect", "add", "Zo\udceb", "x", "--adv"), "NAME", "Zo\\xeb"),
        (("act", "Aria", "Mi\udceb"), "ASPECT", "Mi\\xeb"),
        (("action", "remove", "Aria", "x\udceb"), "ACTION", "x\\xeb"),
        (("add", "Zed", "--aspect", "Might=1", "--side", "p\udce0rty"), "Zed: --side", "p\\xe0rty"),
        (("add", "Zo\udceb", "--aspect", "Might=1"), "NAME", "Zo\\xeb"),
    ],
)
def test_bytes_that_are_not_utf8_get_one_message_in_every_text_argument(
    skirmish, args, field, shown
):
    message = fails(2, skirmish, *args)
    assert message == f"d4cli: error: {field}: '{shown}': holds bytes that are not UTF-8 text"


# --- a read-only journal ----------------------------------------------------------------------


def test_a_read_only_journal_is_named_not_the_folder(tmp_path):
    from d4cli.store.files import write_failed

    journal = tmp_path / "encounter.toml.journal"
    journal.write_text("x", encoding="utf-8")
    journal.chmod(0o444)
    denied = OSError(errno.EACCES, os.strerror(errno.EACCES), str(journal))
    assert str(write_failed(journal, denied)) == (
        f"{journal}: cannot write, nothing was changed: Permission denied "
        "(the file encounter.toml.journal is read-only: allow writing with chmod u+w)"
    )
    journal.chmod(stat.S_IRUSR | stat.S_IWUSR)
    assert str(write_failed(journal, denied)).endswith(
        "Permission denied (is the folder read-only?)"
    )
    assert str(write_failed(tmp_path / "new.tmp", denied)).endswith("(is the folder read-only?)")


def test_a_read_only_file_refuses_even_a_change_that_would_change_nothing(skirmish):
    before = files(skirmish)
    skirmish.chmod(0o444)
    try:
        message = fails(2, skirmish, "exhaust", "Aria", "+0")
        assert (
            message
            == f"d4cli: error: {skirmish}: the file is read-only; nothing was changed (allow writing with chmod u+w)"
        )
    finally:
        skirmish.chmod(0o644)
    assert files(skirmish) == before


def test_action_add_of_a_changed_action_says_replaced_and_its_json_names_the_old_one(skirmish):
    """An action of a name the creature has is replaced where it stands; the line and JSON say so."""
    added = ok_json("action", "add", "Aria", "kick", "--aspect", "Might")
    assert added["replaced"] is None
    changed = ok_json("action", "add", "Aria", "KICK", "--aspect", "Might", "--cost", "2")
    assert (
        changed["replaced"]["name"],
        changed["replaced"]["cost"],
        changed["action"]["cost"],
    ) == ("kick", 1, 2)
    line = ok("action", "add", "Aria", "kick", "--aspect", "Might", "--cost", "3").stdout
    assert line.startswith("Aria: replaced action kick (Might, Cost 3)"), line
    assert "replaced" not in ok_json("action", "remove", "Aria", "kick")
