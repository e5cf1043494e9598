"""The journal in proportion to the change, undo and redo 20 deep, permissions and read-only files.

The pure journal module is tested on bytes (no files); the rest through the
store and through the command line.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from _cli import run
from _store import change

from d4cli.fight.actions import ActRequest, act
from d4cli.fight.encounter_state import Encounter, new_creature
from d4cli.fight.turns import add_creature, end_turn, start_turn
from d4cli.fileformat.encounter_toml import dump_encounter
from d4cli.rules.dice import ScriptedDice
from d4cli.rules.errors import FileError, InputError
from d4cli.store import files, journal, transaction
from d4cli.store import undo as undo_redo
from d4cli.store.files import journal_path, lock_path, redo_path
from d4cli.store.history import read_log

H1, H2, H3 = "1" * 64, "2" * 64, "3" * 64


def entry_line(seq: int, before: str | None, after: str, **more: object) -> bytes:
    return journal.encode_entry(
        {"seq": seq, "kind": "act", "before": before, "after": after, **more}
    )


# --- the pure journal module ---------------------------------------------------------------


def test_tail_is_classified_from_bytes_alone():
    data = entry_line(1, None, H1) + entry_line(2, H1, H2)
    tail = journal.tail_of(data, H2)  # the file is what entry 2 wrote: it stands
    assert (tail.good_end, tail.size, tail.last.entry["seq"], tail.unfinished) == (
        len(data),
        len(data),
        2,
        False,
    )
    tail = journal.tail_of(data, H1)  # the file is still entry 2's `before`: unfinished
    assert (
        tail.unfinished
        and tail.good_end == len(entry_line(1, None, H1))
        and tail.last.entry["seq"] == 1
    )
    torn = data + entry_line(3, H2, H3)[:-9]
    tail = journal.tail_of(torn, H2)  # a torn newest line over a file entry 2 wrote: a crash
    assert tail.unfinished and tail.good_end == len(data) and tail.damaged is None
    junk = data + b"not json\n"
    tail = journal.tail_of(junk, H2)  # a whole line that is not an entry: damaged, kept
    assert tail.damaged is not None and tail.damaged.raw == b"not json\n" and not tail.unfinished
    assert journal.next_seq(journal.tail_of(data, H2)) == 3
    assert journal.tail_of(b"", None) == journal.Tail(0, 0, None)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("a\nb\nc\n", "a\nB\nc\n"),
        ("a\nb\nc\n", "a\nc\n"),
        ("a\nb\nc\n", "a\nb\nb2\nc\n"),
        ("", "x\n"),
        ("x\n", ""),
        ("a\nb", "a\nb\n"),
        ("one\ntwo\nthree\nfour\n", "ONE\ntwo\nTHREE\nfour\nfive\n"),
        ("\ufeffname = 1\r\nx = 2\r\n", "name = 1\nx = 2\n"),
    ],
)
def test_a_patch_goes_forward_and_back_exactly(old, new):
    patch = journal.make_patch(old, new)
    assert journal.apply_patch(old, patch) == new
    assert journal.apply_patch(new, patch, reverse=True) == old


def test_a_patch_that_does_not_fit_is_refused_not_guessed():
    patch = journal.make_patch("a\nb\nc\n", "a\nB\nc\n")
    assert journal.apply_patch("a\nX\nc\n", patch, reverse=True) is None
    assert journal.apply_patch("a\nb\nc\n", [[1, "b", 7]]) is None
    assert journal.apply_patch("a\n", [[5, ["z\n"], []]]) is None


def test_a_patch_stores_only_the_changed_lines():
    old = "".join(f"line {n}\n" for n in range(10_000))
    new = old.replace("line 5000\n", "LINE 5000\n")
    patch = journal.make_patch(old, new)
    assert patch == [[5000, ["line 5000\n"], ["LINE 5000\n"]]]


# --- entries in proportion to the change ---------------------------------------------------


def _encounter_of(tmp_path: Path, count: int) -> Path:
    target = tmp_path / f"e{count}.toml"
    creatures = tuple(
        new_creature(f"C{n}", (("Might", 2),), hp=10, evasion=10) for n in range(count)
    )
    transaction.create(
        target, dump_encounter(Encounter(name="T", creatures=creatures)), {"name": "T"}
    )
    change(target, lambda e: start_turn(e))
    return target


def _act_bytes(target: Path) -> int:
    size = os.path.getsize(journal_path(target))
    change(target, lambda e: act(e, ActRequest("C0", "Might"), ScriptedDice([1, 2, 3])))
    return os.path.getsize(journal_path(target)) - size


def test_an_act_entry_does_not_grow_with_the_encounter(tmp_path):
    small, large = _act_bytes(_encounter_of(tmp_path, 3)), _act_bytes(_encounter_of(tmp_path, 1000))
    assert small < 1500 and large < 2 * small, (small, large)


def test_new_entries_hold_a_patch_and_no_whole_text(tmp_path):
    target = _encounter_of(tmp_path, 3)
    change(target, lambda e: act(e, ActRequest("C0", "Might"), ScriptedDice([1, 2, 3])))
    last = json.loads(journal_path(target).read_bytes().splitlines()[-1])
    assert "prev" not in last and isinstance(last["patch"], list) and last["patch"]


# --- undo and redo -------------------------------------------------------------------------


def _played(tmp_path: Path) -> Path:
    target = tmp_path / "encounter.toml"
    transaction.create(target, dump_encounter(Encounter(name="Deep")), {"name": "Deep"})
    for name in ("Aria", "Borin", "Goblin"):
        change(
            target,
            lambda e, n=name: add_creature(e, new_creature(n, (("Might", 3),), hp=9, evasion=10)),
        )
    return target


@pytest.mark.slow
def test_undo_20_then_redo_20_is_byte_exact_at_every_state(tmp_path):
    target = _played(tmp_path)
    states = [target.read_bytes()]
    for n in range(20):
        step = (
            (lambda e: start_turn(e))
            if n % 3 == 0
            else (lambda e: end_turn(e))
            if n % 3 == 2
            else (lambda e: act(e, ActRequest(e.current, "Might"), ScriptedDice([1, 2, 3, 4, 1])))
        )
        change(target, step)
        states.append(target.read_bytes())
    journal_before = journal_path(target).read_bytes()
    for n in range(20):
        undo_redo.undo(target)
        assert target.read_bytes() == states[-2 - n], n
    for n in range(20):
        redone = undo_redo.redo(target)
        assert target.read_bytes() == states[n + 1], n
        assert redone.entry["seq"] == 5 + n
    assert journal_path(target).read_bytes() == journal_before  # the same entries, byte for byte
    with pytest.raises(InputError, match="nothing to redo"):
        undo_redo.redo(target)
    for n in range(20):  # and back again, through the redone entries
        undo_redo.undo(target)
        assert target.read_bytes() == states[-2 - n], n


def test_a_new_change_clears_what_can_be_redone(tmp_path):
    target = _played(tmp_path)
    change(target, lambda e: start_turn(e))
    undo_redo.undo(target)
    assert redo_path(target).exists()
    change(target, lambda e: start_turn(e, "Borin"))
    assert not redo_path(target).exists()
    before = target.read_bytes()
    with pytest.raises(InputError, match="nothing to redo"):
        undo_redo.redo(target)
    assert target.read_bytes() == before


def test_a_stale_redo_record_left_by_a_crash_is_never_applied(tmp_path):
    target = _played(tmp_path)
    change(target, lambda e: start_turn(e))
    undo_redo.undo(target)
    stale = redo_path(target).read_bytes()
    change(target, lambda e: start_turn(e, "Goblin"))
    redo_path(target).write_bytes(stale)  # a kill between the commit and clearing the records
    with pytest.raises(InputError, match="nothing to redo"):
        undo_redo.redo(target)


def test_a_crash_inside_redo_leaves_old_or_new(tmp_path, monkeypatch):
    target = _played(tmp_path)
    change(target, lambda e: start_turn(e))
    after = target.read_bytes()
    undo_redo.undo(target)
    before = target.read_bytes()

    def crash(*_args, **_kwargs):
        raise KeyboardInterrupt  # the kill comes after the entry is appended, before the file

    with monkeypatch.context() as patch:
        patch.setattr(files, "replace_file", crash)
        patch.setattr(files.JournalWriter, "restore", lambda self: None)
        with pytest.raises(KeyboardInterrupt):
            undo_redo.redo(target)
    assert target.read_bytes() == before
    assert [e["kind"] for e in read_log(target)][-1] == "add"  # the appended entry is unfinished
    undo_redo.redo(target)
    assert target.read_bytes() == after


def test_a_crash_inside_undo_before_the_file_keeps_everything(tmp_path, monkeypatch):
    target = _played(tmp_path)
    change(target, lambda e: start_turn(e))
    after = target.read_bytes()
    with monkeypatch.context() as patch:
        patch.setattr(
            files, "replace_file", lambda *a, **k: (_ for _ in ()).throw(KeyboardInterrupt())
        )
        with pytest.raises(KeyboardInterrupt):
            undo_redo.undo(target)
    assert target.read_bytes() == after and not redo_path(target).exists()
    with pytest.raises(InputError, match="nothing to redo"):
        undo_redo.redo(target)


def _deep(tmp_path: Path, changes: int) -> tuple[Path, list[bytes]]:
    target = _played(tmp_path)
    states = [target.read_bytes()]
    for n in range(changes):
        change(target, (lambda e: start_turn(e)) if n % 2 == 0 else (lambda e: end_turn(e)))
        states.append(target.read_bytes())
    return target, states


def test_one_undo_appends_one_record_and_one_redo_cuts_it_off(tmp_path):
    target, states = _deep(tmp_path, 12)
    sizes = [0]
    for n in range(12):
        before = redo_path(target).read_bytes() if redo_path(target).exists() else b""
        undo_redo.undo(target)
        after = redo_path(target).read_bytes()
        assert after.startswith(before) and after.count(b"\n") == n + 1  # appended, never rewritten
        assert json.loads(after[len(before) :])["seq"] == 16 - n
        sizes.append(len(after))
    for n in range(12):
        undo_redo.redo(target)
        assert target.read_bytes() == states[n + 1]
        assert (
            os.path.getsize(redo_path(target)) == sizes[-2 - n]
            if n < 11
            else not redo_path(target).exists()
        )


def test_one_undo_or_redo_reads_as_many_lines_deep_as_shallow(tmp_path, monkeypatch):
    """Depth costs nothing: the lines parsed by one undo or redo do not grow with the redo stack."""
    target, _ = _deep(tmp_path, 40)
    counted: list[int] = []
    real = journal.load_line

    def counting(raw):
        counted.append(1)
        return real(raw)

    def parsed(action) -> int:
        counted.clear()
        with monkeypatch.context() as patch:
            patch.setattr(journal, "load_line", counting)
            action(target)
        return len(counted)

    shallow = [parsed(undo_redo.undo) for _ in range(3)]
    for _ in range(30):
        undo_redo.undo(target)
    deep = [parsed(undo_redo.undo) for _ in range(3)]
    assert shallow[1:] == deep[1:] and max(deep) <= 4, (shallow, deep)
    deep_redo = parsed(undo_redo.redo)
    for _ in range(30):
        undo_redo.redo(target)
    assert parsed(undo_redo.redo) == deep_redo <= 3


def test_a_redo_file_left_by_an_older_version_is_read_as_it_is(tmp_path):
    """Older versions rewrote the whole file on each undo: the same lines, oldest first, the next
    last; one may end with a record an undo killed before its file left (its seq below the next)."""
    target, states = _deep(tmp_path, 4)
    for _ in range(3):
        undo_redo.undo(target)
    records = [json.loads(line) for line in redo_path(target).read_bytes().splitlines()]
    stale = {**records[-1], "seq": records[-1]["seq"] - 1}  # an undo of the entry below, killed
    redo_path(target).write_bytes(b"".join(journal.encode_entry(r) for r in [*records, stale]))
    for n in range(3):
        undo_redo.redo(target)
        assert target.read_bytes() == states[2 + n]
    assert not redo_path(target).exists()


def test_a_torn_redo_record_of_a_killed_undo_is_passed_over_and_cut(tmp_path):
    target, states = _deep(tmp_path, 4)
    undo_redo.undo(target)
    whole = redo_path(target).read_bytes()
    with redo_path(target).open("ab") as handle:  # the next undo, killed inside its append
        handle.write(b'{"seq":7,"time":"2026-12-0')
    undo_redo.redo(target)
    assert target.read_bytes() == states[-1] and not redo_path(target).exists()
    undo_redo.undo(target)
    with redo_path(target).open("ab") as handle:
        handle.write(b'{"seq":7,"time":"2026-12-0')
    undo_redo.undo(target)  # cuts the torn line and appends after the record below it
    lines = redo_path(target).read_bytes().splitlines(keepends=True)
    assert lines[0] == whole and [json.loads(line)["seq"] for line in lines] == [8, 7]
    undo_redo.redo(target)
    undo_redo.redo(target)
    assert target.read_bytes() == states[-1]


def test_old_format_journal_keeps_working_undo_across_the_boundary(tmp_path):
    """A journal written with the whole previous text on every entry (and an init without it)."""
    target = _played(tmp_path)
    entries = [json.loads(line) for line in journal_path(target).read_bytes().splitlines()]
    texts = [entries[0].pop("text")]
    for entry in entries[1:]:  # rewrite each entry as the old format had it: `prev`, no patch
        texts.append(journal.apply_patch(texts[-1], entry.pop("patch")))
        entry["prev"] = texts[-2]
    journal_path(target).write_bytes(b"".join(journal.encode_entry(e) for e in entries))
    assert target.read_text() == texts[-1]
    change(target, lambda e: start_turn(e))  # new entries after the old ones
    change(target, lambda e: end_turn(e))
    new = json.loads(journal_path(target).read_bytes().splitlines()[-2])
    assert new["prev"] == texts[-1]  # the first new entry anchors the patches after it
    undo_redo.undo(target)
    undo_redo.undo(target)
    assert target.read_text() == texts[-1]
    for expected in reversed(texts[:-1]):  # across the boundary, into the old entries
        undo_redo.undo(target)
        assert target.read_text() == expected
    with pytest.raises(InputError, match="nothing to undo"):
        undo_redo.undo(target)
    for expected in texts[1:]:  # and redo brings the old entries back too
        undo_redo.redo(target)
        assert target.read_text() == expected


def test_undo_after_a_hand_edit_rebuilds_from_the_anchor(tmp_path):
    target = _played(tmp_path)
    change(target, lambda e: start_turn(e))
    before = target.read_bytes()
    change(target, lambda e: end_turn(e))
    hand = target.read_text().replace("hp = 9", "hp = 4", 1)
    target.write_text(hand)
    undone = undo_redo.undo(target)
    assert undone.hand_edited and target.read_bytes() == before
    undo_redo.redo(target)
    assert target.read_text() == hand  # redo gives back the file as it was before the undo


def test_a_damaged_patch_is_refused_naming_the_entry(tmp_path):
    target = _played(tmp_path)
    change(target, lambda e: start_turn(e))
    lines = journal_path(target).read_bytes().splitlines(keepends=True)
    entry = json.loads(lines[-1])
    entry["patch"][0][1] = ["something else\n"]
    lines[-1] = journal.encode_entry(entry)
    journal_path(target).write_bytes(b"".join(lines))
    before = target.read_bytes()
    with pytest.raises(FileError, match=f"entry {entry['seq']}.*damaged"):
        undo_redo.undo(target)
    assert target.read_bytes() == before


def test_a_damaged_line_in_the_new_format_is_refused_naming_the_line(tmp_path):
    target = _played(tmp_path)
    with journal_path(target).open("ab") as handle:
        handle.write(b"{not an entry}\n")
    with pytest.raises(FileError, match="line 5 is damaged"):
        undo_redo.undo(target)


def test_a_write_never_parses_its_own_output(tmp_path, monkeypatch):
    target = _played(tmp_path)
    import tomllib

    calls = []
    real = tomllib.loads
    monkeypatch.setattr(tomllib, "loads", lambda text: calls.append(1) or real(text))
    change(target, lambda e: start_turn(e))
    assert len(calls) == 0  # the text this process wrote last is remembered, never parsed back
    target.write_text(target.read_text().replace("hp = 9", "hp = 8", 1))  # a hand edit
    change(target, lambda e: end_turn(e))
    assert len(calls) == 1  # the read; the new text is checked as data before it is written
    assert "hp = 8" in target.read_text()


def test_the_store_reads_no_environment(tmp_path, monkeypatch):
    target = _played(tmp_path)
    monkeypatch.setenv("D4CLI_LOCK_TIMEOUT", "not a number")
    change(target, lambda e: start_turn(e), timeout=1)  # the shell reads it, not the store
    source = "".join(p.read_text() for p in Path(transaction.__file__).parent.glob("*.py"))
    assert "os.environ" not in source and "getenv" not in source
    assert "import typer" not in source and "from typer" not in source
    assert "import rich" not in source and "from rich" not in source


# --- command line: redo, permissions, read-only --------------------------------------------


@pytest.fixture
def encounter(isolated_env) -> Path:
    path = Path(os.environ["D4CLI_FILE"])
    assert run("init", "--from", "duel").exit_code == 0
    assert run("turn", "start").exit_code == 0
    return path


def test_redo_command(encounter):
    after = encounter.read_bytes()
    assert run("undo").exit_code == 0
    result = run("redo", "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["redone"]["kind"] == "turn-start"
    assert encounter.read_bytes() == after
    result = run("redo")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.strip().splitlines() == ["d4cli: error: redo: nothing to redo"]
    assert encounter.read_bytes() == after


def test_redo_with_a_damaged_redo_file_names_it_and_changes_nothing(encounter):
    assert run("undo").exit_code == 0
    redo = encounter.with_name(encounter.name + ".redo")
    redo.write_bytes(redo.read_bytes() + b"{not a record}\n")
    before = {
        p.name: p.read_bytes() for p in encounter.parent.iterdir() if not p.name.endswith(".lock")
    }
    result = run("redo")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.splitlines() == [
        f"d4cli: error: {redo}: line 2 is damaged (not a redo record), so redo cannot tell what to put back"
        " (remove the file to start afresh)"
    ]
    assert {
        p.name: p.read_bytes() for p in encounter.parent.iterdir() if not p.name.endswith(".lock")
    } == before
    assert run("undo").exit_code == 2  # the init: nothing to undo
    redo.unlink()
    assert run("redo").stderr.strip() == "d4cli: error: redo: nothing to redo"


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o644])
def test_side_files_are_never_more_readable_than_the_file(tmp_path, mode, monkeypatch):
    old = os.umask(0o000)  # the most permissive umask: only the file's bits may limit
    try:
        target = tmp_path / "secret.toml"
        target.write_text(dump_encounter(Encounter(name="S")))
        os.chmod(target, mode)
        journal_path(target).write_bytes(b"")
        os.chmod(journal_path(target), 0o666)  # a looser journal from before is tightened
        seen = []
        real = files.replace_file

        def spy(path, data, file_mode=None, owner=None):
            real(path, data, file_mode, owner)
            seen.append(stat.S_IMODE(os.stat(path).st_mode))

        monkeypatch.setattr(files, "replace_file", spy)
        change(target, lambda e: add_creature(e, new_creature("A", (("Might", 1),))))
        undo_redo.undo(target)  # writes PATH.redo
        for side in (journal_path(target), lock_path(target), redo_path(target), target):
            assert stat.S_IMODE(os.stat(side).st_mode) & ~mode == 0, (
                side,
                oct(os.stat(side).st_mode),
            )
        assert seen and all(bits & ~mode == 0 for bits in seen)  # temp files renamed into place
    finally:
        os.umask(old)


def test_a_new_file_gets_side_files_with_its_own_mode(tmp_path):
    old = os.umask(0o077)
    try:
        target = tmp_path / "new.toml"
        transaction.create(target, dump_encounter(Encounter()), {})
        for side in (target, journal_path(target), lock_path(target)):
            assert stat.S_IMODE(os.stat(side).st_mode) == 0o600, side
    finally:
        os.umask(old)


CHANGING = [
    ["turn", "start"],
    ["turn", "end"],
    ["add", "Zed", "--aspect", "Might=1"],
    ["remove", "Sera"],
    ["act", "Sera", "Finesse", "--seed", "1"],
    ["exhaust", "Sera", "1"],
    ["undo"],
    ["redo"],
    ["init", "--force"],
]


def _refused(path: Path, argv: list[str], what: str) -> None:
    names = sorted(p.name for p in path.parent.iterdir())
    before = {p.name: p.read_bytes() for p in path.parent.iterdir() if p.is_file()}
    result = run(*argv)
    assert (result.exit_code, result.stdout) == (2, ""), (argv, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"the {what} is read-only" in lines[0], (argv, lines)
    assert sorted(p.name for p in path.parent.iterdir()) == names
    assert {p.name: p.read_bytes() for p in path.parent.iterdir() if p.is_file()} == before


@pytest.mark.parametrize("argv", CHANGING, ids=" ".join)
def test_a_read_only_file_is_refused_before_anything_is_written(encounter, argv):
    assert run("turn", "end").exit_code == 0
    assert run("undo").exit_code == 0  # something to redo, and something to undo
    os.chmod(encounter, 0o444)
    _refused(encounter, argv, "file")


def test_a_refused_read_only_file_leaves_the_lock_file_writable(encounter):
    lock = encounter.with_name(encounter.name + ".lock")
    if lock.exists():
        lock.unlink()
    os.chmod(encounter, 0o444)
    result = run("turn", "start")
    assert result.exit_code == 2
    os.chmod(encounter, 0o644)
    if lock.exists():
        assert stat.S_IMODE(lock.stat().st_mode) & stat.S_IWUSR  # not 0444
    assert run("turn", "start").exit_code == 0


@pytest.mark.parametrize("argv", CHANGING, ids=" ".join)
def test_a_read_only_folder_is_refused_before_anything_is_written(encounter, argv):
    assert run("turn", "end").exit_code == 0
    assert run("undo").exit_code == 0
    folder = encounter.parent
    os.chmod(folder, 0o555)
    try:
        _refused(encounter, argv, "folder")
    finally:
        os.chmod(folder, 0o755)


UNPRIVILEGED = """
import os, sys
# Everything the command needs is imported first: the interpreter's own files
# may not be readable by the unprivileged user.
import difflib, hashlib, json, re, tempfile, tomllib, tomli_w
import d4cli.cli.app, d4cli.cli.commands.encounter, d4cli.cli.commands.turn, d4cli.fileformat.encounter_toml
import d4cli.cli.settings, d4cli.output.render.entry_lines, d4cli.store.history, d4cli.store.transaction
from d4cli.cli.main import main
os.setgid(65534); os.setuid(65534)
sys.argv = ["d4cli"] + sys.argv[1:]
main()
"""


@pytest.mark.skipif(
    not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to become another user"
)
@pytest.mark.parametrize(
    ("what", "file_mode", "folder_mode"), [("file", 0o644, 0o777), ("folder", 0o666, 0o755)]
)
def test_a_file_this_user_cannot_write_is_refused_for_an_unprivileged_user(
    what, file_mode, folder_mode
):
    """As a user without write permission (a 644 file, or a 755 folder, owned by someone else)."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="d4cli-perm-"))  # outside pytest's private 0700 tree
    try:
        target = folder / "encounter.toml"
        transaction.create(target, dump_encounter(Encounter(name="X")), {})
        os.chmod(target, file_mode)
        os.chmod(journal_path(target), file_mode)
        os.chmod(lock_path(target), 0o666)
        os.chmod(folder, folder_mode)
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
        assert (
            f"the {what} is read-only" in out.stderr and len(out.stderr.strip().splitlines()) == 1
        )
        assert target.read_bytes() == before
        assert sorted(p.name for p in folder.iterdir()) == [
            "encounter.toml",
            "encounter.toml.journal",
            "encounter.toml.lock",
        ]
    finally:
        shutil.rmtree(folder)
