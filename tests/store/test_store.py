"""The encounter file and its journal (d4cli.fileformat.encounter_toml, d4cli.store).

Validation messages name the file, the creature and the field; every error
leaves the file and the journal byte-for-byte unchanged; undo restores bytes
20+ deep; a journal entry whose change never reached the file is dropped.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _cli import files as snapshot  # every file of the encounter's folder but the lock
from _reliability import lock_held_elsewhere
from _store import change
from hypothesis import given, settings
from hypothesis import strategies as st

from d4cli import store
from d4cli.cli.exit_codes import exit_code_of
from d4cli.cli.settings import lock_timeout, resolve_path
from d4cli.fight.actions import ActRequest, act
from d4cli.fight.effects import Pending, team_grant_effects
from d4cli.fight.encounter_state import Creature, Encounter, new_creature
from d4cli.fight.turns import add_creature, end_turn, start_turn
from d4cli.fileformat.encounter_toml import bundled_examples, dump_encounter, parse_encounter
from d4cli.rules.dice import ScriptedDice
from d4cli.rules.errors import FileError, InputError
from d4cli.rules.names import name_problem
from d4cli.store import files, journal, transaction
from d4cli.store import undo as undo_redo
from d4cli.store.files import MAX_FILE_BYTES, digest, journal_path, lock_path
from d4cli.store.history import History, read_history, read_log
from d4cli.store.journal import encode_entry
from d4cli.store.lock import DEFAULT_LOCK_TIMEOUT, LockTimeout

VALID = """\
schema_version = 1
name = "Test"
mode = "turn"
round = 1
current = "Goblin Archer"

[[creature]]
name = "Goblin Archer"
aspects = { Finesse = 3 }
load_buffer = 1
exhaustion = 0
load = 0
hp = 7
"""


def error_for(text: str | bytes, tmp_path: Path) -> str:
    path = tmp_path / "bad.toml"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    with pytest.raises(FileError) as caught:
        store.read_encounter(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(str(path) + ":")
    return message


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "load_buffer = 1",
            "load_bufer = 1",
            "creature 'Goblin Archer': load_bufer: unknown key (did you mean 'load_buffer'?)",
        ),
        ("load = 0", "load = 1.5", "creature 'Goblin Archer': load: 1.5: must be a whole number"),
        ("load = 0", "load = true", "creature 'Goblin Archer': load: true: must be a whole number"),
        (
            "load = 0",
            "load = 5000",
            "creature 'Goblin Archer': load: 5000: must be within -1000..1000",
        ),
        ("load = 0", 'load = "0"', "creature 'Goblin Archer': load: '0': must be a whole number"),
        ("load = 0\n", "", "creature 'Goblin Archer': load: missing"),
        (
            "exhaustion = 0",
            "exhaustion = -1",
            "creature 'Goblin Archer': exhaustion: -1: must be within 0..1000",
        ),
        ("hp = 7", "hp = -5", "creature 'Goblin Archer': hp: -5: must be within 0..100000"),
        (
            "{ Finesse = 3 }",
            '{ Finesse = "3" }',
            "creature 'Goblin Archer': aspects.Finesse: '3': must be a whole number",
        ),
        (
            "{ Finesse = 3 }",
            "{ Finesse = 3, finesse = 2 }",
            "creature 'Goblin Archer': aspects.finesse: 'finesse': the same Aspect as 'Finesse' (N1)",
        ),
        ("{ Finesse = 3 }", "3", "creature 'Goblin Archer': aspects: 3: must be a table"),
        ('name = "Goblin Archer"', "name = 3", "creature #1: name: 3: must be text"),
        ('name = "Goblin Archer"', 'name = "  "', "creature #1: name: '  ': cannot be empty"),
        (
            "hp = 7",
            'pending = { advantage = "x" }',
            "creature 'Goblin Archer': pending.advantage: 'x': must be a list",
        ),
        (
            "hp = 7",
            "pending = { advantages = [] }",
            "creature 'Goblin Archer': pending.advantages: unknown key (did you mean 'advantage'?)",
        ),
        ('mode = "turn"', 'mode = "rounds"', "mode: 'rounds': unknown mode"),
        ('mode = "turn"\n', "", "mode: missing"),
        ("round = 1", "rounds = 1", "rounds: unknown key (did you mean 'round'?)"),
        ("round = 1", "round = 1.0", "round: 1.0: must be a whole number"),
        (
            "schema_version = 1",
            "schema_version = 4",
            "schema_version: 4: this d4cli reads schema_version 3",
        ),
        ('current = "Goblin Archer"', 'current = "Nobody"', "current: 'Nobody': names no creature"),
        ("round = 1", "round = 0", "round: 0: is 0 (not started)"),
        ("load = 0", "load = ", "not valid TOML"),
    ],
)
def test_validation_names_file_creature_and_field(tmp_path, old, new, expected):
    assert old in VALID
    message = error_for(VALID.replace(old, new, 1), tmp_path)
    assert expected in message


def test_duplicate_creature_names_n1(tmp_path):
    text = VALID + VALID[VALID.index("[[creature]]") :].replace(
        '"Goblin Archer"', '"goblin   ARCHER"'
    )
    message = error_for(text, tmp_path)
    assert "creature #2: name: 'goblin   ARCHER': the same name as 'Goblin Archer' (N1)" in message


def test_invalid_utf8_is_one_line(tmp_path):
    message = error_for(VALID.encode() + b"# \xff\xfe\n", tmp_path)
    assert "not valid UTF-8" in message


def test_a_byte_order_mark_is_accepted(tmp_path):
    """A file saved by Windows Notepad starts with a UTF-8 BOM: it reads like the same file without."""
    plain = tmp_path / "plain.toml"
    plain.write_text(VALID)
    marked = tmp_path / "marked.toml"
    marked.write_bytes(b"\xef\xbb\xbf" + VALID.encode())
    assert store.read_encounter(marked) == store.read_encounter(plain)
    # Only at the very start: anywhere else it is still a TOML error naming the file.
    assert "not valid TOML" in error_for(VALID + "\ufeff\n", tmp_path)


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        ("x = " + "[" * 17 + "]" * 17 + "\n", 4, "nested more than 16 deep"),
        ("x = " + "{a = " * 17 + "1" + "}" * 17 + "\n", 4, "nested more than 16 deep"),
        ("x = " + "[[]," * 20 + "\n", 4, "nested more than 16 deep"),  # never 17 opens in a row
        ("a" + ".a" * 17 + " = 1\n", 4, "a key with more than 16 dots"),
        (
            '"a"' + ' . "b"' * 17 + " = 1\n",
            4,
            "a key with more than 16 dots",
        ),  # quoted parts, spaces
        (
            's = """\n[[[\n"""\n[' + "a." * 17 + "b]\n",
            7,
            "a key with more than 16 dots",
        ),  # after a multi-line string
    ],
    ids=["arrays", "inline-tables", "interleaved", "dotted", "quoted-dotted", "header"],
)
def test_files_shaped_to_break_the_parser_are_refused_with_the_line(tmp_path, text, line, problem):
    head = 'schema_version = 1\nmode = "turn"\nround = 0\n'
    message = error_for(head + text, tmp_path)
    assert f": line {line}: {problem}" in message


def test_the_shape_scan_ignores_strings_and_comments(tmp_path):
    """Brackets, dots and quotes in names and comments are not structure."""
    name = "[{" * 20 + "." * 40 + "''' \\ \"\"\" #"
    text = VALID.replace('"Goblin Archer"', json.dumps(name))
    text = text.replace("hp = 7", "hp = 7 # [[[[[[[[[[[[[[[[[[[[ " + "a." * 30 + "a")
    text += "# " + "{" * 40 + "\n"
    path = tmp_path / "ok.toml"
    path.write_text(text)
    encounter = store.read_encounter(path)
    assert encounter.creatures[0].name == name and encounter.current == name
    from d4cli.fileformat.encounter_toml import check_shape

    check_shape(
        "x = " + "[" * 16 + "]" * 16 + "\n" + "a" + ".a" * 16 + " = 1\n", "f"
    )  # at the bounds


def test_the_shape_scan_is_fast_on_a_megabyte():
    """Read on every Tab press, and on files up to the 1 MB limit: linear, no backtracking."""
    from d4cli.fileformat.encounter_toml import check_shape

    samples = [
        "a = " + "[]," * 300_000,
        'k = "' + "x" * 1_000_000,  # a string that never ends
        's = """' + "x" * 1_000_000,  # a multi-line string that never ends
        "a" * 1_000_000 + ". a" * 16,
        ("a" + ".a" * 16 + " = 1\n") * 30_000,
        "# comment\n" * 100_000,
        '"' * 1_000_000,
    ]
    # Each is checked without a hang (linear work is a benchmark's to time, not a test's).
    signal.alarm(60)
    try:
        for text in samples:
            check_shape(text, "f")
    finally:
        signal.alarm(0)


def test_directory_fifo_and_huge_file_refused_at_once(tmp_path):
    with pytest.raises(FileError, match="is a directory"):
        store.read_encounter(tmp_path)
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    with pytest.raises(FileError, match="larger than 1 MB"):
        store.read_encounter(big)
    missing = tmp_path / "missing.toml"
    with pytest.raises(FileError, match="no such encounter file"):
        store.read_encounter(missing)
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo.toml"
        os.mkfifo(fifo)
        signal.alarm(5)  # a hang would fail the test instead of blocking the suite
        try:
            with pytest.raises(FileError, match="not a regular file"):
                store.read_encounter(fifo)  # refused without opening it: the alarm never rings
        finally:
            signal.alarm(0)


def test_bundled_examples_are_valid_and_named(tmp_path):
    examples = bundled_examples()
    assert {"skirmish", "duel"} <= examples.keys()
    skirmish = store.read_encounter(examples["skirmish"])
    assert skirmish.mode == "turn" and "Goblin Archer" in [c.name for c in skirmish.creatures]
    assert examples["skirmish"].read_text().count("#") > 10  # commented
    duel = store.read_encounter(examples["duel"])
    assert duel.mode == "round" and len(duel.creatures) == 2


# Control, format, unassigned and line/paragraph separator characters are never in a name (N1):
# drawn, they would all be filtered out, often enough to fail Hypothesis's filter health check.
NEVER_IN_A_NAME = ("Cs", "Cc", "Cf", "Cn", "Zl", "Zp")
names = st.text(
    st.characters(blacklist_categories=NEVER_IN_A_NAME), min_size=1, max_size=12
).filter(lambda s: name_problem(s) is None)


@settings(max_examples=60, deadline=None)
@given(
    name=names,
    aspect=names,
    load=st.integers(-1000, 1000),
    hp=st.none() | st.integers(0, 100_000),
    source=names,
)
def test_dump_then_parse_is_the_same_encounter(name, aspect, load, hp, source):
    creature = Creature(
        name,
        ((aspect, 3),),
        1,
        0,
        load,
        0,
        hp,
        effects=team_grant_effects((), Pending(advantage=(source,))),
    )
    encounter = Encounter('Any "name"\n', "round", 2, name, None, (creature,))
    assert parse_encounter(dump_encounter(encounter), "x.toml") == encounter


def test_resolve_path(monkeypatch):
    monkeypatch.setenv("D4CLI_FILE", "from-env.toml")
    assert resolve_path("given.toml") == Path("given.toml")
    assert resolve_path(None) == Path("from-env.toml")
    monkeypatch.delenv("D4CLI_FILE")
    assert resolve_path(None) == Path("encounter.toml")
    with pytest.raises(FileError, match="not valid UTF-8"):
        resolve_path("\udc9b.toml")  # a non-UTF-8 byte in argv


# --- changes, journal, undo --------------------------------------------------------------


@pytest.fixture
def path(tmp_path) -> Path:
    """A fresh encounter of two creatures, created as `d4cli init --from` would (with an init entry)."""
    target = tmp_path / "encounter.toml"
    encounter = Encounter(name="Test")
    transaction.create(target, dump_encounter(encounter), {"name": "Test", "mode": "turn"})
    for name, aspects in (
        ("Aria", (("Finesse", 4), ("Might", 1000))),
        ("Goblin Archer", (("Finesse", 3),)),
    ):
        creature = new_creature(name, aspects, hp=7, evasion=10)
        change(target, lambda e, c=creature: add_creature(e, c))
    return target


def journal_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in journal_path(path).read_text().splitlines()]


def saved_before(path: Path) -> bytes:
    """The text the newest entry goes back to: its whole ``prev``, or its patch taken back from the file."""
    last = journal_lines(path)[-1]
    if "prev" in last:
        return last["prev"].encode()
    return journal.apply_patch(path.read_text(), last["patch"], reverse=True).encode()


def attack():
    """Aria acts with Might 1000 at Cost 1 (up to 1,001 dice, all 1s)."""
    request = ActRequest("Aria", "Might")
    return lambda encounter: act(encounter, request, ScriptedDice([1] * 1100))


def test_change_writes_entry_then_file(path):
    before = path.read_bytes()
    change(path, lambda e: start_turn(e))
    entries = journal_lines(path)
    assert [e["kind"] for e in entries] == ["init", "add", "add", "turn-start"]
    last = entries[-1]
    assert saved_before(path) == before
    assert last["before"] == digest(before) and last["after"] == digest(path.read_bytes())
    assert last["round"] == 1 and last["turn"] == "Aria"
    assert [e["seq"] for e in entries] == [1, 2, 3, 4]


def test_log_hides_bookkeeping_and_keeps_order(path):
    change(path, attack())
    entries = read_log(path)
    assert [e["kind"] for e in entries] == ["init", "add", "add", "act"]
    assert not {"prev", "before", "after"} & entries[-1].keys()
    assert read_log(path, last=2) == entries[-2:]


def _fails(path, error_type, action):
    before = snapshot(path)
    with pytest.raises(error_type):
        action()
    assert snapshot(path) == before


def test_unchanged_on_bad_input_refusal_and_invalid_file(path):
    _fails(
        path,
        InputError,
        lambda: change(path, lambda e: act(e, ActRequest("Nobody", "Might"), ScriptedDice([]))),
    )
    _fails(path, InputError, lambda: change(path, lambda e: end_turn(e)))
    before = snapshot(path)
    _, record = change(
        path, lambda e: act(e, ActRequest("Goblin Archer", "Finesse", cost=9), ScriptedDice([]))
    )
    assert not record.allowed
    assert snapshot(path) == before


def test_unchanged_when_the_disk_is_full_on_replace(path, monkeypatch):
    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files, "replace_file", full)
    before = snapshot(path)
    with pytest.raises(FileError, match="No space left on device") as caught:
        change(path, attack())
    assert "\n" not in str(caught.value) and str(path) in str(caught.value)
    assert snapshot(path) == before


def test_unchanged_when_the_journal_write_fails_half_way(path, monkeypatch):
    real = files.write_all

    def half_then_full(fd, data):
        real(fd, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files, "write_all", half_then_full)
    _fails(path, FileError, lambda: change(path, attack()))


def test_unchanged_in_a_read_only_folder(path, monkeypatch):
    def denied(*_args, **_kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(files.tempfile, "mkstemp", denied)
    before = snapshot(path)
    with pytest.raises(FileError, match="read-only"):
        change(path, attack())
    assert snapshot(path) == before


def test_undo_25_deep_restores_bytes_and_never_reverts_init(path):
    states = [path.read_bytes()]
    change(path, lambda e: start_turn(e))
    states.append(path.read_bytes())
    for _ in range(24):
        change(path, attack())
        states.append(path.read_bytes())
    assert store.read_encounter(path).find("Aria").load == 23
    for expected in reversed(states[:-1]):
        undone = undo_redo.undo(path)
        assert not undone.hand_edited
        assert path.read_bytes() == expected
    # Back to after the two adds; then the adds, then nothing (init stays).
    undo_redo.undo(path)
    undo_redo.undo(path)
    assert store.read_encounter(path) == Encounter(name="Test")
    before = snapshot(path)
    with pytest.raises(InputError, match="nothing to undo"):
        undo_redo.undo(path)
    assert snapshot(path) == before
    assert [e["kind"] for e in read_log(path)] == ["init"]


def test_undo_restores_the_templates_comments(tmp_path):
    target = tmp_path / "encounter.toml"
    template = bundled_examples()["skirmish"].read_text()
    transaction.create(target, template, {"from": "skirmish"})
    change(target, lambda e: start_turn(e))
    kept = target.read_text()
    assert (
        kept != template and kept.splitlines()[:12] == template.splitlines()[:12]
    )  # comments kept
    undo_redo.undo(target)
    assert target.read_text() == template


def _crash_between_journal_and_file(path, monkeypatch, transition):
    """Run a change that 'crashes' after its journal entry is on disk, before the file is replaced."""

    def crash(*_args, **_kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(files, "replace_file", crash)
        patch.setattr(files.JournalWriter, "restore", lambda self: None)
        with pytest.raises(KeyboardInterrupt):
            change(path, transition)


def test_crash_leaves_an_unfinished_entry_that_is_dropped(path, monkeypatch):
    file_before = path.read_bytes()
    standing = read_log(path)
    _crash_between_journal_and_file(path, monkeypatch, attack())
    assert path.read_bytes() == file_before
    assert journal_lines(path)[-1]["kind"] == "act"  # the entry is there ...
    assert read_log(path) == standing  # ... but does not stand
    assert store.read_encounter(path).find("Aria").load == -1
    # The next change cuts it: one new entry after the standing ones, numbered on from them.
    change(path, lambda e: start_turn(e))
    kinds = [e["kind"] for e in journal_lines(path)]
    assert kinds == ["init", "add", "add", "turn-start"]
    assert journal_lines(path)[-1]["seq"] == 4


def test_crash_then_undo_undoes_the_change_that_stands(path, monkeypatch):
    change(path, lambda e: start_turn(e))
    after_add = saved_before(path)
    _crash_between_journal_and_file(path, monkeypatch, attack())
    undone = undo_redo.undo(path)
    assert undone.entry["kind"] == "turn-start"
    assert path.read_bytes() == after_add
    assert [e["kind"] for e in journal_lines(path)] == ["init", "add", "add"]


def test_torn_last_line_is_ignored_and_cut(path):
    journal = journal_path(path)
    good = journal.read_bytes()
    with open(journal, "ab") as handle:
        handle.write(b'{"seq": 9, "kind": "act", "bef')
    assert [e["kind"] for e in read_log(path)] == ["init", "add", "add"]
    change(path, lambda e: start_turn(e))
    assert journal.read_bytes().startswith(good)
    assert [e["kind"] for e in journal_lines(path)] == ["init", "add", "add", "turn-start"]


def _tear_the_last_entry(path: Path, cut: int = 20) -> None:
    """Cut the journal's last *cut* bytes: the newest entry is torn (no newline, not JSON)."""
    journal = journal_path(path)
    os.truncate(journal, journal.stat().st_size - cut)


def test_torn_last_line_of_a_crash_is_dropped_silently(path):
    """A kill inside the append: the entry is torn and the file is still what the entry
    before it wrote. The torn line is dropped, with no warning; undo and changes go on."""
    change(path, lambda e: start_turn(e))
    after_turn = path.read_bytes()
    change(path, attack())
    path.write_bytes(after_turn)  # the change never reached the file ...
    _tear_the_last_entry(path)  # ... and its entry was cut off half way
    history = read_history(path)
    assert [e["kind"] for e in history.entries] == ["init", "add", "add", "turn-start"]
    assert history.warning is None
    undone = undo_redo.undo(path)
    assert undone.entry["kind"] == "turn-start" and not undone.hand_edited
    assert [e["kind"] for e in journal_lines(path)] == ["init", "add", "add"]


def test_torn_entry_after_a_hand_edit_is_still_a_crash(path):
    """The GM edited the file, then a change was killed inside its append: the file is not what
    the entry before wrote, but the torn entry still shows it as its `before`: unfinished."""
    change(path, lambda e: start_turn(e))
    path.write_text(path.read_text().replace("hp = 7", "hp = 5", 1))
    edited = path.read_bytes()
    change(path, attack())
    path.write_bytes(edited)
    entry = journal_lines(path)[-1]
    _tear_the_last_entry(path, len(encode_line(entry)) - encode_line(entry).index(b',"patch":'))
    assert read_history(path) == History(read_log(path), None)
    assert read_log(path)[-1]["kind"] == "turn-start"
    change(path, lambda e: end_turn(e))  # cuts the torn entry
    assert [e["kind"] for e in journal_lines(path)][-2:] == ["turn-start", "turn-end"]


def encode_line(entry: dict) -> bytes:
    return encode_entry(entry)


def test_torn_last_line_when_the_file_is_newer_is_damage(path):
    """The file holds the newest change but its entry is torn: no crash of d4cli does that, so
    the history is damaged. `log` shows the rest and warns, `undo` refuses, a change keeps the
    damaged bytes and goes on after them."""
    change(path, lambda e: start_turn(e))
    change(path, attack())
    change(path, attack())
    _tear_the_last_entry(path)
    history = read_history(path)
    assert [e["kind"] for e in history.entries] == ["init", "add", "add", "turn-start", "act"]
    journal = journal_path(path)
    assert history.warning == (
        f"{journal}: line 6 is damaged; the file is newer than the history: the change it held is not shown"
    )
    assert read_history(path, last=1).warning == history.warning
    before = snapshot(path)
    with pytest.raises(FileError) as caught:
        undo_redo.undo(path)
    assert str(caught.value) == (
        f"{journal}: line 6 is damaged; the file is newer than the history: undo cannot tell what to restore"
    )
    assert exit_code_of(caught.value) == 2
    assert snapshot(path) == before
    # A change goes on after the damaged bytes, which stay; it is numbered after the torn entry.
    damaged = journal.read_bytes()
    change(path, lambda e: end_turn(e))
    assert journal.read_bytes().startswith(damaged + b"\n")
    last = journal_lines_after(path, len(damaged) + 1)
    assert [e["kind"] for e in last] == ["turn-end"] and last[0]["seq"] == 7
    assert read_log(path, last=1)[0]["kind"] == "turn-end"
    assert store.read_encounter(path).find("Aria").load == 1  # both acts stand in the file
    # Now a damaged line further back: the full log skips it, shows the entries on both sides, and warns.
    history = read_history(path)
    assert [e["kind"] for e in history.entries] == [
        "init",
        "add",
        "add",
        "turn-start",
        "act",
        "turn-end",
    ]
    assert (
        history.warning
        == f"{journal}: line 6 is damaged (not a journal entry): skipped; 'undo' cannot go back past it"
    )
    undo_redo.undo(path)  # the turn-end stands and can be undone ...
    assert journal.read_bytes() == damaged + b"\n"
    with pytest.raises(FileError, match="line 6 is damaged"):
        undo_redo.undo(path)  # ... but not past the damaged line


def journal_lines_after(path: Path, offset: int) -> list[dict]:
    return [json.loads(line) for line in journal_path(path).read_bytes()[offset:].splitlines()]


def test_a_whole_line_that_is_not_an_entry_is_kept(path):
    """A foreign line at the end (with its newline) is not what a crash leaves: never cut."""
    journal = journal_path(path)
    with open(journal, "ab") as handle:
        handle.write(b"not a journal entry\n")
    damaged = journal.read_bytes()
    history = read_history(path)
    assert [e["kind"] for e in history.entries] == ["init", "add", "add"]
    assert (
        history.warning
        == f"{journal}: line 4 is damaged (not a journal entry): the change it held is not shown"
    )
    before = snapshot(path)
    with pytest.raises(
        FileError, match="line 4 is damaged \\(not a journal entry\\): undo cannot tell"
    ):
        undo_redo.undo(path)
    assert snapshot(path) == before
    change(path, lambda e: start_turn(e))
    assert journal.read_bytes().startswith(damaged)
    assert journal_lines_after(path, len(damaged))[0]["seq"] == 4


def test_damaged_history_on_the_command_line(path):
    """`log` exits 0 with the readable entries and one warning line; `undo` exits 2 with one line."""
    change(path, lambda e: start_turn(e))
    change(path, attack())
    _tear_the_last_entry(path)
    env = {**os.environ, "D4CLI_FILE": str(path)}

    def d4cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "d4cli", *args],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )

    log = d4cli("log", "--json")
    assert log.returncode == 0
    assert [e["kind"] for e in json.loads(log.stdout)["entries"]] == [
        "init",
        "add",
        "add",
        "turn-start",
    ]
    warning = (
        f"d4cli: warning: {journal_path(path)}: line 5 is damaged; "
        "the file is newer than the history: the change it held is not shown"
    )
    assert log.stderr.splitlines() == [warning]
    before = snapshot(path)
    undo = d4cli("undo")
    assert (undo.returncode, undo.stdout) == (2, "")
    assert len(undo.stderr.splitlines()) == 1 and "line 5 is damaged" in undo.stderr
    assert "undo cannot tell what to restore" in undo.stderr
    assert snapshot(path) == before


def test_unchanged_including_an_unfinished_entry_when_a_write_fails(path, monkeypatch):
    with open(journal_path(path), "ab") as handle:
        handle.write(b'{"torn')

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files, "replace_file", full)
    _fails(path, FileError, lambda: change(path, attack()))


def test_crash_inside_undo_after_the_file_is_restored(path):
    change(path, lambda e: start_turn(e))
    change(path, attack())
    # The undo wrote the file back, then 'crashed' before cutting the journal.
    path.write_bytes(saved_before(path))
    assert [e["kind"] for e in read_log(path)] == ["init", "add", "add", "turn-start"]
    undo_redo.undo(path)  # undoes the turn-start, and the act's entry goes with it
    assert [e["kind"] for e in journal_lines(path)] == ["init", "add", "add"]


def test_hand_edit_stands_and_undo_says_it_reverted_it(path):
    change(path, attack())
    before_act = saved_before(path)
    path.write_text(path.read_text().replace("hp = 7", "hp = 3", 1))
    assert [e["kind"] for e in read_log(path)][-1] == "act"
    undone = undo_redo.undo(path)
    assert undone.hand_edited and path.read_bytes() == before_act


def test_undo_rescues_an_invalid_hand_edit(path):
    change(path, attack())
    before_act = saved_before(path)
    path.write_text("this is [not toml")
    with pytest.raises(FileError):
        store.read_encounter(path)
    undo_redo.undo(path)
    assert path.read_bytes() == before_act


def test_ordinary_commands_read_only_the_journal_tail(path):
    """A damaged line in the middle of the journal is never read by a change, an undo or `log --last`."""
    change(path, lambda e: start_turn(e))
    journal = journal_path(path)
    lines = journal.read_bytes().splitlines(keepends=True)
    lines[1] = b"this line was never going to be parsed\n"
    journal.write_bytes(b"".join(lines))
    change(path, attack())
    change(path, attack())
    undo_redo.undo(path)
    assert [e["kind"] for e in read_log(path, last=2)] == ["turn-start", "act"]
    assert read_history(path, last=3).warning is None
    history = read_history(path)
    assert [e["kind"] for e in history.entries] == ["init", "add", "turn-start", "act"]
    assert history.warning == (
        f"{journal}: line 2 is damaged (not a journal entry): skipped; "
        "'undo' cannot go back past it"
    )
    # Undo goes back as far as the damaged line, and stops there with the same words.
    for _ in range(3):
        undo_redo.undo(path)
    before = snapshot(path)
    with pytest.raises(FileError, match="line 2 is damaged"):
        undo_redo.undo(path)
    assert snapshot(path) == before


def test_log_validates_the_file(path):
    """docs/cli.md: the file is validated on every read, `log` included."""
    change(path, lambda e: start_turn(e))
    path.write_text(path.read_text().replace("load_buffer", "load_bufer", 1))
    before = snapshot(path)
    with pytest.raises(FileError, match="load_bufer: unknown key"):
        read_log(path)
    assert snapshot(path) == before


def test_a_byte_order_mark_survives_a_change_and_its_undo(path):
    """A hand-saved file with a BOM: a change goes through, the journal agrees, undo gives the bytes back."""
    marked = b"\xef\xbb\xbf" + path.read_bytes()
    path.write_bytes(marked)
    change(path, lambda e: start_turn(e))
    entry = journal_lines(path)[-1]
    assert entry["before"] == digest(marked) and saved_before(path) == marked
    assert read_log(path)[-1]["kind"] == "turn-start"
    undo_redo.undo(path)
    assert path.read_bytes() == marked


def test_a_change_removes_temp_files_left_by_a_killed_change(path):
    """A kill between mkstemp and os.replace leaves `.encounter.toml.XXXXXXXX.tmp`; the next
    change (under the lock: nothing else is writing) removes it. Other files stay."""
    folder = path.parent
    stale = [folder / f".{path.name}.k1ll3d_x.tmp", folder / f".{path.name}.abcdefgh.tmp"]
    others = [
        folder
        / f".{path.name}.x.abcdefgh.tmp",  # the temp file of an encounter called encounter.toml.x
        folder / ".other.toml.abcdefgh.tmp",
        folder / "notes.tmp",
    ]
    for item in stale + others:
        item.write_text("half a file")
    change(path, lambda e: start_turn(e))
    assert [item.exists() for item in stale] == [False, False]
    assert all(item.exists() for item in others)
    stale[0].write_text("again")
    undo_redo.undo(path)
    assert not stale[0].exists()


def test_a_refused_change_leaves_a_stale_temp_file_alone(path):
    """Nothing is swept unless something is written: a failed command changes no file (promise 2)."""
    (path.parent / f".{path.name}.abcdefgh.tmp").write_text("half a file")
    before = snapshot(path)
    with pytest.raises(InputError):
        change(path, lambda e: act(e, ActRequest("Nobody", "Might"), ScriptedDice([])))
    assert snapshot(path) == before


def test_a_change_through_a_symlink_is_refused(path):
    link = path.parent / "link.toml"
    link.symlink_to(path.name)
    before = snapshot(path)
    for attempt in (
        lambda: change(link, lambda e: start_turn(e)),
        lambda: undo_redo.undo(link),
    ):
        with pytest.raises(FileError, match="is a symlink"):
            attempt()
    assert (
        snapshot(path) == before
        and not journal_path(link).exists()
        and not lock_path(link).exists()
    )
    dangling = path.parent / "dangling.toml"
    dangling.symlink_to("gone.toml")
    with pytest.raises(FileError, match="is a symlink"):
        change(dangling, lambda e: start_turn(e))
    assert dangling.is_symlink() and not (path.parent / "gone.toml").exists()


def test_init_refuses_to_replace_without_force_and_keeps_history_out_of_log(path):
    _fails(path, InputError, lambda: transaction.create(path, dump_encounter(Encounter()), {}))
    transaction.create(path, dump_encounter(Encounter(name="Again")), {"name": "Again"}, force=True)
    assert [e["kind"] for e in read_log(path)] == ["init"]
    with pytest.raises(InputError, match="nothing to undo"):
        undo_redo.undo(path)


def test_init_refuses_a_directory(tmp_path):
    (tmp_path / "dir.toml").mkdir()
    with pytest.raises(FileError, match="is a directory"):
        transaction.create(tmp_path / "dir.toml", dump_encounter(Encounter()), {}, force=True)


def test_crash_during_a_fresh_init_is_dropped(tmp_path, monkeypatch):
    target = tmp_path / "encounter.toml"
    with monkeypatch.context() as patch:
        patch.setattr(files, "replace_file", lambda *a: (_ for _ in ()).throw(KeyboardInterrupt()))
        patch.setattr(files.JournalWriter, "restore", lambda self: None)
        with pytest.raises(KeyboardInterrupt):
            transaction.create(target, dump_encounter(Encounter()), {})
    assert not target.exists()
    transaction.create(target, dump_encounter(Encounter()), {})
    assert [e["kind"] for e in journal_lines(target)] == ["init"]


def test_lock_timeout_is_a_clear_error_and_changes_nothing(path, monkeypatch):
    with lock_held_elsewhere(lock_path(path)):
        before = snapshot(path)
        started = time.monotonic()
        with pytest.raises(LockTimeout, match="could not get the lock within 0.3 s") as caught:
            change(path, attack(), timeout=0.3)
        assert time.monotonic() - started >= 0.25  # it waited; how long past is the machine's
        assert "D4CLI_LOCK_TIMEOUT" in str(caught.value) and "\n" not in str(caught.value)
        assert exit_code_of(caught.value) == 2
        assert snapshot(path) == before


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        (errno.EROFS, "Read-only file system (is the folder read-only?)"),
        (errno.ENOENT, "No such file or directory"),
    ],  # what /proc answers
    ids=["read-only", "special-folder"],
)
def test_a_lock_file_that_cannot_be_created_is_named_at_once(path, monkeypatch, code, reason):
    """A folder that takes no new files: the answer says so at once, not "another command" after 5 s."""
    real_open = os.open

    def read_only(name, flags, *args, **kwargs):
        if str(name).endswith(".lock") and flags & os.O_CREAT:
            raise OSError(code, os.strerror(code), str(name))
        return real_open(name, flags, *args, **kwargs)

    lock_path(path).unlink()
    monkeypatch.setattr(os, "open", read_only)
    monkeypatch.setenv("D4CLI_LOCK_TIMEOUT", "3")
    before = snapshot(path)
    for action in (
        lambda: change(path, attack()),
        lambda: undo_redo.undo(path),
        lambda: transaction.create(path, dump_encounter(Encounter()), {}, force=True),
    ):
        started = time.monotonic()
        with pytest.raises(FileError) as caught:
            action()
        assert time.monotonic() - started < 1
        assert str(caught.value) == f"{lock_path(path)}: cannot create the lock file: {reason}"
        assert exit_code_of(caught.value) == 2
        assert snapshot(path) == before


@pytest.mark.skipif(not os.path.isfile("/proc/self/status"), reason="needs /proc")
def test_a_special_folder_is_named_at_once_on_the_command_line():
    """`D4CLI_FILE=/proc/self/status d4cli turn start`: it is no encounter, refused before a lock file is tried."""
    started = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-m", "d4cli", "turn", "start"],
        capture_output=True,
        text=True,
        env={**os.environ, "D4CLI_FILE": "/proc/self/status"},
        check=False,
    )
    assert time.monotonic() - started < 4
    assert (out.returncode, out.stdout) == (2, "")
    assert len(out.stderr.splitlines()) == 1
    assert "/status: " in out.stderr and ".lock" not in out.stderr and "another" not in out.stderr


def test_a_wrong_path_leaves_no_lock_and_no_folder(tmp_path):
    missing = tmp_path / "missing" / "encounter.toml"
    with pytest.raises(FileError, match="no such encounter file"):
        change(missing, start_turn)
    with pytest.raises(FileError, match="does not exist"):
        transaction.create(missing, dump_encounter(Encounter()), {})
    assert not (tmp_path / "missing").exists()
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    for action in (
        lambda: change(folder, start_turn),
        lambda: undo_redo.undo(folder),
        lambda: transaction.create(folder, dump_encounter(Encounter()), {}, force=True),
    ):
        with pytest.raises(FileError, match="is a directory"):
            action()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.toml"]


def test_lock_timeout_setting_is_checked(monkeypatch):
    monkeypatch.setenv("D4CLI_LOCK_TIMEOUT", "soon")
    with pytest.raises(InputError, match="D4CLI_LOCK_TIMEOUT"):
        lock_timeout()
    monkeypatch.setenv("D4CLI_LOCK_TIMEOUT", "0.5")
    assert lock_timeout() == 0.5
    monkeypatch.delenv("D4CLI_LOCK_TIMEOUT")
    assert lock_timeout() is None  # the store's default, DEFAULT_LOCK_TIMEOUT
    assert DEFAULT_LOCK_TIMEOUT == 5.0


def test_file_permissions_are_kept(path):
    os.chmod(path, 0o640)
    change(path, lambda e: start_turn(e))
    assert (os.stat(path).st_mode & 0o777) == 0o640
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_store_loads_no_shell_library():
    code = (
        "import sys, d4cli.store\n"
        "heavy = [m for m in ('rich', 'typer', 'prompt_toolkit') if m in sys.modules]\n"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
