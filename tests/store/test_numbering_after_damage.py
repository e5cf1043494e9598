"""Numbering goes on after damage (promise 9): however many damaged lines end the journal, the
next change is numbered one past the highest readable entry; an entry whose ``seq`` is not a
whole number is a damaged line, named as one, never an internal error or ``#seven``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _cli import fails, ok, ok_json, run

from d4cli.store.journal import tail_of


def _journal(path: Path) -> Path:
    return path.with_name(path.name + ".journal")


def _seqs(path: Path) -> list[int]:
    return [entry["seq"] for entry in ok_json("log", file=path)["entries"]]


def _fight(tmp_path: Path) -> Path:
    path = tmp_path / "encounter.toml"
    ok("init", file=path)
    ok("add", "Aria", "--aspect", "Might=3", "--hp", "10", file=path)
    ok("damage", "Aria", "1", file=path)
    return path


@pytest.mark.parametrize("damaged", [1, 2, 5])
def test_numbering_goes_on_after_damaged_lines(isolated_env, damaged):
    path = _fight(isolated_env)
    with _journal(path).open("ab") as handle:
        handle.write(b"garbage\n" * damaged)
    first = run("damage", "Aria", "1", file=path)
    assert first.exit_code == 0 and "is damaged" in first.stderr
    ok("damage", "Aria", "1", file=path)
    assert _seqs(path) == [1, 2, 3, 4, 5]


def test_a_damaged_line_showing_a_higher_seq_still_counts():
    entry = b'{"seq":1,"time":"t","kind":"init","before":null,"after":"x"}\n'
    tail = tail_of(entry + b'{"seq":9,"time":"t","kind":"ad\n' + b"junk\n", "y")
    assert (tail.top_seq, tail.damaged is not None) == (9, True)


@pytest.mark.parametrize("seq", ['"seven"', "true", "null", "3.0", "[3]"])
def test_a_newest_entry_with_a_bad_seq_is_a_damaged_line(isolated_env, seq):
    path = _fight(isolated_env)
    lines = _journal(path).read_bytes().splitlines(keepends=True)
    entry = json.loads(lines[-1])
    lines[-1] = lines[-1].replace(f'"seq":{entry["seq"]},'.encode(), f'"seq":{seq},'.encode())
    _journal(path).write_bytes(b"".join(lines))
    log = run("log", file=path)
    assert log.exit_code == 0 and "#" + seq.strip('"') not in log.stdout
    assert "line 3 is damaged" in log.stderr
    recap = run("recap", file=path)
    assert recap.exit_code == 0, str(recap)
    assert "AssertionError" not in recap.output
    line = fails(2, path, "undo")
    assert "line 3 is damaged" in line
    change = run("damage", "Aria", "1", file=path)
    assert change.exit_code == 0 and "line 3 is damaged" in change.stderr
    ok("damage", "Aria", "1", file=path)
    assert _seqs(path) == [1, 2, 3, 4]
