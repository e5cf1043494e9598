"""The encounter commands through CliRunner: JSON keys, exit codes 0/2/3, files unchanged on error.

conftest's autouse fixture points D4CLI_FILE at a temp folder, so no test touches real files.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from _cli import fails, files, ok, ok_json, run
from _reliability import lock_held_elsewhere

from d4cli.fileformat.encounter_toml import bundled_examples

POOL_KEYS = {
    "kind",
    "aspect",
    "load",
    "cost",
    "allowed",
    "headroom",
    "advantage",
    "disadvantage",
    "net_advantage",
    "pool_size",
    "dice",
    "extra",
    "total",
    "dc",
    "success",
    "evasion",
    "damage",
}
ACT_KEYS = POOL_KEYS | {"actor", "target", "load_before", "load_after", "off_turn", "hp_after"}
CREATURE_KEYS = {
    "name",
    "aspects",
    "load",
    "buffer",
    "exhaustion",
    "evasion",
    "hp",
    "headroom",
    "pending",
    "effects",
}


# --- init ---------------------------------------------------------------------------------


def test_init_creates_an_empty_turn_mode_encounter(isolated_env):
    obj = ok_json("init")
    assert obj == {
        "kind": "init",
        "file": os.environ["D4CLI_FILE"],
        "round": 0,
        "turn": None,
        "name": "encounter",
        "mode": "turn",
        "round_reset": "buffer",
        "from": None,
        "creatures": 0,
    }
    status = ok_json("status")
    assert status["round"] == 0 and status["mode"] == "turn" and status["creatures"] == []


def test_init_refuses_an_existing_file_without_force(encounter_file):
    line = fails(2, encounter_file, "init")
    assert "--force" in line
    ok("init", "--force", "--mode", "round")
    assert ok_json("status")["mode"] == "round"
    assert [e["kind"] for e in ok_json("log")["entries"]] == ["init"]


def test_init_from_a_bundled_example_copies_it_verbatim(isolated_env):
    ok("init", "--from", "skirmish")
    path = Path(os.environ["D4CLI_FILE"])
    assert path.read_bytes() == bundled_examples()["skirmish"].read_bytes()
    names = [c["name"] for c in ok_json("status")["creatures"]]
    assert "Goblin Archer" in names


def test_init_from_a_path_and_with_a_changed_mode(isolated_env, tmp_path):
    ok("init", "--from", str(bundled_examples()["duel"]), "--file", "copy.toml")
    assert ok_json("status", "--file", "copy.toml")["mode"] == "round"
    result = ok("init", "--from", "skirmish", "--mode", "round", "-f", "changed.toml")
    assert "comments" in result.stdout
    assert ok_json("status", "-f", "changed.toml")["mode"] == "round"


def test_init_bad_values(isolated_env):
    path = Path(os.environ["D4CLI_FILE"])
    assert "'nope'" in fails(2, path, "init", "--from", "nope")
    assert "--mode" in fails(2, path, "init", "--mode", "rounds")
    assert not path.exists()


# --- add / remove / exhaust ----------------------------------------------------------------


def test_add_json_and_status(encounter_file):
    obj = ok_json("add", "Borin", "--aspect", "Might=4", "--buffer", "2", "--exhaustion", "1")
    assert obj["kind"] == "add" and obj["actor"] == "Borin" and obj["load_after"] == -1
    borin = ok_json("status")["creatures"][-1]
    assert CREATURE_KEYS <= borin.keys()
    assert borin == {
        **borin,
        "name": "Borin",
        "aspects": {"Might": 4},
        "load": -1,
        "buffer": 2,
        "exhaustion": 1,
        "evasion": 0,
        "hp": None,
        "headroom": {"Might": 5},
        "pending": {"advantage": [], "disadvantage": []},
    }


@pytest.mark.parametrize("aspect", ["Might=x", "=3", "Might", "Might=3.0", "Might=", "Might=5000"])
def test_add_bad_aspect_values(encounter_file, aspect):
    line = fails(2, encounter_file, "add", "Borin", "--aspect", aspect)
    assert "--aspect" in line and repr(aspect) in line


def test_add_duplicate_name_and_bad_numbers(encounter_file):
    assert "'goblin  archer'" in fails(
        2, encounter_file, "add", "goblin  archer", "--aspect", "Might=1"
    )
    assert "--exhaustion" in fails(
        2, encounter_file, "add", "Borin", "--aspect", "Might=1", "--exhaustion", "-1"
    )
    assert "--hp" in fails(2, encounter_file, "add", "Borin", "--aspect", "Might=1", "--hp", "true")
    # no --aspect (and no --like to copy Aspects from): the line names --aspect
    assert "--aspect: Borin needs at least one Aspect" in fails(2, encounter_file, "add", "Borin")


def test_remove_and_exhaust(encounter_file):
    ok("turn", "start", "Goblin Archer")
    obj = ok_json("remove", "goblin archer")
    assert obj["kind"] == "remove" and obj["actor"] == "Goblin Archer" and obj["ended_turn"] is True
    assert ok_json("status")["current"] is None
    assert "'Nobody'" in fails(2, encounter_file, "remove", "Nobody")
    obj = ok_json("exhaust", "Aria", "2")
    assert (obj["exhaustion_after"], obj["reset_value"], obj["load_after"]) == (2, 1, -1)
    # +N / -N change the level; below 0 is a range error naming LEVEL.
    assert ok_json("exhaust", "Aria", "-1")["exhaustion_after"] == 1
    assert ok_json("exhaust", "Aria", "+2")["exhaustion_after"] == 3
    assert "would make Exhaustion -1" in fails(2, encounter_file, "exhaust", "Aria", "-4")
    assert "'Zed'" in fails(2, encounter_file, "exhaust", "Zed", "1")


# --- status -------------------------------------------------------------------------------


def test_status_table_marks_the_turn_and_who_can_act(encounter_file):
    ok("turn", "start")
    ok("act", "Goblin Archer", "Finesse", "--cost", "4", "--seed", "1")
    out = ok("status").stdout
    assert "Test: round 1, turn mode" in out
    aria_row = next(line for line in out.splitlines() if "Aria" in line)
    goblin_row = next(line for line in out.splitlines() if "Goblin Archer" in line)
    assert "now" in aria_row and "yes: Finesse, Might" in aria_row
    assert (
        "next" in goblin_row and "no" in goblin_row and "Finesse: 0 left (Aspect 3)" in goblin_row
    )


def test_a_name_with_control_characters_is_refused_shown_escaped(encounter_file):
    before = encounter_file.read_bytes()
    line = fails(2, encounter_file, "add", "Evil\x1b[31mRed", "--aspect", "Might=1")
    assert "\x1b" not in line and "NAME: 'Evil\\x1b[31mRed'" in line and "(N1)" in line
    assert encounter_file.read_bytes() == before


def test_status_missing_and_damaged_file(isolated_env):
    path = Path(os.environ["D4CLI_FILE"])
    line = fails(2, path, "status")
    assert str(path) in line and "init" in line
    path.write_text(
        "schema_version = 1\nmode = 'turn'\nround = 0\n[[creature]]\nname = 'X'\naspects = {}\nload_bufer = 1\n"
    )
    line = fails(2, path, "status")
    assert "creature 'X': load_bufer: unknown key" in line


# --- turns --------------------------------------------------------------------------------


def test_turn_start_end_cycle(encounter_file):
    obj = ok_json("turn", "start")
    assert (obj["kind"], obj["round"], obj["turn"], obj["new_round"]) == (
        "turn-start",
        1,
        "Aria",
        True,
    )
    obj = ok_json("turn", "end")
    assert (obj["kind"], obj["actor"], obj["next"]) == ("turn-end", "Aria", "Goblin Archer")
    ok("turn", "start")
    obj = ok_json("turn", "start")  # ends the Goblin's turn, wraps to round 2
    assert (obj["round"], obj["turn"], obj["ended"]) == (2, "Aria", "Goblin Archer")
    assert "'Zed'" in fails(2, encounter_file, "turn", "start", "Zed")
    ok("turn", "end")
    assert "no turn is running" in fails(2, encounter_file, "turn", "end")


# --- act ----------------------------------------------------------------------------------


def test_act_json_has_the_contract_keys_and_changes_the_file(encounter_file):
    ok("turn", "start")
    obj = ok_json(
        "act", "aria", "finesse", "--extra", "1d4", "--target", "Goblin Archer", "--seed", "7"
    )
    assert ACT_KEYS <= obj.keys()
    assert (obj["actor"], obj["target"], obj["off_turn"]) == ("Aria", "Goblin Archer", False)
    assert (obj["load_before"], obj["load_after"], obj["evasion"]) == (-1, 0, 10)
    assert obj["total"] == sum(obj["dice"]) + sum(obj["extra"][0]["dice"])
    assert obj["damage"] == max(0, obj["total"] - 10)
    assert obj["hp_after"] == max(0, 7 - obj["damage"])
    status = ok_json("status")
    assert status["creatures"][0]["load"] == 0 and status["creatures"][1]["hp"] == obj["hp_after"]
    entry = ok_json("log", "--last", "1")["entries"][0]
    assert (
        entry["kind"] == "act" and entry["dice"] == obj["dice"] and entry["total"] == obj["total"]
    )


def test_act_off_turn_reaction(encounter_file):
    ok("turn", "start")  # Aria's turn
    obj = ok_json("act", "Goblin Archer", "Finesse", "--dc", "5", "--seed", "1")
    assert (
        obj["off_turn"] is True
        and obj["dc"] == 5
        and obj["target"] is None
        and obj["hp_after"] is None
    )


def test_act_refused_exits_3_prints_json_and_changes_nothing(encounter_file):
    before = files(encounter_file)
    result = run("act", "Aria", "Might", "--cost", "4", "--json")
    assert result.exit_code == 3
    obj = json.loads(result.stdout)
    assert obj["allowed"] is False and obj["dice"] == [] and obj["total"] is None
    assert (obj["load_before"], obj["load_after"]) == (-1, -1)
    assert "short by 1" in result.stderr
    assert files(encounter_file) == before
    table = run("act", "Aria", "Might", "--cost", "4")
    assert table.exit_code == 3 and "short by 1" in table.stdout


def test_act_dry_run_and_seed_repeat(encounter_file):
    before = files(encounter_file)
    first = ok_json("act", "Aria", "Finesse", "--dry-run", "--seed", "42")
    again = ok_json("act", "Aria", "Finesse", "--dry-run", "--seed", "42")
    assert first["dice"] == again["dice"] and first["dry_run"] is True
    assert files(encounter_file) == before
    real = ok_json("act", "Aria", "Finesse", "--seed", "42")
    assert real["dice"] == first["dice"]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("act", "Nobody", "Might"), "'Nobody'"),
        (("act", "Aria", "Charm"), "'Charm'"),
        (("act", "Aria", "Might", "--cost", "-1"), "--cost"),
        (("act", "Aria", "Might", "--target", "Nobody"), "--target: 'Nobody'"),
        (("act", "Aria", "Might", "--dc", "5", "--evasion", "3"), "at most one"),
        (("act", "Aria", "Might", "--extra", "0d8"), "'0d8'"),
        (("act", "Aria", "Might", "--seed", "x"), "--seed"),
    ],
)
def test_act_bad_input(encounter_file, args, expected):
    assert expected in fails(2, encounter_file, *args)


# --- team ---------------------------------------------------------------------------------


def test_team_grant_used_by_the_next_act(encounter_file):
    obj = ok_json("team", "Goblin Archer", "Aria", "--adv", "--source", "Watch My Back")
    assert (obj["kind"], obj["grant"], obj["source"], obj["load_after"]) == (
        "team",
        "advantage",
        "Watch My Back",
        0,
    )
    aria = ok_json("status")["creatures"][0]
    assert aria["pending"] == {"advantage": ["Watch My Back"], "disadvantage": []}
    act = ok_json("act", "Aria", "Finesse", "--adv", "watch my back", "--seed", "3")
    assert (
        act["advantage"] == ["watch my back"]
        and act["net_advantage"] == 1
        and act["pool_size"] == 5
    )
    assert ok_json("status")["creatures"][0]["pending"] == {"advantage": [], "disadvantage": []}


def test_team_dry_run_shows_the_grant_and_writes_nothing(encounter_file):
    before = files(encounter_file)
    obj = ok_json("team", "Goblin Archer", "Aria", "--adv", "--dry-run")
    assert (obj["kind"], obj["grant"], obj["load_after"], obj["dry_run"]) == (
        "team",
        "advantage",
        0,
        True,
    )
    assert (
        "(dry run: nothing was written)"
        in ok("team", "Goblin Archer", "Aria", "--adv", "--dry-run").stdout
    )
    assert files(encounter_file) == before
    assert ok_json("status")["creatures"][0]["pending"] == {"advantage": [], "disadvantage": []}
    result = run("team", "Goblin Archer", "Aria", "--dis", "--cost", "5", "--dry-run")
    assert result.exit_code == 3 and "short by 1" in result.stderr
    assert files(encounter_file) == before


def test_team_errors_and_refusal(encounter_file):
    assert "not the actor itself" in fails(
        2, encounter_file, "team", "Aria", "aria", "--adv", "--aspect", "Might"
    )
    assert "--adv" in fails(2, encounter_file, "team", "Aria", "Goblin Archer")
    assert "--aspect" in fails(2, encounter_file, "team", "Aria", "Goblin Archer", "--dis")
    before = files(encounter_file)
    result = run("team", "Goblin Archer", "Aria", "--dis", "--cost", "5", "--json")
    assert result.exit_code == 3 and json.loads(result.stdout)["allowed"] is False
    assert "short by 1" in result.stderr
    assert files(encounter_file) == before


# --- log / undo ---------------------------------------------------------------------------


def test_log_oldest_first_and_last(encounter_file):
    ok("turn", "start")
    ok("act", "Aria", "Finesse", "--seed", "1")
    entries = ok_json("log")["entries"]
    assert [e["kind"] for e in entries] == ["init", "add", "add", "turn-start", "act"]
    assert all("time" in e and "prev" not in e for e in entries)
    assert ok_json("log", "--last", "2")["entries"] == entries[-2:]
    assert "--last" in fails(2, encounter_file, "log", "--last", "0")
    assert "Aria" in ok("log").stdout


@pytest.mark.parametrize("json_", [[], ["--json"]], ids=["table", "json"])
def test_log_validates_the_file_like_every_read(encounter_file, json_):
    """docs/cli.md: "The encounter file is validated on every read": `log` too (exit 2, one line)."""
    ok("turn", "start")
    encounter_file.write_text(encounter_file.read_text().replace("load_buffer", "load_bufer", 1))
    line = fails(2, encounter_file, "log", *json_)
    assert (
        line.startswith("d4cli: error: ") and str(encounter_file) in line and "load_bufer" in line
    )
    ok("undo")  # undo still rescues the hand edit
    assert ok_json("log")["entries"][-1]["kind"] == "add"


def test_a_file_saved_with_a_byte_order_mark_is_read_and_undone_exactly(encounter_file):
    """Windows Notepad starts a UTF-8 file with a BOM; it is accepted, and undo gives its bytes back."""
    marked = b"\xef\xbb\xbf" + encounter_file.read_bytes()
    encounter_file.write_bytes(marked)
    assert [c["name"] for c in ok_json("status")["creatures"]] == ["Aria", "Goblin Archer"]
    ok("turn", "start")
    assert ok_json("log")["entries"][-1]["kind"] == "turn-start"
    ok("undo")
    assert encounter_file.read_bytes() == marked


def test_undo_restores_bytes_then_nothing_to_undo(encounter_file):
    states = [encounter_file.read_bytes()]
    ok("turn", "start")
    states.append(encounter_file.read_bytes())
    ok("act", "Aria", "Finesse", "--target", "Goblin Archer", "--seed", "1")
    obj = ok_json("undo")
    assert obj["kind"] == "undo" and obj["undone"]["kind"] == "act"
    assert encounter_file.read_bytes() == states[1]
    ok("undo")
    assert encounter_file.read_bytes() == states[0]
    ok("undo")
    ok("undo")
    assert ok_json("status")["creatures"] == []
    assert "nothing to undo" in fails(2, encounter_file, "undo")


def test_lock_held_elsewhere_is_exit_2_with_one_line(encounter_file):
    with lock_held_elsewhere(Path(str(encounter_file) + ".lock")):
        before = files(encounter_file)
        result = run("act", "Aria", "Finesse", env={"D4CLI_LOCK_TIMEOUT": "0.2"})
        assert result.exit_code == 2 and result.stdout == ""
        assert (
            result.stderr.count("\n") == 1
            and "could not get the lock within 0.2 s" in result.stderr
        )
        assert files(encounter_file) == before


def test_file_option_wins_over_env(encounter_file, tmp_path):
    other = tmp_path / "other.toml"
    ok("init", "--file", str(other))
    ok("add", "Solo", "--aspect", "Might=1", "-f", str(other))
    assert [c["name"] for c in ok_json("status", "-f", str(other))["creatures"]] == ["Solo"]
    assert len(ok_json("status")["creatures"]) == 2


def test_every_encounter_command_has_help():
    for command in (
        ["init"],
        ["add"],
        ["remove"],
        ["status"],
        ["turn", "start"],
        ["turn", "end"],
        ["act"],
        ["team"],
        ["exhaust"],
        ["log"],
        ["undo"],
        ["move"],
        ["damage"],
        ["heal"],
    ):
        result = ok(*command, "--help")
        assert "--file" in result.stdout and "Example:" in result.stdout


# --- the example script -------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_play_a_round_script(tmp_path):
    script = Path(__file__).resolve().parents[2] / "examples" / "play-a-round.sh"
    env = {**os.environ, "D4CLI": f"{sys.executable} -m d4cli", "TMPDIR": str(tmp_path)}
    env.pop("D4CLI_FILE", None)
    done = subprocess.run(
        ["bash", str(script)], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "refused by the gate (R2)" in done.stderr
    assert "refused (R18): Goblin Brute is down" in done.stderr
    assert (
        "everyone has had a turn in round 1: the next turn start begins round 2 (R19)"
        in " ".join(done.stdout.split())
    )
    assert "Goblin Brute heals 4: HP 0 -> 4 of 10 (back in the turn order, R18)" in done.stdout
    assert "Goblin Archer is down: skipped (R18); Goblin Brute's turn" in done.stdout
    last = json.loads(done.stdout.strip().splitlines()[-1])
    assert [e["kind"] for e in last["entries"]] == ["turn-start", "turn-start"]
    assert last["entries"][-1]["skipped"] == ["Goblin Archer"]


# --- what a change may never write ------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["1_000", "+1", "0x10", "0o17", "0b11"])
def test_file_numbers_must_be_plain_l3(encounter_file, spelling):
    text = encounter_file.read_text().replace("load_buffer = 1", f"load_buffer = {spelling}", 1)
    encounter_file.write_text(text)
    line = fails(2, encounter_file, "status")
    assert spelling in line and "(L3)" in line and "line " in line


def test_a_creature_needs_an_aspect(encounter_file):
    import re

    text = encounter_file.read_text()
    # Empty Aria's [creature.aspects] table: keep its header, drop its lines.
    emptied = re.sub(r"(\[creature\.aspects\]\n)(?:[^\n\[]+\n)+", r"\1", text, count=1)
    assert emptied != text
    encounter_file.write_text(emptied)
    line = fails(2, encounter_file, "status")
    assert "creature 'Aria': aspects" in line and "at least one Aspect" in line


def test_a_change_that_would_overflow_the_round_writes_nothing(encounter_file):
    ok("turn", "start", "Goblin Archer")
    ok("turn", "start")  # Aria: now everyone has had a turn, the next one starts a round (R19)
    text = encounter_file.read_text()
    encounter_file.write_text(text.replace("round = 1\n", "round = 1000000\n", 1))
    line = fails(2, encounter_file, "turn", "start")
    assert "round: 1000001" in line and "nothing was written" in line


def test_a_change_that_would_pass_1_mb_writes_nothing(encounter_file, monkeypatch):
    import d4cli.store.files

    monkeypatch.setattr(d4cli.store.files, "MAX_FILE_BYTES", len(encounter_file.read_bytes()) + 100)
    line = fails(
        2, encounter_file, "add", "N" * 200, "--aspect", "Might=1"
    )  # a name has <= 200 (N1)
    assert "larger than 1 MB" in line and "nothing was written" in line
    ok("status")
