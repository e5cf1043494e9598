"""Ctrl-C during a change says whether it was saved (exit 130), so that a retry cannot apply it
twice: "interrupted: the change was saved as #N" once the file is replaced, "interrupted:
nothing was saved" before (the store writes a change wholly or not at all)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _cli import files, ok, ok_json, run

from d4cli.api.encounter import Tracker
from d4cli.store import files as store_files


def _interrupt(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.fixture
def fight(isolated_env) -> Path:
    path = isolated_env / "encounter.toml"
    ok("init", file=path)
    ok("add", "Aria", "--aspect", "Might=3", "--hp", "10", file=path)
    return path


def test_ctrl_c_after_the_change_is_saved_names_its_entry(fight, monkeypatch):
    # After the write, while printing (the line is drawn by the renderer `changes` imports).
    from d4cli.output.render import entry_lines as drawn

    monkeypatch.setattr(drawn, "print_lines", _interrupt)
    answer = run("damage", "Aria", "3", file=fight)
    assert (answer.exit_code, answer.stdout) == (130, "")
    assert answer.stderr == "d4cli: interrupted: the change was saved as #3\n"
    monkeypatch.undo()
    assert ok_json("status", file=fight)["creatures"][0]["hp"] == 7
    assert [entry["seq"] for entry in ok_json("log", file=fight)["entries"]] == [1, 2, 3]


def test_ctrl_c_before_the_file_is_replaced_saves_nothing(fight, monkeypatch):
    before = files(fight)
    monkeypatch.setattr(store_files, "replace_file", _interrupt)  # the journal entry is written
    answer = run("damage", "Aria", "3", file=fight)
    assert (answer.exit_code, answer.stdout) == (130, "")
    assert answer.stderr == "d4cli: interrupted: nothing was saved\n"
    assert files(fight) == before


def test_ctrl_c_of_a_read_saves_nothing(fight, monkeypatch):
    from d4cli.api import reader

    monkeypatch.setattr(reader, "read_encounter", _interrupt)
    answer = run("status", file=fight)
    assert (answer.exit_code, answer.stderr) == (130, "d4cli: interrupted: nothing was saved\n")


def test_ctrl_c_while_waiting_for_the_lock_saves_nothing_though_the_files_moved(fight, monkeypatch):
    from d4cli.store import transaction

    real = transaction.Locked.__enter__

    def moved_then_interrupted(self):
        monkeypatch.setattr(transaction.Locked, "__enter__", real)
        Tracker(fight).damage("Aria", 1)  # another process went first
        raise KeyboardInterrupt

    monkeypatch.setattr(transaction.Locked, "__enter__", moved_then_interrupted)
    answer = run("damage", "Aria", "3", file=fight)
    assert (answer.exit_code, answer.stderr) == (130, "d4cli: interrupted: nothing was saved\n")
    assert ok_json("status", file=fight)["creatures"][0]["hp"] == 9


def test_ctrl_c_of_an_undo_says_whether_it_was_done(fight, monkeypatch):
    from d4cli.store import undo as store_undo

    ok("damage", "Aria", "3", file=fight)
    before = files(fight)
    monkeypatch.setattr(store_files, "replace_file", _interrupt)
    answer = run("undo", file=fight)
    assert (answer.exit_code, answer.stderr) == (130, "d4cli: interrupted: nothing was undone\n")
    assert files(fight) == before
    monkeypatch.undo()
    real = store_undo.undo

    def undone_then_interrupted(*args, **kwargs):
        real(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr("d4cli.api.tracker.undo", undone_then_interrupted)
    answer = run("undo", file=fight)
    assert (answer.exit_code, answer.stderr) == (
        130,
        "d4cli: interrupted: the undo was done: #3 is undone\n",
    )
    monkeypatch.undo()
    assert ok_json("status", file=fight)["creatures"][0]["hp"] == 10
    monkeypatch.setattr("d4cli.api.tracker.redo", lambda *a, **k: _interrupt())
    answer = run("redo", file=fight)
    assert (answer.exit_code, answer.stderr) == (130, "d4cli: interrupted: nothing was redone\n")


@pytest.mark.parametrize(("command", "words"), [("undo", "undone"), ("redo", "redone")])
def test_ctrl_c_early_in_an_undo_says_nothing_was_undone(fight, monkeypatch, command, words):
    """Interrupted before it opened the encounter, an undo (redo) moved nothing: promise 32's
    words are "nothing was undone", never "nothing was saved"."""
    ok("damage", "Aria", "3", file=fight)
    if command == "redo":
        ok("undo", file=fight)
    before = files(fight)
    monkeypatch.setattr(Tracker, "__init__", _interrupt)
    answer = run(command, file=fight)
    assert (answer.exit_code, answer.stderr) == (130, f"d4cli: interrupted: nothing was {words}\n")
    assert files(fight) == before
    answer = run("damage", "Aria", "1", file=fight)  # any other command: nothing was saved
    assert (answer.exit_code, answer.stderr) == (130, "d4cli: interrupted: nothing was saved\n")
