"""Notes, labels, log filters and lines, act --gm/--quiet/--short, relative Exhaustion, status lines."""

from __future__ import annotations

import json

import pytest
from _cli import fails, ok, ok_json, run


def log_lines(*args: str) -> list[str]:
    return ok("log", *args).stdout.splitlines()


# --- --note ---------------------------------------------------------------------------------


def test_note_is_kept_in_the_journal_entry_and_shown_by_log(encounter_file):
    ok("turn", "start", "--note", "the ambush begins")
    ok(
        "act",
        "Aria",
        "Finesse",
        "--target",
        "Goblin Archer",
        "--seed",
        "3",
        "--note",
        "for the door",
    )
    ok("exhaust", "Aria", "1", "--note", "cold night")
    entries = ok_json("log")["entries"]
    assert [entry.get("note") for entry in entries[-3:]] == [
        "the ambush begins",
        "for the door",
        "cold night",
    ]
    assert "note" not in entries[0]
    lines = log_lines()
    assert lines[-3].endswith("; note: the ambush begins")
    assert lines[-2].endswith("; note: for the door")


@pytest.mark.parametrize("note", ["two\nlines", "   ", "x" * 201, "bell\x07"])
def test_bad_note_is_refused_and_nothing_changes(encounter_file, note):
    message = fails(2, encounter_file, "exhaust", "Aria", "1", "--note", note)
    assert message.startswith("d4cli: error: --note")
    message = fails(2, encounter_file, "act", "Aria", "Might", "--note", note)
    assert message.startswith("d4cli: error: --note")


def test_every_changing_command_takes_note(encounter_file):
    ok("add", "Orc", "--aspect", "Might=2", "--note", "n1")
    ok("team", "Aria", "Orc", "--adv", "--aspect", "Might", "--note", "n2")
    ok("turn", "start", "--note", "n3")
    ok("turn", "end", "--note", "n4")
    ok("remove", "Orc", "--note", "n5")
    ok("add", "Troll", "--aspect", "Might=3", "--hp", "9", "--note", "n6")
    ok("damage", "Troll", "4", "--note", "n7")
    ok("heal", "Troll", "2", "--note", "n8")
    ok("move", "Troll", "--first", "--note", "n9")
    ok("exhaust", "Troll", "+1", "--note", "n10")
    ok("effect", "add", "Troll", "blessed", "--adv", "--note", "n11")
    ok("effect", "remove", "Troll", "blessed", "--note", "n12")
    ok("action", "add", "Troll", "club", "--aspect", "Might", "--note", "n13")
    ok("action", "remove", "Troll", "club", "--note", "n14")
    notes = [entry.get("note") for entry in ok_json("log")["entries"]]
    assert notes[-14:] == [f"n{number}" for number in range(1, 15)]


# --- log ------------------------------------------------------------------------------------


def test_log_prints_one_short_line_per_entry(encounter_file):
    ok("turn", "start")
    lines = log_lines()
    assert len(lines) == 4
    first = lines[0].split(" ", 3)
    assert first[0] == "#1" and len(first[1]) == 5 and first[1][2] == ":" and first[2] == "R0"
    assert lines[3].startswith("#4 ") and " R1 round 1 begins" in lines[3]


def test_log_filters_by_round_creature_and_kind(encounter_file):
    ok("act", "Aria", "Might", "--seed", "1")  # round 0, off-turn
    ok("turn", "start")  # round 1, Aria
    ok("act", "Goblin Archer", "Finesse", "--target", "Aria", "--seed", "2")
    ok("act", "Aria", "Finesse", "--seed", "3")
    ok("turn", "end")
    ok("turn", "start")
    ok("turn", "end")
    ok("turn", "start")  # round 2, Aria
    ok("act", "Aria", "Finesse", "--seed", "4", "--note", "round two")
    round_two = ok_json("log", "--round", "2")["entries"]
    assert {entry["round"] for entry in round_two} == {2} and len(round_two) == 2
    aria_acts = ok_json("log", "--creature", "ARIA", "--kind", "act")["entries"]
    assert [entry["seq"] for entry in aria_acts] == [4, 6, 7, 12]  # actor or target, folded (N1)
    lines = log_lines("--round", "2", "--creature", "aria", "--kind", "act")
    assert len(lines) == 1 and lines[0].endswith("; note: round two") and " R2 " in lines[0]
    both = ok_json("log", "--kind", "turn-start", "--kind", "TURN-END")["entries"]
    assert {entry["kind"] for entry in both} == {"turn-start", "turn-end"} and len(both) == 5
    assert log_lines("--round", "9") == ["No change matches."]


def test_log_unknown_kind_lists_the_kinds(encounter_file):
    message = fails(2, encounter_file, "log", "--kind", "attack")
    assert (
        "--kind" in message
        and "'attack'" in message
        and "turn-start" in message
        and "exhaust" in message
    )
    assert "--round" in fails(2, encounter_file, "log", "--round", "-1")


def test_log_lines_stay_one_per_entry_at_80_columns(encounter_file):
    ok("turn", "start")
    result = run("log", env={"COLUMNS": "80"})
    assert result.exit_code == 0
    assert all(line.startswith("#") for line in result.stdout.splitlines())
    assert len(result.stdout.splitlines()) == 3 + 1


def test_log_on_a_file_without_journal_says_nothing_yet(isolated_env, tmp_path):
    from d4cli.fight.encounter_state import Encounter
    from d4cli.fileformat.encounter_toml import dump_encounter

    path = tmp_path / "bare.toml"
    path.write_text(dump_encounter(Encounter(name="Bare")))  # written by hand: no journal
    result = run("log", "-f", str(path))
    assert result.exit_code == 0 and result.stdout == "Nothing in the log yet.\n"


# --- act parity -----------------------------------------------------------------------------


def test_act_gm_skips_the_gate_and_keeps_the_load(encounter_file):
    before = {c["name"]: c["load"] for c in ok_json("status")["creatures"]}
    obj = ok_json("act", "Aria", "Might", "--cost", "9", "--gm", "--seed", "1")
    assert obj["gate_skipped"] is True and obj["allowed"] is True
    assert obj["load_before"] == obj["load_after"] == before["Aria"]
    assert ok_json("status")["creatures"][0]["load"] == before["Aria"]
    ignored = ok_json("act", "Aria", "Might", "--gm", "--ignore-load", "--seed", "1")
    assert ignored["ignore_load"] is True and ignored["pool_size"] == 2


def test_ignore_load_needs_gm(encounter_file):
    assert "--ignore-load" in fails(2, encounter_file, "act", "Aria", "Might", "--ignore-load")
    result = run("roll", "pool", "3", "--ignore-load")
    assert result.exit_code == 2 and "only with --gm" in result.stderr


def test_act_quiet_and_short(encounter_file):
    total = ok("act", "Aria", "Finesse", "--seed", "5", "--quiet").stdout
    assert total.strip().isdigit()
    short = ok("act", "Aria", "Finesse", "--seed", "5", "--short").stdout.splitlines()
    assert len(short) == 1 and short[0].startswith("Aria Finesse (Cost 1, off-turn R10)")
    assert log_lines()[-1].split(" ", 3)[3] == short[0]
    damage = ok(
        "act", "Goblin Archer", "Finesse", "--target", "Aria", "--seed", "1", "--quiet"
    ).stdout
    assert damage.strip() == str(ok_json("log", "--last", "1")["entries"][0]["damage"])


# --- exhaust +N / -N, --aspect ----------------------------------------------------------------


def test_relative_exhaustion(encounter_file):
    assert ok_json("exhaust", "Aria", "+2")["exhaustion_after"] == 2
    assert ok_json("exhaust", "Aria", "-1")["exhaustion_after"] == 1
    assert "would make Exhaustion -1" in fails(2, encounter_file, "exhaust", "Aria", "-2")


@pytest.mark.parametrize("aspect", ["Might=2,Wits=1", "Might=2=3", "Might,Wits=1"])
def test_aspect_with_several_values_is_refused(encounter_file, aspect):
    message = fails(2, encounter_file, "add", "Orc", "--aspect", aspect)
    assert "--aspect" in message and "repeat" in message


# --- --label --------------------------------------------------------------------------------


def test_label_on_roll_pool_and_check():
    pool = json.loads(
        run("roll", "pool", "3", "--seed", "1", "--json", "--label", "Open the door").stdout
    )
    assert pool["label"] == "Open the door"
    assert "label" not in json.loads(run("roll", "pool", "3", "--seed", "1", "--json").stdout)
    check = json.loads(run("roll", "check", "--seed", "1", "--json", "--label", "Climb").stdout)
    assert check["label"] == "Climb"
    assert run("roll", "pool", "3", "--seed", "1", "--label", "Open the door").stdout.startswith(
        "Pool roll: Open the door"
    )
    assert run("roll", "check", "--seed", "1", "--label", "Climb").stdout.startswith("Climb\n")
    lines = run("roll", "pool", "3", "--times", "3", "--json", "--label", "x").stdout.splitlines()
    assert [json.loads(line)["label"] for line in lines] == ["x", "x", "x"]


# --- JSON Lines -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra", [[], ["--dc", "9"], ["--evasion", "8"], ["--adv", "a", "--label", "x"]]
)
def test_json_lines_are_the_objects_of_the_rolls(extra):
    single = json.loads(run("roll", "pool", "4", "--seed", "11", "--json", *extra).stdout)
    lines = run(
        "roll", "pool", "4", "--times", "5000", "--seed", "11", "--json", *extra
    ).stdout.splitlines()
    objects = [json.loads(line) for line in lines]
    assert (
        len(objects) == 5000 and objects[0] == single
    )  # the first roll is the one --seed alone gives
    keys = list(single)
    for obj in objects:
        assert list(obj) == keys
        total = sum(obj["dice"])
        assert obj["total"] == total and len(obj["dice"]) == single["pool_size"]
        assert obj["success"] == (None if obj["dc"] is None else total >= obj["dc"])
        assert obj["damage"] == (None if obj["evasion"] is None else max(0, total - obj["evasion"]))
        fixed = {k: v for k, v in obj.items() if k not in ("dice", "total", "success", "damage")}
        assert fixed == {
            k: v for k, v in single.items() if k not in ("dice", "total", "success", "damage")
        }
    assert len({tuple(obj["dice"]) for obj in objects}) > 50


def test_json_lines_quiet_and_summary_agree_for_a_seed():
    args = ("roll", "pool", "4", "--times", "300", "--seed", "5")
    totals = [json.loads(line)["total"] for line in run(*args, "--json").stdout.splitlines()]
    assert run(*args, "--quiet").stdout.split() == [str(total) for total in totals]
    with_extra = ("roll", "pool", "4", "--extra", "1d6", "--times", "300", "--seed", "5")
    totals = [json.loads(line)["total"] for line in run(*with_extra, "--json").stdout.splitlines()]
    assert run(*with_extra, "--quiet").stdout.split() == [str(total) for total in totals]


# --- status past the terminal's height ------------------------------------------------------


def test_status_prints_one_line_per_creature_past_the_height(encounter_file):
    table = run("status", env={"LINES": "40"}).stdout
    assert "┃ Creature" in table
    lines = run("status", env={"LINES": "5"}).stdout.splitlines()
    assert lines[0] == "Test: not started, turn mode"
    assert lines[1].startswith("Aria: Load ") and "HP 12" in lines[1] and "Evasion 11" in lines[1]
    assert lines[2].startswith("Goblin Archer: ") and "Cost 1? yes: Finesse" in lines[2]
    assert len(lines) == 4 and lines[3].startswith("No turn running")
