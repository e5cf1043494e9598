"""Faults found in use, each fixed for its whole kind: UTF-8 arguments under a C locale (N1),
the owner of a file changed by root, a damaged journal line in the history, the reset value
of round mode's zero reset (R12), effect rounds counted after a round is over (R20), the
length of names (N1), and DC tiers in the file (C2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from _cli import ok, run
from _reliability import snapshot, subprocess_env

from d4cli.cli.argv import recover_args, recover_utf8
from d4cli.rules.names import MAX_NAME_LENGTH
from d4cli.store.files import journal_path, lock_path, redo_path

# --- UTF-8 arguments under a C/POSIX locale (N1) ----------------------------------------------

C_LOCALE = {
    "LC_ALL": "C",
    "LANG": "C",
    "PYTHONUTF8": "0",
    "PYTHONCOERCECLOCALE": "0",
    "PYTHONIOENCODING": "",
}


def run_bytes(*argv: bytes, cwd: Path) -> subprocess.CompletedProcess:
    """``python -m d4cli ARGV`` with byte arguments, under the C locale without UTF-8 mode."""
    env = subprocess_env(**C_LOCALE)
    env.pop("D4CLI_FILE", None)
    return subprocess.run(
        [sys.executable.encode(), b"-m", b"d4cli", *argv],
        capture_output=True,
        env=env,
        cwd=cwd,
        check=False,
        timeout=60,
    )


def test_recover_utf8_reads_surrogate_escaped_utf8_and_keeps_other_bytes():
    assert recover_utf8("Zo\udcc3\udcab") == "Zoë"
    assert recover_utf8("\udcf0\udc9f\udc90\udc89 Dragon") == "\U0001f409 Dragon"
    assert (
        recover_utf8("Bad\udc9bName") == "Bad\udc9bName"
    )  # not UTF-8: left for check_text to refuse
    assert recover_utf8("Zoë") == "Zoë"


def test_recover_args_leaves_file_paths_as_given():
    zoe = "Zo\udcc3\udcab"
    assert recover_args(
        [
            "add",
            zoe,
            "--file",
            zoe,
            f"--file={zoe}",
            "-f",
            zoe,
            f"-f{zoe}",
            "--from",
            zoe,
            "--note",
            zoe,
        ]
    ) == [
        "add",
        "Zoë",
        "--file",
        zoe,
        f"--file={zoe}",
        "-f",
        zoe,
        f"-f{zoe}",
        "--from",
        zoe,
        "--note",
        "Zoë",
    ]


@pytest.mark.slow
def test_utf8_arguments_under_the_c_locale_are_the_names_typed(tmp_path):
    assert run_bytes(b"init", cwd=tmp_path).returncode == 0
    out = run_bytes(b"add", "Zoë".encode(), b"--aspect", "Mïght=3".encode(), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    ok("add", "🐉 Dragon", "--aspect", "🔥=5", file=tmp_path / "encounter.toml")
    # The same names typed under the C locale match what a UTF-8 terminal wrote.
    act = run_bytes(
        b"act",
        "🐉 Dragon".encode(),
        "🔥".encode(),
        b"--adv",
        "Zoë's help".encode(),
        b"--note",
        "déjà vu".encode(),
        b"--json",
        cwd=tmp_path,
    )
    assert act.returncode == 0, act.stderr
    result = json.loads(act.stdout)
    assert (result["actor"], result["aspect_name"], result["advantage"]) == (
        "🐉 Dragon",
        "🔥",
        ["Zoë's help"],
    )
    assert (
        json.loads(run_bytes(b"log", b"--last", b"1", b"--json", cwd=tmp_path).stdout)["entries"][
            0
        ]["note"]
        == "déjà vu"
    )
    status = json.loads(run_bytes(b"status", "zoë".encode(), b"--json", cwd=tmp_path).stdout)
    assert status["name"] == "Zoë" and status["aspects"] == {"Mïght": 3}


@pytest.mark.slow
def test_bytes_that_are_not_utf8_are_refused_truthfully(tmp_path):
    assert run_bytes(b"init", cwd=tmp_path).returncode == 0
    before = snapshot(tmp_path)
    out = run_bytes(b"add", b"Bad\x9bName", b"--aspect", b"M=1", cwd=tmp_path)
    assert (out.returncode, out.stdout) == (2, b"")
    assert out.stderr.decode("ascii").splitlines() == [
        "d4cli: error: NAME: 'Bad\\x9bName': holds bytes that are not UTF-8 text"
    ]
    assert snapshot(tmp_path) == before


# --- the owner of a file changed by another user ----------------------------------------------

needs_root = pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root")
NOBODY = 65534


@needs_root
def test_a_change_made_by_root_keeps_the_owner_of_the_file_and_its_side_files(tmp_path):
    ok("init", "--from", "skirmish")
    path = tmp_path / "encounter.toml"
    os.chown(path, NOBODY, NOBODY)
    os.unlink(journal_path(path))  # made anew by the change below: it must be the owner's too
    os.unlink(lock_path(path))
    ok("turn", "start")
    ok("undo")  # writes the redo file
    for target in (path, journal_path(path), lock_path(path), redo_path(path)):
        assert (target.stat().st_uid, target.stat().st_gid) == (NOBODY, NOBODY), target
    ok("redo")
    ok("act", "Aria", "Finesse")
    for target in (path, journal_path(path), lock_path(path)):
        assert (target.stat().st_uid, target.stat().st_gid) == (NOBODY, NOBODY), target


UNPRIVILEGED = """
import os, sys
import difflib, hashlib, json, re, tempfile, tomllib, tomli_w, pwd
import d4cli.cli.app, d4cli.cli.commands.encounter, d4cli.cli.commands.turn, d4cli.fileformat.encounter_toml
import d4cli.cli.settings, d4cli.output.render.entry_lines, d4cli.store.history, d4cli.store.transaction
from d4cli.cli.main import main
os.setgid(65534); os.setuid(65534)
sys.argv = ["d4cli"] + sys.argv[1:]
main()
"""


@pytest.mark.slow
@needs_root
def test_a_file_another_user_owns_is_refused_naming_the_owner_not_chmod():
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="d4cli-owner-"))  # outside pytest's private 0700 tree
    try:
        os.chmod(folder, 0o777)
        target = folder / "encounter.toml"
        assert run("init", "--from", "skirmish", file=target).exit_code == 0
        os.chmod(lock_path(target), 0o666)
        before = target.read_bytes()
        env = {
            **os.environ,
            "D4CLI_FILE": str(target),
            "NO_COLOR": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        out = subprocess.run(
            [sys.executable, "-c", UNPRIVILEGED, "turn", "start"],
            capture_output=True,
            text=True,
            env=env,
            check=False,
            cwd=folder,
        )
        if "ModuleNotFoundError" in out.stderr or "PermissionError" in out.stderr:
            pytest.skip("the test interpreter is not readable by an unprivileged user")
        assert out.returncode == 2, out.stderr
        assert out.stderr.splitlines() == [
            f"d4cli: error: {target}: the file is read-only for this user: it belongs to root; nothing was "
            "changed (run d4cli as root, or ask them to give it back with chown)"
        ]
        assert target.read_bytes() == before
    finally:
        shutil.rmtree(folder)


# --- a damaged journal line: the change warns, log shows both sides ---------------------------


def test_a_torn_last_line_that_is_not_a_crash_is_named_by_the_change_and_skipped_by_log(tmp_path):
    ok("init", "--from", "skirmish")
    ok("turn", "start")
    ok("act", "Aria", "Finesse")
    ok("act", "Aria", "Wits")
    journal = journal_path(tmp_path / "encounter.toml")
    data = journal.read_bytes()
    journal.write_bytes(data[:-40])
    act = ok("act", "Borin", "Might")
    assert act.stderr.splitlines() == [
        f"d4cli: warning: {journal}: line 4 is damaged; the file is newer than the history: this change was "
        "recorded after it; 'log' skips it and 'undo' cannot go back past it"
    ]
    log = ok("log", "--json")
    assert [(e["seq"], e["kind"]) for e in log.json()["entries"]] == [
        (1, "init"),
        (2, "turn-start"),
        (3, "act"),
        (5, "act"),
    ]
    assert log.stderr.splitlines() == [
        f"d4cli: warning: {journal}: line 4 is damaged (not a journal entry): skipped; 'undo' cannot go back past it"
    ]
    assert ok("log").stdout.count("\n") == 4
    ok("undo")  # the change after the damage stands and can be undone ...
    refused = run("undo")  # ... but not the damaged one
    assert refused.exit_code == 2 and "line 4 is damaged" in refused.stderr


# --- round mode's zero reset reports 0 (R12) -------------------------------------------------


def test_round_mode_zero_reset_reports_the_value_it_resets_to():
    ok("init", "--from", "skirmish", "--mode", "round", "--round-reset", "zero")
    assert [c["reset_value"] for c in ok("status", "--json").json()["creatures"]] == [0, 0, 0, 0]
    assert ok("status", "Aria", "--json").json()["reset_value"] == 0
    assert "resets to 0)" in ok("status", "Aria").stdout
    exhaust = ok("exhaust", "Goblin Brute", "+3", "--json").json()
    assert exhaust["reset_value"] == 0
    assert "resets to 0 (R15)" in ok("exhaust", "Goblin Brute", "+1").stdout
    ok("turn", "start")
    assert [c["load"] for c in ok("status", "--json").json()["creatures"]] == [0, 0, 0, 0]


def test_buffer_reset_reports_exhaustion_less_the_buffer():
    ok("init", "--from", "skirmish", "--mode", "round")
    values = [c["reset_value"] for c in ok("status", "--json").json()["creatures"]]
    assert values == [-1, -2, -1, 1]
    assert "resets to -1)" in ok("status", "Aria").stdout


# --- effect rounds counted from the running round after its last turn end (R19, R20) ----------------------


def _round_over() -> None:
    ok("init")
    ok("add", "A", "--aspect", "M=3")
    ok("add", "B", "--aspect", "M=3")
    for _ in range(2):
        ok("turn", "start")
        ok("turn", "end")


@pytest.mark.parametrize(
    ("rounds", "words", "after"),
    [
        ("1", "1 round left (until the end of round 1)", None),
        ("3", "3 rounds left (until the end of round 3)", "until the end of round 3"),
    ],
)
def test_effect_rounds_added_after_the_last_turn_end_count_the_running_round(rounds, words, after):
    """R19/R20 as amended: after the last turn end the round is still running, so an
    effect's rounds count from it; the turn start that begins the next round ends round 1."""
    _round_over()
    assert (
        ok("effect", "add", "A", "after", "--adv", "--rounds", rounds).stdout
        == f"A: after +1d4, {words} (R20)\n"
    )
    assert words in ok("effect", "list").stdout
    assert words in ok("status").stdout
    ok("turn", "start")  # round 2 begins: round 1 has ended
    listed = ok("effect", "list").stdout
    assert ("after" in listed) is (after is not None)
    if after is not None:
        assert after in listed


def test_effect_rounds_added_inside_a_round_count_the_running_round():
    ok("init")
    ok("add", "A", "--aspect", "M=3")
    ok("add", "B", "--aspect", "M=3")
    ok("turn", "start")
    out = ok("effect", "add", "A", "now", "--adv", "--rounds", "1").stdout
    assert out == "A: now +1d4, 1 round left (until the end of round 1) (R20)\n"


# --- one length limit for every name (N1) -----------------------------------------------------

LONG = "x" * (MAX_NAME_LENGTH + 1)
LONGEST = "y" * MAX_NAME_LENGTH


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["add", LONG, "--aspect", "M=1"], "NAME"),
        (["add", "Z", "--aspect", f"{LONG}=1"], "--aspect"),
        (["add", "Z", "--aspect", "M=1", "--attribute", f"{LONG}=1"], "--attribute"),
        (["add", "Z", "--aspect", "M=1", "--side", LONG], "--side"),
        (["act", "Aria", "Finesse", "--adv", LONG], "--adv"),
        (["effect", "add", "Aria", LONG, "--adv"], "SOURCE"),
        (["action", "add", "Aria", LONG, "--aspect", "Finesse"], "ACTION"),
        (["roll", "pool", "3", "--dis", LONG], "--dis"),
    ],
)
def test_a_name_longer_than_the_limit_is_refused_everywhere(argv, field, tmp_path):
    ok("init", "--from", "skirmish")
    before = snapshot(tmp_path)
    out = run(*argv)
    assert (out.exit_code, out.stdout) == (2, "")
    assert (
        f"is {MAX_NAME_LENGTH + 1} characters long (after NFC normalisation): a name has at most {MAX_NAME_LENGTH} (N1)"
        in out.stderr
    )
    assert LONG not in out.stderr and len(out.stderr.splitlines()) == 1, out.stderr
    assert field in out.stderr
    assert snapshot(tmp_path) == before


def test_a_name_of_the_limit_is_accepted():
    ok("init")
    ok("add", LONGEST, "--aspect", f"{LONGEST[:-1]}z=1", "--side", LONGEST)
    assert ok("status", LONGEST, "--json").json()["name"] == LONGEST


@pytest.mark.parametrize(
    "old",
    ['name = "Aria"', "Finesse = 4", 'side = "party"', '[[creature.actions]]\nname = "dagger"'],
)
def test_a_name_longer_than_the_limit_in_the_file_is_refused(old, tmp_path):
    ok("init", "--from", "skirmish")
    path = tmp_path / "encounter.toml"
    text = path.read_text()
    assert old in text
    new = (
        old.replace("Aria", LONG)
        .replace("Finesse", LONG)
        .replace("party", LONG)
        .replace("dagger", LONG)
    )
    path.write_text(text.replace(old, new, 1))
    out = run("status")
    assert out.exit_code == 2 and len(out.stderr.splitlines()) == 1, out.stderr
    assert (
        f"a name has at most {MAX_NAME_LENGTH} (N1)" in out.stderr
        or f"at most {MAX_NAME_LENGTH} characters" in out.stderr
    )


# --- DC tiers in the file (C2) -----------------------------------------------------------------


def test_an_action_dc_in_the_file_may_be_a_tier(tmp_path):
    ok("init", "--from", "skirmish")
    path = tmp_path / "encounter.toml"
    text = path.read_text()
    assert "dc = 10" in text
    path.write_text(text.replace("dc = 10", 'dc = "Hard"', 1))
    sneak = next(
        a for a in ok("status", "Aria", "--json").json()["actions"] if a["name"] == "sneak"
    )
    assert sneak["dc"] == 18
    assert ok("act", "Aria", "sneak", "--json").json()["dc"] == 18
    assert "dc = 18" in path.read_text()  # a tier is kept as its number, as `--dc hard` keeps it


def test_action_add_keeps_a_tier_as_its_number(tmp_path):
    ok("init", "--from", "skirmish")
    ok("action", "add", "Borin", "shove", "--aspect", "Might", "--dc", "challenging")
    assert "dc = 24" in (tmp_path / "encounter.toml").read_text()


def test_an_unknown_tier_in_the_file_is_refused_naming_the_tiers(tmp_path):
    ok("init", "--from", "skirmish")
    path = tmp_path / "encounter.toml"
    path.write_text(path.read_text().replace("dc = 10", 'dc = "bogus"', 1))
    out = run("status")
    assert out.exit_code == 2
    assert out.stderr.strip().endswith(
        "actions.sneak.dc: 'bogus': must be a whole number or one of easy, medium, hard, challenging, "
        "nearly-impossible (C2)"
    )
