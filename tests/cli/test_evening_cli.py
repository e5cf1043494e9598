"""An evening of fights through the command line: ``next``, the bestiary, seats that carry,
``recap --evening``; exit codes, JSON, files byte for byte unchanged on every error, human output
at 80 and 120 columns."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _cli import fails, files, ok, ok_json, run
from _width import at_width

from d4cli.api.encounter import Tracker
from d4cli.api.seat_board import SeatBoard
from d4cli.rules.errors import InputError


def _everything(folder: Path) -> dict[str, bytes]:
    """Every file under *folder* (archives included) by relative path, lock files aside."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.endswith(".lock")
    }


@pytest.fixture
def party(tmp_path):
    """A fight of Aria and Borin (the party) against a goblin; a goblin and an ogre in the bestiary."""
    path = tmp_path / "encounter.toml"
    ok("init", "--name", "The road")
    ok("add", "Aria", "--aspect", "Might=4", "--hp", "10", "--side", "party")
    ok("add", "Borin", "--aspect", "Might=3", "--hp", "12", "--side", "party")
    ok("add", "Goblin", "--aspect", "Might=2", "--hp", "4", "--evasion", "2", "--side", "foes")
    ok("add", "Ogre", "--aspect", "Might=5", "--hp", "15", "--side", "foes")
    ok("bestiary", "save", "Goblin")
    ok("bestiary", "save", "Ogre", "--as", "big-ogre")
    return path


def _snapshot_of(path: Path) -> tuple[bytes, bytes]:
    return path.read_bytes(), Path(str(path) + ".journal").read_bytes()


def test_three_fights_in_one_evening_with_two_seats(party, tmp_path):
    aria = ok_json("seat", "add", "Aria")["path"].removeprefix("/seat/")
    borin = ok_json("seat", "add", "Borin")["path"].removeprefix("/seat/")
    board = SeatBoard(Tracker(party))
    # Fight 1: Aria hits the goblin, the ogre hurts Borin, Borin tires.
    ok("turn", "start", "Aria")
    ok("act", "Aria", "Might", "--target", "Goblin", "--faces", "4,4,4,4")
    ok("damage", "Borin", "5")
    ok("exhaust", "Borin", "1")
    ok("remove", "Ogre")
    ok("damage", "Goblin", "10")
    ok("turn", "end")
    assert board.page(aria).fight == 1
    before = _snapshot_of(party)
    first = ok_json("next", "--add", "goblin x2", "--name", "The bridge")
    assert first["kind"] == "next" and first["fight"] == 2
    assert first["archived"] == "encounter.toml.fights/01-the-road.toml"
    assert first["kept"] == ["Aria", "Borin"] and first["added"] == ["Goblin 1", "Goblin 2"]
    archive = tmp_path / first["archived"]
    assert (archive.read_bytes(), Path(str(archive) + ".journal").read_bytes()) == before
    # hp and Exhaustion carry, Loads reset (R1), the seats still open their pages.
    status = ok_json("status")
    borin_now = next(c for c in status["creatures"] if c["name"] == "Borin")
    assert (borin_now["hp"], borin_now["exhaustion"], borin_now["load"]) == (7, 1, 0)
    assert status["round"] == 0 and status["current"] is None
    assert board.page(aria).fight == 2 and board.page(borin).creature.name == "Borin"
    # undo of the next restores the finished fight byte for byte; redo brings the new one back.
    after = _snapshot_of(party)
    ok("undo")
    assert _snapshot_of(party) == before
    ok("redo")
    assert _snapshot_of(party) == after
    # Fight 2: Borin hits a goblin off his turn (a reaction).
    ok("turn", "start", "Aria")
    ok("act", "Borin", "Might", "--target", "Goblin 1", "--faces", "4,4,4")
    ok("damage", "Goblin 1", "10")
    ok("damage", "Goblin 2", "10")
    ok("turn", "end")
    before = _snapshot_of(party)
    second = ok_json("next", "--add", "big-ogre")
    assert second["fight"] == 3 and second["name"] == "Fight 3" and second["added"] == ["Ogre"]
    ok("undo")
    assert _snapshot_of(party) == before
    ok("redo")
    # Fight 3, still going: both seats work, on the third fight.
    assert board.page(aria).fight == 3 and board.page(borin).fight == 3
    ok("turn", "start", "Borin")
    ok("act", "Borin", "Might", "--target", "Ogre", "--faces", "1,1,1")
    evening = ok_json("recap", "--evening")
    assert evening["kind"] == "evening"
    assert [f["number"] for f in evening["fights"]] == [1, 2, 3]
    assert [f["name"] for f in evening["fights"]] == ["The road", "The bridge", "Fight 3"]
    assert [f["winner"] for f in evening["fights"]] == ["party", "party", None]
    assert evening["won"] == {"party": 2} and evening["totals"]["fights"] == 3
    by_name = {c["name"]: c for c in evening["creatures"]}
    assert by_name["Aria"]["fights"] == 3 and by_name["Borin"]["fights"] == 3
    assert by_name["Borin"]["damage_taken"] == 5
    assert by_name["Borin"]["reactions"] == 1 and by_name["Borin"]["actions"] == 2
    assert by_name["Borin"]["luck"]["rolls"] == 2


def test_a_seat_whose_creature_did_not_carry_ends(party):
    goblin = ok_json("seat", "add", "Goblin")["path"].removeprefix("/seat/")
    aria = ok_json("seat", "add", "Aria")["path"].removeprefix("/seat/")
    ok("next")
    board = SeatBoard(Tracker(party))
    with pytest.raises(InputError) as caught:
        board.page(goblin)
    assert caught.value.problem == "this seat has ended: its creature is not in this fight"
    assert board.page(aria).creature.name == "Aria"


def test_next_keeps_the_side_asked_and_brings_a_template(party, tmp_path):
    bestiary = tmp_path / "bestiary"
    (bestiary / "camp.toml").write_bytes(party.read_bytes())
    made = ok_json("next", "--keep", "foes", "--from", "camp")
    assert made["keep_side"] == "foes"
    assert made["kept"] == ["Goblin", "Ogre"] and made["added"] == ["Aria", "Borin"]


def test_next_while_a_turn_runs_asks_to_end_it_or_force(party, tmp_path):
    ok("turn", "start", "Aria")
    before = _everything(tmp_path)
    error = fails(2, party, "next")
    assert "Aria's turn is running" in error and "--force" in error
    assert _everything(tmp_path) == before
    assert ok_json("next", "--force")["kept"] == ["Aria", "Borin"]


@pytest.mark.parametrize("kind", ["file", "symlink", "owner"])
def test_an_archive_folder_that_is_not_ours_is_refused_with_nothing_written(party, tmp_path, kind):
    folder = tmp_path / "encounter.toml.fights"
    if kind == "file":
        folder.write_text("not a folder")
    elif kind == "symlink":
        (tmp_path / "elsewhere").mkdir()
        folder.symlink_to(tmp_path / "elsewhere")
    else:
        if os.geteuid() != 0:
            pytest.skip("giving a folder away needs root")
        folder.mkdir()
        os.chown(folder, 12345, 12345)
    before = _everything(tmp_path)
    error = fails(2, party, "next")
    assert "encounter.toml.fights" in error
    assert _everything(tmp_path) == before


def test_unknown_entries_and_templates_are_named_with_a_suggestion(party):
    assert "did you mean 'goblin'?" in fails(2, party, "next", "--add", "gobiln x3")
    assert "did you mean 'big-ogre'" in fails(2, party, "add", "X", "--from", "big-ogr")
    error = fails(2, party, "next", "--from", "skirmsh")
    assert "--from: 'skirmsh': no such template in the bestiary" in error
    assert error.endswith("did you mean 'skirmish'?")
    assert "keep: 'nobody'" in fails(2, party, "next", "--keep", "nobody")
    assert "count must be within 1..100" in fails(2, party, "next", "--add", "goblin x0")


def test_a_leftover_archive_is_reused_and_an_undone_one_counts_nowhere(party, tmp_path):
    ok("next", "--name", "Two")
    ok("undo")
    folder = tmp_path / "encounter.toml.fights"
    assert sorted(p.name for p in folder.iterdir()) == [
        "01-the-road.toml",
        "01-the-road.toml.journal",
    ]
    assert [f["number"] for f in ok_json("recap", "--evening")["fights"]] == [1]
    ok("damage", "Aria", "1")  # the fight goes on: its old archive no longer matches it
    again = ok_json("next", "--name", "Two")
    assert again["archived"] == "encounter.toml.fights/01-the-road-2.toml"
    ok("undo")
    assert ok_json("next")["archived"] == "encounter.toml.fights/01-the-road-2.toml"


def test_add_from_the_bestiary_copies_the_sheet(party):
    added = ok_json("add", "Gob", "--from", "goblin", "--count", "2")
    assert added["names"] == ["Gob 1", "Gob 2"] and added["evasion"] == 2
    assert added["side"] == "foes" and added["hp_after"] == 4


def test_a_damaged_bestiary_file_is_named_with_its_line_and_the_rest_listed(party, tmp_path):
    (tmp_path / "bestiary" / "broken.toml").write_text('name = "x"\n[[creature]\n')
    out = run("bestiary", "--json")
    assert out.exit_code == 0
    listing = out.json()
    assert [e["name"] for e in listing["creatures"]] == ["big-ogre", "goblin"]
    (problem,) = listing["problems"]
    assert "broken.toml" in problem and "line 2" in problem
    human = run("bestiary")
    assert "broken.toml" in human.stderr and "goblin" in human.stdout


def test_bestiary_save_refuses_to_replace_without_force(party, tmp_path):
    kept = tmp_path / "bestiary" / "creatures" / "goblin.toml"
    before = kept.read_bytes()
    assert "--force" in fails(2, party, "bestiary", "save", "Goblin")
    assert kept.read_bytes() == before
    ok("bestiary", "save", "Goblin", "--force")


def test_an_interrupted_next_leaves_the_old_fight_and_its_archive_is_reused(
    party, tmp_path, monkeypatch
):
    from d4cli.store.transaction import Transaction

    before = files(party)

    def crash(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patched:
        patched.setattr(Transaction, "commit", crash)
        assert run("next").exit_code != 0
    assert files(party) == before
    assert (tmp_path / "encounter.toml.fights" / "01-the-road.toml").read_bytes() == before[
        "encounter.toml"
    ]
    made = ok_json("next")
    assert made["archived"] == "encounter.toml.fights/01-the-road.toml"


@pytest.mark.parametrize("width", [80, 120])
def test_next_and_the_evening_for_people(party, snapshot, monkeypatch, width):
    at_width(monkeypatch, width)
    ok("turn", "start", "Aria")
    ok("act", "Aria", "Might", "--target", "Goblin", "--faces", "4,4,4,4")
    ok("turn", "end")
    made = ok("next", "--name", "The bridge", "--add", "goblin x3")
    evening = ok("recap", "--evening")
    listing = ok("bestiary")
    assert (
        made.stdout,
        evening.stdout,
        listing.stdout.replace(str(party.parent), "TMP"),
    ) == snapshot


def test_the_evening_as_markdown(party, snapshot):
    ok("next")
    assert ok("recap", "--evening", "--format", "markdown").stdout == snapshot


def test_init_takes_a_template_of_the_bestiary_before_the_examples(party, tmp_path):
    (tmp_path / "bestiary" / "skirmish.toml").write_bytes(party.read_bytes())
    made = ok_json("init", "--force", "--from", "skirmish")
    assert made["creatures"] == 4  # the bestiary's skirmish, not the bundled one
    assert [c["name"] for c in ok_json("status")["creatures"]] == [
        "Aria",
        "Borin",
        "Goblin",
        "Ogre",
    ]


def test_a_request_the_finished_fight_left_waiting_is_denied_and_archived_as_it_was(
    party, tmp_path
):
    from d4cli.api.front_ends import SeatAction, SeatDesk

    token = ok_json("seat", "add", "Aria")["path"].removeprefix("/seat/")
    SeatDesk(Tracker(party)).submit(token, SeatAction("Might", target="Goblin"))
    waiting = (tmp_path / "encounter.toml.requests").read_bytes()
    made = ok_json("next")
    assert ok_json("requests")["requests"] == []
    (row,) = ok_json("requests", "--all")["requests"]
    assert (row["status"], row["reason"]) == (
        "denied",
        "the fight ended before it was answered (d4cli next)",
    )
    kept = tmp_path / (made["archived"] + ".requests")
    assert kept.read_bytes() == waiting
    assert "request 1 was denied already" in fails(2, party, "approve", "1")


def test_the_evening_as_csv_one_row_per_number(party):
    import csv

    ok("turn", "start", "Aria")
    ok("act", "Aria", "Might", "--target", "Goblin", "--faces", "4,4,4,4")
    ok("turn", "end")
    ok("next", "--name", "The bridge", "--add", "goblin x3")
    rows = list(csv.reader(ok("recap", "--evening", "--format", "csv").stdout.splitlines()))
    assert rows[0] == ["figure", "fight", "fight_name", "creature", "side", "value"]
    assert rows[1:5] == [
        ["rounds", "1", "The road", "", "", "1"],
        ["winner", "1", "The road", "", "", ""],  # the Ogre still stands: nobody won (R21)
        ["rounds", "2", "The bridge", "", "", "0"],
        ["winner", "2", "The bridge", "", "", ""],
    ]
    aria = {row[0]: row[5] for row in rows if row[3] == "Aria"}
    # 4+4+4+4 = 16 less Evasion 2 is 14, but the Goblin had 4 hp to lose (R7, R16).
    assert aria["damage_dealt"] == "4" and aria["load_spent"] == "1"
    assert aria["luck_rolls"] == "1"
    goblin = {row[0]: row[5] for row in rows if row[3] == "Goblin"}
    assert goblin["damage_taken"] == "4"


def test_the_evening_has_no_svg(party):
    error = fails(2, party, "recap", "--evening", "--format", "svg")
    assert "table, markdown or csv" in error


def test_the_new_fights_creatures_count_at_once_and_a_namesake_of_another_side_is_its_own(
    party, tmp_path
):
    # Per creature, "the fights it was in": the fight `next` began counts before its first
    # turn, and a Goblin of the party is not the foes' Goblin (N1 names, sides apart).
    ok("turn", "start", "Aria")
    ok("act", "Aria", "Might", "--target", "Goblin", "--faces", "4,4,4,4")
    ok("turn", "end")
    ok("next", "--name", "The bridge")
    ok("add", "goblin", "--aspect", "Might=1", "--hp", "3", "--side", "party")
    rows = ok_json("recap", "--evening")["creatures"]
    fights = {(c["name"], c["side"]): c["fights"] for c in rows}
    assert fights[("Aria", "party")] == 2 and fights[("Borin", "party")] == 2
    assert fights[("Goblin", "foes")] == 1 and fights[("Ogre", "foes")] == 1
    assert fights[("goblin", "party")] == 1
