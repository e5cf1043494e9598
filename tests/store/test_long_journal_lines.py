"""A journal line longer than any entry (promise 7): never held whole nor parsed; it is a damaged
line named with its number and size, and the change after it still goes through."""

from __future__ import annotations

import io
import tracemalloc
from pathlib import Path

from _cli import fails, ok, ok_json, run
from hypothesis import given
from hypothesis import strategies as st

from d4cli.store import journal


@given(
    st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=12),
    st.booleans(),
    st.integers(1, 50),
)
def test_lines_backward_gives_every_line_at_any_chunk(lines, torn, chunk):
    data = b"".join(line + b"\n" for line in lines) + (b"torn" if torn else b"")
    got = list(journal.lines_backward(io.BytesIO(data), len(data), chunk))
    *whole, rest = data.split(b"\n")
    expected = [piece + b"\n" for piece in whole] + ([rest] if rest else [])
    assert [data[line.start : line.end] for line in reversed(got)] == expected
    assert [line.raw for line in reversed(got)] == [
        b"" if line.entry is not None else raw for line, raw in zip(reversed(got), expected)
    ]


def test_an_oversize_line_keeps_only_its_head(monkeypatch):
    monkeypatch.setattr(journal, "MAX_LINE_BYTES", 1000)
    entry = b'{"seq":1,"time":"t","kind":"init","before":null,"after":"x"}\n'
    long = b'{"seq":7,"time":"t","kind":"note","n":"' + b"a" * 5000 + b'"}\n'
    lines = list(journal.lines_backward(io.BytesIO(entry + long), len(entry + long), 64))
    assert [line.oversize for line in lines] == [True, False]
    assert lines[0].raw.startswith(b'{"seq":7,') and len(lines[0].raw) <= journal.HEAD_BYTES
    assert (lines[0].start, lines[0].end, lines[0].torn) == (len(entry), len(entry + long), False)
    tail = journal.tail_of(entry + long, "x")
    assert (tail.damaged is not None, tail.top_seq) == (True, 7)


def _huge_line(tmp_path: Path) -> Path:
    path = tmp_path / "encounter.toml"
    ok("init", file=path)
    ok("add", "Aria", "--aspect", "Might=3", "--hp", "10", file=path)
    with path.with_name("encounter.toml.journal").open("ab") as handle:
        handle.write(b'{"seq":3,"time":"t","kind":"note","text":"')
        handle.write(b"a" * (2 * journal.MAX_LINE_BYTES))
        handle.write(b'"}\n')
    return path


def test_a_change_after_a_line_too_long_goes_on_and_names_it(isolated_env):
    path = _huge_line(isolated_env)
    tracemalloc.start()
    change = run("damage", "Aria", "1", file=path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert change.exit_code == 0, str(change)
    assert "line 3 is damaged (32.0 MiB, longer than any journal entry)" in change.stderr
    assert peak < journal.MAX_LINE_BYTES + 8 * 1024 * 1024  # never held whole
    log = run("log", "--json", file=path)
    assert log.exit_code == 0 and "line 3 is damaged" in log.stderr
    assert [entry["seq"] for entry in log.json()["entries"]] == [1, 2, 4]
    assert ok_json("status", file=path)["creatures"][0]["hp"] == 9
    ok("undo", file=path)
    assert "line 3 is damaged" in fails(2, path, "undo")
