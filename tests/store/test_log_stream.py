"""``log`` streams: the store hands out the standing entries one at a time, read forward from the
journal, so memory stays flat in the journal's length; the output is what it was when all were held."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

from _cli import ok

from d4cli.store import journal
from d4cli.store.files import journal_path
from d4cli.store.history import read_history, stream_history


def _played(tmp_path: Path, turns: int) -> Path:
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "encounter.toml"
    ok("init", "--from", "duel", file=path)
    lines = journal_path(path).read_bytes().splitlines(keepends=True)
    # Many entries quickly: the duel's own turn start and end, again and again (log reads no patch).
    ok("turn", "start", file=path)
    ok("turn", "end", file=path)
    start, end = journal_path(path).read_bytes().splitlines(keepends=True)[-2:]
    body = []
    seq = len(lines)
    for _ in range(turns):
        for raw in (start, end):
            seq += 1
            entry = json.loads(raw)
            entry["seq"] = seq
            body.append(journal.encode_entry(entry))
    last = json.loads(end)
    body[-1] = journal.encode_entry({**json.loads(body[-1]), "after": last["after"]})
    journal_path(path).write_bytes(b"".join(lines) + b"".join(body))
    return path


def test_the_stream_gives_what_read_history_gives_damage_and_last_included(tmp_path):
    path = _played(tmp_path, 50)
    lines = journal_path(path).read_bytes().splitlines(keepends=True)
    lines.insert(40, b"{damaged\n")  # a damaged line further back: skipped and named
    journal_path(path).write_bytes(b"".join(lines))
    for last in (None, 0, 1, 7, 60, 1000):
        held = read_history(path, last)
        stream = stream_history(path, last)
        streamed = list(stream.entries())
        assert streamed == held.entries and stream.warning == held.warning, last
        assert stream.count == len(held.entries)
        assert stream.newest == (held.entries[-1] if held.entries else None)
        assert list(stream.entries()) == streamed  # each pass the same
    assert "line 41 is damaged" in stream_history(path).warning


def test_the_stream_reads_one_line_per_entry_it_hands_out(tmp_path, monkeypatch):
    path = _played(tmp_path, 100)
    stream = stream_history(path)
    parsed = []
    real = journal.parse_line
    monkeypatch.setattr(
        journal, "parse_line", lambda start, raw: parsed.append(start) or real(start, raw)
    )
    entries = stream.entries()
    first = next(entries)
    assert first["kind"] == "init" and len(parsed) == 1  # nothing read ahead
    assert sum(1 for _ in entries) == stream.count - 1 == 200 and len(parsed) == 201


def _peak_of_a_pass(path: Path) -> int:
    stream = stream_history(path)
    tracemalloc.start()
    try:
        for entry in stream.entries():
            json.dumps(entry)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_pass_over_the_stream_holds_no_more_for_ten_times_the_entries(tmp_path):
    small, large = _played(tmp_path / "a", 100), _played(tmp_path / "b", 1000)
    assert _peak_of_a_pass(large) < 1.5 * _peak_of_a_pass(small) + 20_000


def test_log_json_prints_what_it_printed_when_it_held_the_entries(tmp_path):
    path = _played(tmp_path, 30)
    expected = {"entries": read_history(path).entries}
    out = ok("log", "--json", file=path)
    assert out.stdout == json.dumps(expected) + "\n"
    out = ok("log", "--json", "--last", "3", "--kind", "turn-end", file=path)
    assert (
        out.stdout
        == json.dumps(
            {"entries": [e for e in read_history(path, 3).entries if e["kind"] == "turn-end"]}
        )
        + "\n"
    )
    assert ok("log", "--json", "--kind", "check", file=path).stdout == '{"entries": []}\n'


def test_log_text_is_aligned_on_the_newest_entry_shown(tmp_path):
    path = _played(tmp_path, 60)  # seq runs to 121: three digits
    lines = ok("log", file=path).stdout.splitlines()
    assert len(lines) == 121 and lines[0].startswith("#1   ") and lines[-1].startswith("#121 ")
    kept = ok("log", "--kind", "init", file=path).stdout.splitlines()
    assert len(kept) == 1 and kept[0].startswith("#1 ")  # widths from the entries shown
